"""Gemma (1): Llama's layout with RMSNorm's (1 + γ) offset, GeGLU (tanh GELU) and the
embeddings scaled by √d_model; the logits reuse the embeddings."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from attnlab.models.decoder import DecoderWeights
from attnlab.models.readers.common import (
    Tensors,
    llama_layout,
    norm_eps,
    refuse_activation,
    refuse_experts,
    rope_of,
    sizes_of,
)
from attnlab.models.spec import DecoderSpec, GeluKind
from attnlab.types import FloatArray

GELUS: dict[str, str] = {"gelu_pytorch_tanh": "tanh", "gelu_new": "tanh", "gelu": "exact"}


def gelu_of(c: Mapping[str, Any]) -> GeluKind:
    """Gemma's MLP activation: hidden_activation wins over hidden_act (as transformers reads)."""
    kind = refuse_activation(c, GELUS, "hidden_activation", "hidden_act")
    return "exact" if kind == "exact" else "tanh"


def spec_of(c: Mapping[str, Any], *, architecture: str = "gemma") -> DecoderSpec:
    """Gemma's spec; Gemma 2 and 3 start from it."""
    refuse_experts(c)
    sizes = sizes_of(c)
    return DecoderSpec(
        architecture, **sizes, norm="rmsnorm_offset", norm_eps=norm_eps(c), mlp="geglu",
        gelu=gelu_of(c), rope=rope_of(c), embed_scale=math.sqrt(sizes["d_model"]),
        tied=bool(c.get("tie_word_embeddings", True)),
        qkv_bias=bool(c.get("attention_bias", False)), o_bias=bool(c.get("attention_bias", False)),
    )  # fmt: skip


def read(
    c: Mapping[str, Any], tensors: Mapping[str, FloatArray]
) -> tuple[DecoderSpec, DecoderWeights]:
    spec = spec_of(c)
    return spec, llama_layout(spec, Tensors(tensors))
