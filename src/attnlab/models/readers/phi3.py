"""Phi-3: Llama's pass with fused projections (self_attn.qkv_proj holds W_Q, W_K, W_V stacked;
mlp.gate_up_proj W_gate and W_up), partial rotary when partial_rotary_factor < 1, and a
sliding window on every layer when sliding_window is set. longrope is refused by name."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from attnlab.models.decoder import DecoderWeights
from attnlab.models.readers import llama_like as llama
from attnlab.models.readers.common import Tensors, llama_layout, mask_of
from attnlab.models.spec import DecoderSpec
from attnlab.types import FloatArray


def read(
    c: Mapping[str, Any], tensors: Mapping[str, FloatArray]
) -> tuple[DecoderSpec, DecoderWeights]:
    base = llama.spec_of({**c, "attention_bias": False, "mlp_bias": False})
    spec = replace(base, architecture="phi3", mask=mask_of(c, base.n_layers))
    return spec, llama_layout(spec, Tensors(tensors), fused=True)
