"""Reading a Llama-family checkpoint: from a GGUF file, or from a Hugging Face folder.

Both give one `LlamaCheckpoint`: a `LlamaConfig`, every tensor in float32 under its Hugging Face
name and in its Hugging Face layout (nn.Linear's (out, in)), and a `tokenizers` tokenizer.

* GGUF (llama.cpp; SmolLM2 ships as one): the config comes from the `llama.*` metadata, the
  tokenizer from the vocabulary and merges (gguf_tokenizer.py), the tensors are dequantized.
  llama.cpp's converter permutes the rows of W_Q and W_K of every head from the "half" RoPE
  pairing (i, i + d/2) into the interleaved one (2i, 2i + 1); `unpermute` undoes it, as
  transformers' GGUF loader does, so the tensors match the Hugging Face layout.
* Folder: config.json with model_type "llama", tokenizer.json, and the tensors in
  model.safetensors or in shards named by model.safetensors.index.json, in float32, float16 or
  bfloat16 (read by tensor_files.py).

Every problem is a `WeightsError`: another architecture, a missing tensor, a tensor whose shape
does not match the config, a config the forward pass does not implement (biases, scaled RoPE,
another activation).
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from attnlab.errors import AttnlabError, WeightsError
from attnlab.models.checkpoint import check_folder, read_json
from attnlab.models.default_ids import template_tokens
from attnlab.models.gguf_reader import hf_tensor_name, read_gguf
from attnlab.models.gguf_tokenizer import gguf_tokenizer
from attnlab.models.tensor_files import SINGLE, read_tensors, stored_dtypes
from attnlab.types import FloatArray

if TYPE_CHECKING:
    from tokenizers import Tokenizer

_INSTALL = "pip install 'attnlab[models]'"

LOAD_THREADS = min(2, os.cpu_count() or 1)
"""Tensors decoded at once while a GGUF loads (each decode is a few NumPy passes)."""

__all__ = [
    "LLAMA_GGUF_NAMES",
    "LlamaCheckpoint",
    "LlamaConfig",
    "folder_tokenizer",
    "read_gguf_checkpoint",
    "read_llama_folder",
    "unpermute",
]


@dataclass(frozen=True)
class LlamaConfig:
    """The numbers the Llama forward pass needs (an ArchConfig, protocol.py)."""

    vocab_size: int
    d_model: int  # hidden_size
    n_layers: int  # num_hidden_layers
    n_heads: int  # num_attention_heads
    n_kv_heads: int  # num_key_value_heads
    d_k: int  # head_dim
    d_ff: int  # intermediate_size
    max_positions: int  # max_position_embeddings (context_length)
    rope_base: float  # rope_theta
    rms_eps: float  # rms_norm_eps
    tied: bool  # tie_word_embeddings: the logits reuse the embedding matrix
    special: tuple[str, ...] = ()  # the tokenizer's control tokens

    @property
    def architecture(self) -> str:
        return "llama"

    @property
    def causal(self) -> bool:
        """A decoder: each token sees itself and the tokens before it."""
        return True

    def expected_shapes(self) -> dict[str, tuple[int, ...]]:
        """Every tensor the forward pass reads, by its Hugging Face name, and its shape."""
        d, dk, ff = self.d_model, self.d_k, self.d_ff
        shapes: dict[str, tuple[int, ...]] = {
            "model.embed_tokens.weight": (self.vocab_size, d),
            "model.norm.weight": (d,),
        }
        for i in range(self.n_layers):
            p = f"model.layers.{i}."
            shapes |= {
                p + "input_layernorm.weight": (d,),
                p + "self_attn.q_proj.weight": (self.n_heads * dk, d),
                p + "self_attn.k_proj.weight": (self.n_kv_heads * dk, d),
                p + "self_attn.v_proj.weight": (self.n_kv_heads * dk, d),
                p + "self_attn.o_proj.weight": (d, self.n_heads * dk),
                p + "post_attention_layernorm.weight": (d,),
                p + "mlp.gate_proj.weight": (ff, d),
                p + "mlp.up_proj.weight": (ff, d),
                p + "mlp.down_proj.weight": (d, ff),
            }
        if not self.tied:
            shapes["lm_head.weight"] = (self.vocab_size, d)
        return shapes

    def check(self, where: str) -> LlamaConfig:
        """Self, once its numbers fit together; WeightsError naming the first that does not."""
        for name in ("vocab_size", "d_model", "n_layers", "n_heads", "n_kv_heads", "d_k", "d_ff"):
            if getattr(self, name) < 1:
                raise WeightsError(f"{where}: {name} is {getattr(self, name)}; it must be >= 1")
        if self.n_heads % self.n_kv_heads:
            raise WeightsError(
                f"{where}: {self.n_heads} query heads cannot share {self.n_kv_heads} key/value "
                "heads evenly"
            )
        if self.d_k % 2:
            raise WeightsError(f"{where}: head_dim {self.d_k} is odd; RoPE rotates pairs")
        if not (math.isfinite(self.rope_base) and self.rope_base > 1):
            raise WeightsError(f"{where}: rope_theta {self.rope_base} must be a number above 1")
        return self


@dataclass(frozen=True)
class LlamaCheckpoint:
    """A checked Llama checkpoint: config, float32 tensors by Hugging Face name, tokenizer."""

    source: Path
    config: LlamaConfig
    tensors: Mapping[str, FloatArray]
    tokenizer: Tokenizer


def unpermute(w: FloatArray, n_heads: int) -> FloatArray:
    """Undo llama.cpp's row permutation of W_Q (or W_K, with its kv heads): (h·d_k, d_in).

    llama.cpp writes each head's rows as reshape(h, 2, d_k/2, d_in).swapaxes(1, 2); the inverse
    is reshape(h, d_k/2, 2, d_in).swapaxes(1, 2)."""
    rows, d_in = w.shape
    half = rows // n_heads // 2
    return np.ascontiguousarray(
        w.reshape(n_heads, half, 2, d_in).swapaxes(1, 2).reshape(rows, d_in)
    )


LLAMA_GGUF_NAMES = {  # llama.cpp's per-layer names -> Hugging Face's
    "attn_norm": "input_layernorm",
    "attn_q": "self_attn.q_proj",
    "attn_k": "self_attn.k_proj",
    "attn_v": "self_attn.v_proj",
    "attn_output": "self_attn.o_proj",
    "ffn_norm": "post_attention_layernorm",
    "ffn_gate": "mlp.gate_proj",
    "ffn_up": "mlp.up_proj",
    "ffn_down": "mlp.down_proj",
}


def read_gguf_checkpoint(path: str | Path) -> LlamaCheckpoint:
    """Read a Llama-architecture GGUF file into a checked checkpoint in Hugging Face's layout."""
    path = Path(path)
    g = read_gguf(path)
    where = path.name
    md = g.metadata
    arch = md.get("general.architecture")
    if arch != "llama":
        raise WeightsError(
            f"{where} holds a {arch!r} model (general.architecture); attnlab reads 'llama' GGUFs"
        )

    def number(key: str, default: float | None = None) -> Any:
        value = g.model_value(key, default)
        if value is None:
            raise WeightsError(f"{where} lacks the metadata key {g.architecture}.{key}")
        return value

    d, h = int(number("embedding_length")), int(number("attention.head_count"))
    h_kv = int(number("attention.head_count_kv", h))
    tokens = md.get("tokenizer.ggml.tokens") or ()
    types = md.get("tokenizer.ggml.token_type") or ()
    tensor_names = {hf_tensor_name(n, LLAMA_GGUF_NAMES): n for n in g.tensors}
    config = LlamaConfig(
        vocab_size=int(number("vocab_size", len(tokens))),
        d_model=d,
        n_layers=int(number("block_count")),
        n_heads=h,
        n_kv_heads=h_kv,
        d_k=int(number("rope.dimension_count", d // max(h, 1))),
        d_ff=int(number("feed_forward_length")),
        max_positions=int(number("context_length")),
        rope_base=float(number("rope.freq_base", 10000.0)),
        rms_eps=float(number("attention.layer_norm_rms_epsilon")),
        tied="lm_head.weight" not in tensor_names,
        special=tuple(t for t, k in zip(tokens, types, strict=False) if k == 3),
    ).check(where)
    if g.model_value("rope.scaling.type") not in (None, "none"):
        raise WeightsError(f"{where}: scaled RoPE is not implemented")
    names: dict[str, str] = {}
    for hf, shape in config.expected_shapes().items():
        name = tensor_names.get(hf)
        if name is None:
            raise WeightsError(f"{where} lacks the tensor for {hf}")
        if g.tensors[name].shape != shape:
            raise WeightsError(
                f"{where}: tensor {name} has shape {g.tensors[name].shape}; the metadata "
                f"implies {shape}"
            )
        names[hf] = name

    def decoded(hf: str) -> FloatArray:
        a = g.tensor(names[hf])
        if hf.endswith("q_proj.weight"):
            return unpermute(a, h)
        if hf.endswith("k_proj.weight"):
            return unpermute(a, h_kv)
        return a

    with ThreadPoolExecutor(LOAD_THREADS) as pool:  # NumPy releases the GIL while it decodes
        tensors = dict(zip(names, pool.map(decoded, names), strict=True))
    tokenizer = gguf_tokenizer(md, where=where)
    return LlamaCheckpoint(path, config, tensors, tokenizer)


def config_from_json(data: Mapping[str, Any], *, where: str = "config.json") -> LlamaConfig:
    """A LlamaConfig from Hugging Face's config.json; WeightsError for what is not supported."""
    if data.get("model_type") != "llama":
        raise WeightsError(f"{where}: model_type is {data.get('model_type')!r}; expected 'llama'")
    for key, fine in (("hidden_act", "silu"), ("attention_bias", False), ("mlp_bias", False)):
        if data.get(key, fine) != fine:
            raise WeightsError(f"{where}: {key} {data[key]!r} is not supported; expected {fine!r}")
    rope = data.get("rope_parameters") or {}
    scaling = data.get("rope_scaling") or {}
    kind = rope.get("rope_type", scaling.get("rope_type", scaling.get("type", "default")))
    if kind != "default":
        raise WeightsError(f"{where}: RoPE type {kind!r} is not implemented; expected 'default'")
    try:
        d, h = int(data["hidden_size"]), int(data["num_attention_heads"])
        return LlamaConfig(
            vocab_size=int(data["vocab_size"]),
            d_model=d,
            n_layers=int(data["num_hidden_layers"]),
            n_heads=h,
            n_kv_heads=int(data.get("num_key_value_heads") or h),
            d_k=int(data.get("head_dim") or d // h),
            d_ff=int(data["intermediate_size"]),
            max_positions=int(data.get("max_position_embeddings", 2048)),
            rope_base=float(rope.get("rope_theta", data.get("rope_theta", 10000.0))),
            rms_eps=float(data.get("rms_norm_eps", 1e-6)),
            tied=bool(data.get("tie_word_embeddings", False)),
        ).check(where)
    except KeyError as exc:
        raise WeightsError(f"{where} lacks the key {exc.args[0]!r}") from None
    except (TypeError, ValueError, ZeroDivisionError) as exc:
        raise WeightsError(f"{where} holds a value that is not a number: {exc}") from None


def read_llama_folder(folder: str | Path) -> LlamaCheckpoint:
    """Read a Llama-family folder in the Hugging Face layout, every tensor checked."""
    root = check_folder(folder)
    config = config_from_json(read_json(root / "config.json"))
    raw = read_tensors(root)
    tensors: dict[str, FloatArray] = {}
    for name, shape in config.expected_shapes().items():
        if name not in raw:
            dtype = stored_dtypes(root).get(name)
            if dtype is not None:
                raise WeightsError(f"{SINGLE}: tensor {name} has dtype {dtype}")
            raise WeightsError(f"{SINGLE} lacks the tensor {name} the decoder needs")
        a = raw[name]
        if a.shape != shape:
            raise WeightsError(
                f"{SINGLE}: tensor {name} has shape {a.shape}; config.json implies "
                f"{shape}: the config does not match the tensors"
            )
        tensors[name] = a
    tokenizer, special = folder_tokenizer(root, config.vocab_size)
    config = LlamaConfig(**{**config.__dict__, "special": special})
    return LlamaCheckpoint(root, config, tensors, tokenizer)


def folder_tokenizer(root: Path, vocab_size: int) -> tuple[Tokenizer, tuple[str, ...]]:
    """A decoder folder's tokenizer.json, no padding or truncation, and its special tokens
    (those it declares and those its template adds); WeightsError for one of another model."""
    try:
        from tokenizers import Tokenizer
    except ImportError as exc:
        raise AttnlabError(f"reading weights needs {exc.name}: {_INSTALL}") from None
    try:
        tokenizer = Tokenizer.from_file(str(root / "tokenizer.json"))
    except Exception as exc:  # a bare Exception for a malformed file
        raise WeightsError(f"tokenizer.json cannot be read as a tokenizer: {exc}") from None
    tokenizer.no_padding()
    tokenizer.no_truncation()
    if tokenizer.get_vocab_size() > vocab_size:
        raise WeightsError(
            f"tokenizer.json has {tokenizer.get_vocab_size()} tokens but config.json's "
            f"vocab_size is {vocab_size}: the tokenizer belongs to another model"
        )
    added = (str(t.content) for t in tokenizer.get_added_tokens_decoder().values())
    return tokenizer, tuple(dict.fromkeys([*added, *template_tokens(tokenizer)]))
