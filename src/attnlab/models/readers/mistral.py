"""Mistral: Llama's layout and pass with a sliding window on every layer (`sliding_window`:
query i sees keys i − W < j ≤ i; none when null)."""

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
    spec = replace(base, architecture="mistral", mask=mask_of(c, base.n_layers))
    return spec, llama_layout(spec, Tensors(tensors))
