"""One reader per architecture: (config.json as a dict, {Hugging Face tensor name: array}) ->
(DecoderSpec, DecoderWeights), the spec and the common layer weights decoder.py runs.

`READERS` maps config.json's model_type to its reader; `read_decoder` dispatches and refuses an
unlisted model_type by name with the list. Adding an architecture is one module here (its
tensor names and its spec) and one line in READERS.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from attnlab.errors import UnsupportedError
from attnlab.models.decoder import DecoderWeights
from attnlab.models.readers import gemma, gemma2, gemma3, gpt2, mistral, phi3, qwen2, qwen3
from attnlab.models.readers import llama_like as llama
from attnlab.models.readers.common import Reader
from attnlab.models.spec import DecoderSpec
from attnlab.types import FloatArray

__all__ = ["READERS", "Reader", "read_decoder"]

READERS: dict[str, Reader] = {
    "gpt2": gpt2.read,
    "llama": llama.read,
    "mistral": mistral.read,
    "qwen2": qwen2.read,
    "qwen3": qwen3.read,
    "gemma": gemma.read,
    "gemma2": gemma2.read,
    "gemma3_text": gemma3.read,
    "phi3": phi3.read,
}
"""config.json's model_type -> the reader of that architecture's decoder."""


def read_decoder(
    config: Mapping[str, Any], tensors: Mapping[str, FloatArray]
) -> tuple[DecoderSpec, DecoderWeights]:
    """The spec and weights of a decoder checkpoint, by its config's model_type."""
    kind = config.get("model_type")
    reader = READERS.get(str(kind))
    if reader is None:
        raise UnsupportedError(
            f"config.json: model_type {kind!r} is not a decoder attnlab runs; supported: "
            + ", ".join(READERS)
        )
    return reader(config, tensors)
