"""The notebook's answer to the lab's `ask("cheaper", params)`: `/api/cheaper`'s, from the kernel.

The same section (lesson/cheaper_lab.py) and encoder (encode/cheaper_json.py) as the route:

    {"ask": "cheaper", "params": {"sentence", "focus", "tile", "mode", "axis", "temperature",
                                  "positions", "causal", "edits"}}
    {"ask": "price", "params": {}}   measured in the kernel's measuring process
    {"ask": "models" | "kv", "params": {}}   the real-model card (/api/cheaper/models, /kv),
                                     in the same process: they load the models
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from attnlab import lesson
from attnlab.core.cheaper_cost import measure_price
from attnlab.encode.cheaper_json import encode_cheaper, encode_price
from attnlab.errors import ArgumentTypeError
from attnlab.lesson.cheaper_lab import cheaper_lab
from attnlab.lesson.options import LessonOptions
from attnlab.types import AXES, MODES

__all__ = ["cheaper_answer", "kv_answer", "models_answer", "price_answer"]


def cheaper_answer(params: Mapping[str, Any], edits: lesson.Edits) -> dict[str, Any]:
    """`/api/cheaper`'s answer for the lab's parameters (edits already read by the caller)."""
    tile = params.get("tile", 2)
    if isinstance(tile, bool) or not isinstance(tile, int) or not 1 <= tile <= lesson.MAX_TOKENS:
        raise ArgumentTypeError(
            f"tile must be a whole number 1 to {lesson.MAX_TOKENS}, got {tile!r:.40}", field="tile"
        )
    mode = params.get("mode") or "scaled"
    if mode not in MODES:
        raise ArgumentTypeError(f"mode must be one of {', '.join(MODES)}, got {mode!r:.40}",
                                field="mode")  # fmt: skip
    axis = params.get("axis") or "keys"
    if axis not in AXES:
        raise ArgumentTypeError(f"axis must be one of {', '.join(AXES)}, got {axis!r:.40}",
                                field="axis")  # fmt: skip
    opts = LessonOptions(
        mode=mode,
        axis=axis,
        temperature=params.get("temperature") if mode == "scaled" else None,
        positions=params.get("positions") or "none",
        causal=bool(params.get("causal")),
        edits=edits,
    )
    sentence = str(params.get("sentence", lesson.DEFAULT_SENTENCE))
    c = cheaper_lab(sentence, opts, focus=params.get("focus"), tile=int(tile))
    return encode_cheaper(c).model_dump(mode="json")


def price_answer() -> dict[str, Any]:
    """`/api/cheaper/price`'s answer; run it in a process of its own (tracemalloc)."""
    return encode_price(measure_price()).model_dump(mode="json")


def models_answer() -> dict[str, Any]:
    """`/api/cheaper/models`'s answer: each real model's cache per token per layer."""
    from attnlab.encode.cheaper_models_json import encode_model_caches
    from attnlab.models.real_caches import real_caches

    return encode_model_caches(real_caches()).model_dump(mode="json")


def kv_answer() -> dict[str, Any]:
    """`/api/cheaper/kv`'s answer: SmolLM2 decoding the short text on a cache against the pass."""
    from attnlab.encode.cheaper_models_json import KV_TEXT, encode_kv_check
    from attnlab.models import load_model
    from attnlab.models.decoder import Decoder
    from attnlab.models.kv_decode import check_cache

    model = load_model("smollm2")
    assert isinstance(model, Decoder)  # the registry's smollm2 is a Llama decoder
    c = check_cache(model, KV_TEXT)
    return encode_kv_check(c, model=model.name, dtype=str(model.embedding.dtype)).model_dump(
        mode="json"
    )
