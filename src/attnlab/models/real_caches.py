"""The key/value cache per token per layer of real models, each from its own sizes.

One function for `attnlab cheaper cache`, `GET /api/cheaper/models` and the notebook: SmolLM2
and MiniLM from their loaded configs (models/cheaper_heads.py's `cache_of`), Gemma 3 270M from
its GGUF header (models/window_cache.py, its sliding layers), DeepSeek-V2 from its paper's
published sizes (core/kv_heads.py's DEEPSEEK_V2). A model whose package is absent keeps its row,
its numbers empty and its install command in `missing`. Bytes are for 16-bit numbers, as
inference caches usually hold them; `cache_forms` computes every row (MHA, GQA, MQA, MLA).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from attnlab.core.kv_heads import DEEPSEEK_V2, CacheForm, cache_forms
from attnlab.errors import WeightsError
from attnlab.models.cheaper_heads import cache_of
from attnlab.models.protocol import Model
from attnlab.models.summary import ModelSummary
from attnlab.models.window_cache import WindowCache, gemma3_270m_cache

__all__ = ["CACHE_MODELS", "ModelCache", "real_caches"]

CACHE_MODELS = ("minilm", "smollm2")
"""The loaded models whose caches are listed by default."""


@dataclass(frozen=True)
class ModelCache:
    """One model's cache per token per layer in each form, or why it is absent."""

    name: str
    source: Literal["weights", "gguf", "published"]
    n_layers: int | None
    forms: tuple[CacheForm, ...]  # empty when missing
    missing: str | None = None  # the install command when the package is absent
    window: WindowCache | None = None  # Gemma 3's sliding layers


def real_caches(
    names: Sequence[str] = CACHE_MODELS, *, load: Callable[[str], Model] | None = None
) -> tuple[ModelCache, ...]:
    """Each named model's cache (`load` a model by name: registry's load_model by default, the
    worker's kept models on the page), then Gemma 3 270M and DeepSeek-V2."""
    if load is None:
        from attnlab.models.registry import load_model

        load = load_model
    rows = []
    for name in names:
        try:
            s = ModelSummary.of(load(name))
        except WeightsError as exc:
            rows.append(ModelCache(name, "weights", None, (), missing=str(exc)))
        else:
            rows.append(ModelCache(s.name, "weights", s.n_layers, cache_of(s)))
    try:
        g = gemma3_270m_cache()
    except WeightsError as exc:
        rows.append(ModelCache("Gemma 3 270M", "gguf", None, (), missing=str(exc)))
    else:
        rows.append(ModelCache(g.name, "gguf", g.n_layers, g.forms(), window=g))
    ds = DEEPSEEK_V2
    forms = cache_forms(n_heads=ds["n_heads"], d_k=ds["d_k"], d_c=ds["d_c"], d_rope=ds["d_rope"])
    rows.append(ModelCache("DeepSeek-V2", "published", ds["n_layers"], forms))
    return tuple(rows)
