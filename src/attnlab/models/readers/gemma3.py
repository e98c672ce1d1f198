"""Gemma 3 (text): Gemma 2's sandwich norms and query scale, QK-norm (each head's q and k
normed with the (1 + γ) offset), five sliding layers of every six (sliding_window_pattern, or
layer_types) and two RoPE bases: rope_local_base_freq (10,000) on the sliding layers, rope_theta
(1,000,000, possibly scaled) on the global ones. No score caps unless the config sets them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from attnlab.models.decoder import DecoderWeights
from attnlab.models.readers import gemma
from attnlab.models.readers.common import Tensors, llama_layout, mask_of, rope_of
from attnlab.models.readers.gemma2 import SANDWICH, _cap
from attnlab.models.spec import DecoderSpec, RopeSpec
from attnlab.types import FloatArray


def _local_rope(c: Mapping[str, Any]) -> RopeSpec:
    params = c.get("rope_parameters")
    if isinstance(params, Mapping) and "sliding_attention" in params:  # transformers 5
        return rope_of(c, layer_type="sliding_attention")
    base = float(c.get("rope_local_base_freq", 10_000.0))  # transformers 4: never scaled
    return replace(rope_of({**c, "rope_scaling": None}), base=base)


def read(
    c: Mapping[str, Any], tensors: Mapping[str, FloatArray]
) -> tuple[DecoderSpec, DecoderWeights]:
    base = gemma.spec_of(c, architecture="gemma3_text")
    pattern = int(c.get("sliding_window_pattern", 6))
    scalar = c.get("query_pre_attn_scalar")
    spec = replace(
        base, sandwich=True, qk_norm=True, rope=rope_of(c, layer_type="full_attention"),
        rope_local=_local_rope(c), attn_softcap=_cap(c, "attn_logit_softcapping"),
        final_softcap=_cap(c, "final_logit_softcapping"),
        query_scale=None if scalar is None else float(scalar) ** -0.5,
        mask=mask_of(c, base.n_layers, local=lambda i: (i + 1) % pattern != 0),
    )  # fmt: skip
    return spec, llama_layout(spec, Tensors(tensors), post_attn_names=SANDWICH)
