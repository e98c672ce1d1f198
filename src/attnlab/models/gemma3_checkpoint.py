"""A Gemma 3 GGUF file (llama.cpp's `gemma3` architecture) read into a `Decoder`.

The GGUF's `gemma3.*` metadata becomes the config.json transformers would write for it (as its
GGUF loader, integrations/ggml.py, maps the keys), its tensors are dequantised and renamed to
Hugging Face's names, and readers/gemma3.py, the reader of Gemma 3 folders, turns both into the
spec and the common weights. So a GGUF and a folder of the same model meet one reader:

    gemma3.block_count, embedding_length, feed_forward_length   num_hidden_layers, hidden_size, …
    gemma3.attention.head_count / head_count_kv / key_length    4 query heads, 1 K/V head, d_k 256
    gemma3.attention.sliding_window                             512 keys on the local layers
    gemma3.rope.freq_base                                       1,000,000 on the global layers

What the GGUF does not hold, llama.cpp's runtime sets for gemma3 (src/llama-model.cpp), and so
do transformers' Gemma3TextConfig defaults: five sliding layers of every six (the sixth, twelfth
and eighteenth global), RoPE base 10,000 on the sliding layers, the query scaled by
query_pre_attn_scalar^−½ with the scalar = head_dim (1/√256 for 270M), no soft caps. A key the
file does carry (`attention.sliding_window_pattern`, `rope.freq_base_swa`, a soft cap) wins.

Tensor names (llama.cpp -> Hugging Face): attn_norm input_layernorm, post_attention_norm
post_attention_layernorm, ffn_norm pre_feedforward_layernorm, post_ffw_norm
post_feedforward_layernorm, attn_q_norm / attn_k_norm q_norm / k_norm, output_norm model.norm.
llama.cpp's converter adds 1 to every Gemma norm weight (its RMSNorm multiplies by γ, Gemma's by
1 + γ), so 1 is taken off again, as transformers' Gemma2TensorProcessor does; Gemma's rows of
W_Q and W_K are not permuted (only the llama converter permutes them).
"""

from __future__ import annotations

import re
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from attnlab.errors import WeightsError
from attnlab.models.decoder import Decoder
from attnlab.models.gguf_reader import GGUFFile, hf_tensor_name
from attnlab.models.gguf_sentencepiece import CONTROL
from attnlab.models.gguf_tokenizer import gguf_tokenizer
from attnlab.models.llama_checkpoint import LOAD_THREADS
from attnlab.models.readers import gemma3
from attnlab.types import FloatArray

__all__ = [
    "GEMMA3_GGUF_NAMES",
    "IMAGE_MARKERS",
    "LOAD_SECONDS",
    "gemma3_config",
    "gemma3_tensor_name",
    "gemma3_tensors",
    "read_gemma3_gguf",
]

LOAD_SECONDS: dict[str, float] = {}
"""The last load's seconds by step (header, tensors, tokenizer), as measured when it ran."""

_UNUSED = re.compile(r"<unused\d+>")
"""Gemma's 6,242 reserved control tokens, never in a text: the special tokens named are the
seven others (<pad>, <eos>, <bos>, <unk>, <mask>, <start_of_turn>, <end_of_turn>)."""

IMAGE_MARKERS = ("<start_of_image>", "<end_of_image>")
"""Where an image goes in a Gemma 3 text: special in Gemma 3's own tokenizer.json and named by
transformers' Gemma3Config (boi_token_index 255999, eoi_token_index 256000), though its GGUF types
them user-defined (4), not control. The 270M text model still predicts <start_of_image> after "a
photo of my cat:", so a view says it is a special token, not a word."""

GEMMA3_GGUF_NAMES = {  # llama.cpp's per-layer names -> Hugging Face's
    "attn_norm": "input_layernorm",
    "attn_q": "self_attn.q_proj",
    "attn_k": "self_attn.k_proj",
    "attn_v": "self_attn.v_proj",
    "attn_output": "self_attn.o_proj",
    "attn_q_norm": "self_attn.q_norm",
    "attn_k_norm": "self_attn.k_norm",
    "post_attention_norm": "post_attention_layernorm",
    "ffn_norm": "pre_feedforward_layernorm",
    "post_ffw_norm": "post_feedforward_layernorm",
    "ffn_gate": "mlp.gate_proj",
    "ffn_up": "mlp.up_proj",
    "ffn_down": "mlp.down_proj",
}


def gemma3_tensor_name(gguf_name: str) -> str | None:
    """A gemma3 GGUF tensor's Hugging Face name, or None for a tensor the decoder does not read."""
    return hf_tensor_name(gguf_name, GEMMA3_GGUF_NAMES)


