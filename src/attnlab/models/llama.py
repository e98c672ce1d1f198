"""The Llama-family decoder's forward pass in NumPy, every head through the lesson's `attend`.

Follows transformers' `LlamaForCausalLM` (eager attention, float32), row-vector convention
(x W, weights transposed once at load time). For SmolLM2-135M: 30 layers, d_model 576, 9 query
heads sharing 3 key/value heads (grouped-query attention, Ainslie et al., 2023), d_k 64, RoPE
base 100,000, SwiGLU width 1,536, the logits reusing the embedding matrix.

    1. Embed:    x = E[ids]                                                      (n, d)
    then per layer:
    2. Norm:     h = RMSNorm(x) · γ₁                                             (n, d)
    3. Project:  q, k, v = h W_Q, h W_K, h W_V, split into 9, 3 and 3 heads       (h, n, d_k)
    4. Rotate:   q, k = RoPE(q), RoPE(k), pair i = dimensions (i, i + d_k/2)      (core/positions)
    5. Attend:   z = softmax(q kᵀ / √d_k + causal mask) v, query head i reading key/value
                 head i // 3 (core/grouped.py), in blocks of query rows (causal_blocks.py)
    6. Merge:    a = x + concat(z) W_O                                           (n, d)
    7. MLP:      x = a + SwiGLU(RMSNorm(a) · γ₂)                                 (n, d)
    8. Read out: logits = RMSNorm(x) · γ E ᵀ, for the positions asked (decoder_trace.py)

Steps 2–4 and 6–7 treat each token's row alone: from ROWS_SPLIT_FROM tokens on they run in two
row halves on the pass's two threads (threads.py), as step 5's blocks do.

A text is tokenized without a beginning-of-text token, as SmolLM2's tokenizer does. The trace
keeps each layer's q (after RoPE), k and v and the per-head diagnostics, never an n × n matrix:
a head's weights are recomputed when read, so a 2,048-token pass keeps about 0.4 GB.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from attnlab.core.attention import merge_heads
from attnlab.core.diagnostics import HeadStats
from attnlab.core.positions import rope_angles, rotate
from attnlab.errors import EmptySequenceError, TooLongError
from attnlab.models.causal_blocks import attend_causal
from attnlab.models.decoder_trace import DecoderTrace, Readout
from attnlab.models.gguf_tokenizer import readable
from attnlab.models.layer_keep import LayerKeep
from attnlab.models.llama_checkpoint import LOAD_THREADS, LlamaCheckpoint, LlamaConfig
from attnlab.models.nn_decoder import rms_norm, swiglu
from attnlab.models.summary import ModelSummary
from attnlab.models.threads import THREADS, blas_by_size, each, one_blas_thread
from attnlab.types import FloatArray
from attnlab.words.grammar import counted

if TYPE_CHECKING:
    from collections.abc import Mapping

    from tokenizers import Tokenizer

__all__ = ["MAX_TOKENS", "LlamaDecoder"]

MAX_TOKENS = 2048
"""The longest text `trace` accepts. SmolLM2 was trained on 8,192 positions; 2,048 keeps a pass
with every head recomputable within a second-scale run and half a gigabyte of kept arrays."""

ROWS_SPLIT_FROM = 384
"""From this many tokens a layer's row-wise steps run in two halves, one per thread, with BLAS on
one thread for the whole pass. SmolLM2 passes, interleaved: 512 tokens 1.66 s in halves against
2.03 s whole (BLAS's two threads), 256 tokens 0.95 s both ways, 128 tokens 0.53 against 0.49 s."""


@dataclass(frozen=True)
class LayerWeights:
    """One decoder layer's parameters, transposed to (in, out) for x @ W: views of the (out, in)
    matrices that nn.Linear stores (Fortran order), which BLAS multiplies as fast as copies and
    a load does not have to copy."""

    norm_attn: FloatArray  # (d,) γ₁
    w_qkv: FloatArray  # (d, (h + 2 h_kv) d_k) [W_Q | W_K | W_V]
    w_o: FloatArray  # (h d_k, d)
    norm_mlp: FloatArray  # (d,) γ₂
    w_gate_up: FloatArray  # (d, 2 d_ff) [W_gate | W_up]
    w_down: FloatArray  # (d_ff, d)

    @classmethod
    def from_tensors(cls, t: Mapping[str, FloatArray], i: int) -> LayerWeights:
        """Layer `i` from Hugging Face names; nn.Linear stores (out, in), we keep (in, out)."""
        p = f"model.layers.{i}."

        def linear(*names: str) -> FloatArray:  # a transposed view: BLAS reads it as is
            return np.concatenate([t[p + n + ".weight"] for n in names]).T

        return cls(
            norm_attn=t[p + "input_layernorm.weight"],
            w_qkv=linear("self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj"),
            w_o=linear("self_attn.o_proj"),
            norm_mlp=t[p + "post_attention_layernorm.weight"],
            w_gate_up=linear("mlp.gate_proj", "mlp.up_proj"),
            w_down=linear("mlp.down_proj"),
        )


class LlamaDecoder:
    """A loaded Llama-family decoder (a `Model`, protocol.py): `trace(text)` runs the pass."""

    def __init__(self, checkpoint: LlamaCheckpoint, *, name: str | None = None) -> None:
        t, c = checkpoint.tensors, checkpoint.config
        self.name = name or checkpoint.source.stem
        self.config: LlamaConfig = c
        self.tokenizer: Tokenizer = checkpoint.tokenizer
        self.embedding = t["model.embed_tokens.weight"]  # (vocab, d)
        unembed = self.embedding if c.tied else t["lm_head.weight"]  # (vocab, d)
        with ThreadPoolExecutor(LOAD_THREADS) as pool:  # each is a few copies (GIL released)
            self.layers = tuple(
                pool.map(lambda i: LayerWeights.from_tensors(t, i), range(c.n_layers))
            )
        self.readout = Readout(t["model.norm.weight"], c.rms_eps, unembed, self.tokenizer,
                               c.rope_base)  # fmt: skip
        self.max_tokens = min(MAX_TOKENS, c.max_positions)
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        c = self.config
        return (
            f"LlamaDecoder({self.name!r}: {c.n_layers} layers, {c.n_heads} query heads over "
            f"{c.n_kv_heads} key/value heads, d_model {c.d_model}, d_k {c.d_k})"
        )

    @property
    def summary(self) -> ModelSummary:
        """The model's name, sizes, limits and special tokens, as its traces carry them."""
        return ModelSummary.of(self, special=self.config.special)

    def tokenize(self, text: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """The tokens of `text` as readable text (" bank") and their ids."""
        enc = self.tokenizer.encode(text, add_special_tokens=False)
        n = len(enc.ids)
        if n == 0:
            raise EmptySequenceError("the text is empty: type a few words, e.g. 'by the river'")
        if n > self.max_tokens:
            raise TooLongError(
                f"the text is {n} tokens long; the limit for {self.name} is {self.max_tokens} "
                f"tokens: shorten it by {counted(n - self.max_tokens, 'token')}"
            )
        return readable(self.tokenizer, enc.ids), tuple(enc.ids)

    def trace(self, text: str) -> DecoderTrace:
        """Tokenize `text`, run every layer, keep every head's q, k, v and diagnostics."""
        tokens, ids = self.tokenize(text)
        enc = self.tokenizer.encode(text, add_special_tokens=False)
        spans = tuple((int(a), int(b)) for a, b in enc.offsets)
        return replace(self.trace_ids(ids, tokens), text=text, spans=spans)

    def trace_ids(
        self, ids: tuple[int, ...], tokens: tuple[str, ...] | None = None
    ) -> DecoderTrace:
        """The forward pass over token ids (labels default to their readable text)."""
        labels = tokens if tokens is not None else readable(self.tokenizer, ids)
        c = self.config
        split = len(row_parts(len(ids))) > 1
        with self._lock, one_blas_thread if split else blas_by_size(len(ids), c.d_model, c.d_ff):
            hidden = np.empty((c.n_layers + 1, len(ids), c.d_model), self.embedding.dtype)
            x = hidden[0] = self.embedding[np.asarray(ids)]  # (n, d)
            angles = rope_angles(len(ids), c.d_k, base=c.rope_base)  # (n, d_k/2)
            kept, stats = [], []
            for i, w in enumerate(self.layers, start=1):
                x, keep, s = self.layer(x, w, angles, labels)
                hidden[i] = x  # (n, d) into its slot: no stack of L + 1 copies at the end
                kept.append(keep)
                stats.append(s)
            hidden.flags.writeable = False
        return DecoderTrace(
            model=self.name,
            tokens=labels,
            token_ids=tuple(int(i) for i in ids),
            hidden_states=hidden,  # (L + 1, n, d)
            layers=tuple(kept),
            stats=HeadStats.stack(stats),  # (L, h)
            special=c.special,
            readout=self.readout,
            summary=self.summary,
        )

    def layer(
        self, x: FloatArray, w: LayerWeights, angles: FloatArray, tokens: tuple[str, ...]
    ) -> tuple[FloatArray, LayerKeep, HeadStats]:
        """2–7. One decoder layer: the new hidden states, what it keeps, its heads' diagnostics.
        Everything but attention treats each token's row alone, so a long text's rows go in two
        halves on the pass's threads (threads.py); attention's blocks have threads of their own."""
        c, n = self.config, x.shape[0]
        hq, hkv = c.n_heads, c.n_kv_heads
        q = np.empty((hq, n, c.d_k), x.dtype)  # (h, n, d_k) private arrays: LayerKeep keeps
        k = np.empty((hkv, n, c.d_k), x.dtype)  # (h_kv, n, d_k) them without a copy
        v = np.empty((hkv, n, c.d_k), x.dtype)  # (h_kv, n, d_v)

        def project(rows: slice) -> None:  # 2–4 for these rows
            h = rms_norm(x[rows], w.norm_attn, eps=c.rms_eps)  # (r, d)
            qkv = h @ w.w_qkv  # (r, (h + 2 h_kv) d_k)
            heads = qkv.reshape(-1, hq + 2 * hkv, c.d_k).transpose(1, 0, 2)  # (h + 2 h_kv, r, d_k)
            q[:, rows] = rotate(heads[:hq], angles[rows], pairing="half")
            k[:, rows] = rotate(heads[hq : hq + hkv], angles[rows], pairing="half")
            v[:, rows] = heads[hq + hkv :]

        parts = row_parts(n)
        each(project, parts)
        for fresh in (q, k, v):
            fresh.flags.writeable = False
        z, keep, stats = attend_causal(q, k, v, tokens=tokens)  # z (h, n, d_k)
        merged = merge_heads(z)  # (n, h d_k)
        out = np.empty_like(x)  # (n, d)

        def mix(rows: slice) -> None:  # 6–7 for these rows
            a = merged[rows] @ w.w_o  # (r, d)
            a += x[rows]  # residual
            mlp = swiglu(rms_norm(a, w.norm_mlp, eps=c.rms_eps), w.w_gate_up, w.w_down)  # (r, d)
            np.add(mlp, a, out=out[rows])  # residual

        each(mix, parts)
        return out, keep, stats


def row_parts(n: int) -> tuple[slice, ...]:
    """A layer's rows as the parts its row-wise steps run in: two halves from ROWS_SPLIT_FROM
    tokens on, one part below (where BLAS's own two threads did as well or better)."""
    if n < ROWS_SPLIT_FROM or THREADS < 2:
        return (slice(0, n),)
    return (slice(0, n // 2), slice(n // 2, n))
