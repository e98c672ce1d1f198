"""Qwen3: Qwen2 without the QKV biases (unless attention_bias) and with QK-norm: each head's q
and k RMS-normed over d_k (self_attn.q_norm, k_norm) before RoPE."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from attnlab.models.decoder import DecoderWeights
from attnlab.models.readers import qwen2
from attnlab.models.readers.common import Tensors, llama_layout
from attnlab.models.spec import DecoderSpec
from attnlab.types import FloatArray


def read(
    c: Mapping[str, Any], tensors: Mapping[str, FloatArray]
) -> tuple[DecoderSpec, DecoderWeights]:
    bias = bool(c.get("attention_bias", False))
    spec = replace(qwen2.spec_of(c, architecture="qwen3"), qk_norm=True, qkv_bias=bias,
                   o_bias=bias)  # fmt: skip
    return spec, llama_layout(spec, Tensors(tensors))