def gemma3_config(g: GGUFFile) -> dict[str, Any]:
    """The config.json (transformers' keys, model_type gemma3_text) a gemma3 GGUF describes."""
    where = g.path.name

    def value(key: str, default: Any = None) -> Any:
        found = g.model_value(key, default)
        if found is None:
            raise WeightsError(f"{where} lacks the metadata key gemma3.{key}")
        return found

    h = int(value("attention.head_count"))
    head_dim = int(value("attention.key_length", 256))
    if int(value("attention.value_length", head_dim)) != head_dim:
        raise WeightsError(f"{where}: key_length and value_length differ; Gemma 3's are equal")
    tokens = g.metadata.get("tokenizer.ggml.tokens") or ()
    config: dict[str, Any] = {
        "model_type": "gemma3_text",
        "hidden_size": int(value("embedding_length")),
        "num_hidden_layers": int(value("block_count")),
        "intermediate_size": int(value("feed_forward_length")),
        "num_attention_heads": h,
        "num_key_value_heads": int(value("attention.head_count_kv", h)),
        "head_dim": head_dim,
        "max_position_embeddings": int(value("context_length", 32_768)),
        "rms_norm_eps": float(value("attention.layer_norm_rms_epsilon", 1e-6)),
        "vocab_size": int(value("vocab_size", len(tokens))),
        "rope_theta": float(value("rope.freq_base", 1_000_000.0)),
        "rope_local_base_freq": float(value("rope.freq_base_swa", 10_000.0)),
        "sliding_window": int(value("attention.sliding_window", 512)),
        "sliding_window_pattern": int(value("attention.sliding_window_pattern", 6)),
        "query_pre_attn_scalar": head_dim,
        "hidden_activation": "gelu_pytorch_tanh",
        "attn_logit_softcapping": g.model_value("attn_logit_softcapping"),
        "final_logit_softcapping": g.model_value("final_logit_softcapping"),
        "tie_word_embeddings": "output.weight" not in g.tensors,
    }
    if g.model_value("rope.scaling.type") not in (None, "none"):
        raise WeightsError(f"{where}: scaled RoPE ({g.model_value('rope.scaling.type')!r}) "
                           "is not read from GGUF files")  # fmt: skip
    return config


def _decoded(g: GGUFFile, gguf_name: str) -> FloatArray:
    a = g.tensor(gguf_name)
    if gguf_name.endswith("norm.weight"):
        a = a - a.dtype.type(1)  # llama.cpp stored 1 + γ; the spec's norm adds the 1 itself
    return a


def gemma3_tensors(g: GGUFFile) -> dict[str, FloatArray]:
    """Every tensor the decoder reads, dequantised to float32, by its Hugging Face name and with
    Hugging Face's values (the norms' γ without llama.cpp's added 1)."""
    names = {hf: n for n in g.tensors if (hf := gemma3_tensor_name(n)) is not None}
    with ThreadPoolExecutor(LOAD_THREADS) as pool:  # NumPy releases the GIL while it decodes
        arrays = pool.map(lambda n: _decoded(g, n), names.values())
        return dict(zip(names, arrays, strict=True))


def read_gemma3_gguf(g: GGUFFile, *, name: str) -> Decoder:
    """The decoder a gemma3 GGUF holds, every tensor dequantised to float32."""
    started = time.perf_counter()
    config = gemma3_config(g)
    header = time.perf_counter()
    tensors = gemma3_tensors(g)
    decoded = time.perf_counter()
    try:
        spec, weights = gemma3.read(config, tensors)
    except WeightsError as exc:  # the reader names a folder's files; this is one GGUF
        said = (
            str(exc).replace("model.safetensors", "the file").replace("config.json", "its metadata")
        )
        raise WeightsError(f"{g.path.name} (Hugging Face names): {said}") from None
    tokenizer = gguf_tokenizer(g.metadata, where=g.path.name)
    done = time.perf_counter()
    LOAD_SECONDS.update(header=header - started, tensors=decoded - header, tokenizer=done - decoded)
    types = g.metadata.get("tokenizer.ggml.token_type") or ()
    words = g.metadata.get("tokenizer.ggml.tokens") or ()
    kept = (k == CONTROL and not _UNUSED.fullmatch(t) for t, k in zip(words, types, strict=False))
    special = tuple(t for t, keep in zip(words, kept, strict=False) if keep or t in IMAGE_MARKERS)
    return Decoder(spec, weights, tokenizer, name=name, special=special)
