"""A decoder folder in the Hugging Face layout, of any architecture a reader names.

config.json's model_type picks the reader (readers/__init__.py), which turns the config and the
tensors (tensor_files.py: one model.safetensors or shards, float32, float16 or bfloat16) into a
`DecoderSpec` and common weights; the tokenizer is tokenizer.json. A config.json that names
fewer layers than the tensors hold is refused by name: it would otherwise run a truncated model
(one that names more is refused by the reader, for the tensor it lacks).
"""

from __future__ import annotations

import os

from attnlab.models.checkpoint import check_folder, read_json
from attnlab.models.config_checks import check_layer_count
from attnlab.models.decoder import Decoder
from attnlab.models.llama_checkpoint import folder_tokenizer
from attnlab.models.readers import read_decoder
from attnlab.models.tensor_files import read_tensors

__all__ = ["read_decoder_folder"]

_PREFIXES = ("model.layers.", "transformer.h.", "h.")
"""Where the layers' tensors are named: Llama's layout, GPT-2's with and without its prefix."""


def read_decoder_folder(folder: str | os.PathLike[str], *, name: str) -> Decoder:
    """The decoder in `folder` (config.json, tensors, tokenizer.json), checked as it loads."""
    root = check_folder(folder)
    config = read_json(root / "config.json")
    tensors = read_tensors(root)
    spec, weights = read_decoder(config, tensors)
    prefix = next((p for p in _PREFIXES if any(n.startswith(p) for n in tensors)), _PREFIXES[0])
    key = "n_layer" if spec.architecture == "gpt2" else "num_hidden_layers"
    check_layer_count(tensors, spec.n_layers, prefix=prefix, key=key)
    tokenizer, special = folder_tokenizer(root, spec.vocab_size)
    return Decoder(spec, weights, tokenizer, name=name, special=special)
