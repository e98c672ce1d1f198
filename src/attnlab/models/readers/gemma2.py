"""Gemma 2: Gemma with sandwich norms (post_attention_layernorm after attention,
pre_feedforward_layernorm before the MLP, post_feedforward_layernorm after it), the scores
soft-capped (attn_logit_softcapping) and scaled by query_pre_attn_scalar^−½, the logits
soft-capped (final_logit_softcapping), and a sliding window on every other layer (the first
slides)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from attnlab.models.decoder import DecoderWeights
from attnlab.models.readers import gemma
from attnlab.models.readers.common import Tensors, llama_layout, mask_of
from attnlab.models.spec import DecoderSpec
from attnlab.types import FloatArray

SANDWICH = ("post_attention_layernorm", "pre_feedforward_layernorm")


def _cap(c: Mapping[str, Any], key: str) -> float | None:
    value = c.get(key)
    return None if value is None else float(value)


def read(
    c: Mapping[str, Any], tensors: Mapping[str, FloatArray]
) -> tuple[DecoderSpec, DecoderWeights]:
    base = gemma.spec_of(c, architecture="gemma2")
    scalar = c.get("query_pre_attn_scalar")
    spec = replace(
        base, sandwich=True, attn_softcap=_cap(c, "attn_logit_softcapping"),
        final_softcap=_cap(c, "final_logit_softcapping"),
        query_scale=None if scalar is None else float(scalar) ** -0.5,
        mask=mask_of(c, base.n_layers, local=lambda i: i % 2 == 0),
    )  # fmt: skip
    return spec, llama_layout(spec, Tensors(tensors), post_attn_names=SANDWICH)
