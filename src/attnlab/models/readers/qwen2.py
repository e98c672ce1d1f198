"""Qwen2: Llama's layout with biases on W_Q, W_K and W_V (none on W_O), and a sliding window
on the layers `layer_types` names (transformers 5) or, with use_sliding_window, on layers from
max_window_layers on (transformers 4)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from attnlab.models.decoder import DecoderWeights
from attnlab.models.readers import llama_like as llama
from attnlab.models.readers.common import Tensors, llama_layout, mask_of
from attnlab.models.spec import DecoderSpec
from attnlab.types import FloatArray


def spec_of(c: Mapping[str, Any], *, architecture: str = "qwen2") -> DecoderSpec:
    """Qwen2's spec (Qwen3 starts from it)."""
    base = llama.spec_of({**c, "attention_bias": False, "mlp_bias": False})
    if c.get("use_sliding_window") and c.get("sliding_window"):
        first = int(c.get("max_window_layers", 0))
        mask = mask_of(c, base.n_layers, local=lambda i: i >= first)
    else:
        mask = mask_of({**c, "sliding_window": None}, base.n_layers)
    return replace(base, architecture=architecture, mask=mask)


def read(
    c: Mapping[str, Any], tensors: Mapping[str, FloatArray]
) -> tuple[DecoderSpec, DecoderWeights]:
    spec = replace(spec_of(c), qkv_bias=True)
    return spec, llama_layout(spec, Tensors(tensors))
