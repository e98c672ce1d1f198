"""Llama (and the folders that copy its layout): RMSNorm, SwiGLU, half-split RoPE with the
default, linear or llama3 scaling, optional attention and MLP biases, GQA.

transformers' `LlamaForCausalLM`: model.layers.i.{input_layernorm, self_attn.{q,k,v,o}_proj,
post_attention_layernorm, mlp.{gate,up,down}_proj}, model.norm, lm_head (absent when tied).
"""

from __future__ import annotations

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
from attnlab.models.spec import DecoderSpec
from attnlab.types import FloatArray

SILU = {"silu": "silu", "swish": "silu"}


def spec_of(c: Mapping[str, Any]) -> DecoderSpec:
    """The spec of a Llama config.json."""
    refuse_experts(c)
    refuse_activation(c, SILU, "hidden_act")
    sizes = sizes_of(c)
    bias = bool(c.get("attention_bias", False))
    return DecoderSpec(
        "llama", **sizes, norm="rmsnorm", norm_eps=norm_eps(c), mlp="swiglu",
        rope=rope_of(c), qkv_bias=bias, o_bias=bias, mlp_bias=bool(c.get("mlp_bias", False)),
        tied=bool(c.get("tie_word_embeddings", False)),
    )  # fmt: skip


def read(
    c: Mapping[str, Any], tensors: Mapping[str, FloatArray]
) -> tuple[DecoderSpec, DecoderWeights]:
    spec = spec_of(c)
    return spec, llama_layout(spec, Tensors(tensors))
