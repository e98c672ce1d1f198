"""One decoder forward pass in NumPy, driven by a `DecoderSpec`, every head through `attend`.

Follows transformers' eager float32 forward of the architectures the readers name
(models/readers/), row-vector convention (x W, weights transposed once at load time). The
spec (spec.py) says which norm, MLP, positions, mask, biases and caps; nothing here asks which
architecture runs.

    1. Embed:    x = E[ids] · embed_scale (+ P[0..n) for learned positions)            (n, d)
    then per layer l:
    2. Norm:     h = norm(x)                                                             (n, d)
    3. Project:  q, k, v = h W_Q (+ b), h W_K (+ b), h W_V (+ b), in h, h_kv, h_kv heads (h, n, d_k)
                 q, k = norm_q(q), norm_k(k) per head (QK-norm)
    4. Rotate:   q, k = RoPE_l(q), RoPE_l(k) (the first r dims, the layer's base, scaled)
    5. Attend:   z = softmax(cap(q kᵀ · scale) + mask_l) v, query head i reading key/value
                 head i // (h / h_kv), in blocks of query rows (causal_blocks.py)
    6. Merge:    a = x + post_attn(concat(z) W_O (+ b))                                  (n, d)
    7. MLP:      x = a + post_mlp(MLP(norm₂(a)))                                         (n, d)
    8. Read out: logits = cap(norm_f(x) Uᵀ), for the positions asked (decoder_trace.py)

post_attn and post_mlp are the sandwich norms (Gemma 2 and 3), the identity elsewhere. When the
spec's query scale is not 1/√d_k, q is kept multiplied by scale · √d_k, so that the lesson's
q·k/√d_k is the model's score and `ModelTrace.head` recomputes it unchanged.

Steps 2–4 and 6–7 treat each token's row alone: from ROWS_SPLIT_FROM tokens on they run in two
row halves on the pass's two threads (threads.py), as step 5's blocks do. The trace keeps each
layer's q (after RoPE), k and v and the per-head diagnostics, never an n × n matrix.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from attnlab.core.attention import merge_heads
from attnlab.core.diagnostics import HeadStats
from attnlab.errors import EmptySequenceError, SpecError, TooLongError
from attnlab.models.causal_blocks import attend_causal
from attnlab.models.decoder_pieces import Mlp, Norm
from attnlab.models.decoder_trace import DecoderTrace, Readout
from attnlab.models.default_ids import default_encoding, typed_count
from attnlab.models.gguf_tokenizer import readable
from attnlab.models.layer_keep import LayerKeep
from attnlab.models.rope_frequencies import rope_angles_of, rotate_heads
from attnlab.models.spec import DecoderSpec, RopeSpec
from attnlab.models.summary import ModelSummary
from attnlab.models.threads import THREADS, blas_by_load, each, one_blas_thread
from attnlab.types import FloatArray
from attnlab.words.grammar import counted

if TYPE_CHECKING:
    from tokenizers import Tokenizer

__all__ = ["MAX_TOKENS", "Decoder", "DecoderWeights", "LayerWeights", "row_major", "row_parts"]

MAX_TOKENS = 2048
"""The longest text `trace` accepts: a pass with every head recomputable within a second-scale
run and about half a gigabyte of kept arrays for SmolLM2."""

ROWS_SPLIT_FROM = 384
"""From this many tokens a layer's row-wise steps run in two halves, one per thread, with BLAS on
one thread for the whole pass. SmolLM2 passes, interleaved: 512 tokens 1.66 s in halves against
2.03 s whole (BLAS's two threads), 256 tokens 0.95 s both ways, 128 tokens 0.53 against 0.49 s."""


@dataclass(frozen=True)
class LayerWeights:
    """One decoder layer's parameters, matrices as (in, out) for x @ W (transposed views of
    nn.Linear's (out, in), which BLAS multiplies as fast as copies)."""

    norm_attn: Norm  # before attention
    w_qkv: FloatArray  # (d, (h + 2 h_kv) d_k) [W_Q | W_K | W_V]
    w_o: FloatArray  # (h d_k, d)
    norm_mlp: Norm  # before the MLP
    mlp: Mlp
    b_qkv: FloatArray | None = None  # ((h + 2 h_kv) d_k,)
    b_o: FloatArray | None = None  # (d,)
    q_norm: Norm | None = None  # (d_k,) QK-norm, per head
    k_norm: Norm | None = None
    post_attn: Norm | None = None  # sandwich norms
    post_mlp: Norm | None = None


@dataclass(frozen=True)
class DecoderWeights:
    """Every parameter of a decoder, in the common layout the readers produce."""

    embedding: FloatArray  # (vocab, d)
    layers: tuple[LayerWeights, ...]
    final_norm: Norm
    unembed: FloatArray  # (vocab, d): the embedding itself when tied
    positions: FloatArray | None = None  # (max_positions, d) learned absolute positions


def _c_order(a: FloatArray) -> FloatArray:
    """`a` laid out row by row: a copy of a transposed view, read-only as the original was."""
    if a.flags.c_contiguous:
        return a
    out = np.ascontiguousarray(a)
    out.flags.writeable = bool(a.flags.writeable)
    return out


def row_major(w: LayerWeights) -> LayerWeights:
    """A layer's matrices copied into row-major (C) order. The readers hand (in, out) matrices
    as transposed views of nn.Linear's (out, in); OpenBLAS multiplies a short pass's (n, d) rows
    by a row-major matrix faster (SmolLM2's four products at 6, 16 and 32 tokens on one thread,
    10th percentiles: 15 / 19 / 31 ms against 22 / 29 / 37 ms for the views)."""
    mlp = replace(w.mlp, w_in=_c_order(w.mlp.w_in), w_out=_c_order(w.mlp.w_out))
    return replace(w, w_qkv=_c_order(w.w_qkv), w_o=_c_order(w.w_o), mlp=mlp)


class Decoder:
    """A loaded decoder (a `Model`, protocol.py): `trace(text)` runs the pass the spec says."""

    def __init__(
        self,
        spec: DecoderSpec,
        weights: DecoderWeights,
        tokenizer: Tokenizer,
        *,
        name: str,
        special: tuple[str, ...] = (),
    ) -> None:
        if not spec.mask.causal:
            raise SpecError(f"{name}: a decoder's mask is causal; this spec's is not")
        if len(weights.layers) != spec.n_layers:
            raise SpecError(
                f"{name}: the spec names {spec.n_layers} layers, the weights hold "
                f"{len(weights.layers)}"
            )
        weights = replace(weights, layers=tuple(row_major(w) for w in weights.layers))
        self.name = name
        self.spec = spec
        self.weights = weights
        self.tokenizer: Tokenizer = tokenizer
        self.special = special
        self.embedding = weights.embedding  # (vocab, d)
        self.layers = weights.layers
        self.readout = Readout(weights.final_norm, weights.unembed, tokenizer, spec)
        self.max_tokens = min(MAX_TOKENS, spec.max_positions)
        self._lock = threading.Lock()

    @property
    def config(self) -> DecoderSpec:
        """The spec is the config every host reads (protocol.ArchConfig)."""
        return self.spec

    def __repr__(self) -> str:
        c = self.spec
        return (
            f"{type(self).__name__}({self.name!r}: {c.architecture}, {c.n_layers} layers, "
            f"{c.n_heads} query heads over {c.n_kv_heads} key/value heads, d_model "
            f"{c.d_model}, d_k {c.head_dim})"
        )

    @property
    def summary(self) -> ModelSummary:
        """The model's name, sizes, limits and special tokens, as its traces carry them."""
        return ModelSummary.of(self, special=self.special)

    def tokenize(self, text: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """The tokens of `text` as readable text (" bank") and their ids, as the tokenizer's
        default call gives them (a start token included where it adds one: default_ids.py)."""
        enc = default_encoding(self.tokenizer, text)
        n = len(enc.ids)
        if typed_count(enc) == 0:
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
        enc = default_encoding(self.tokenizer, text)
        spans = tuple((int(a), int(b)) for a, b in enc.offsets)
        return replace(self.trace_ids(ids, tokens), text=text, spans=spans)

    def trace_ids(
        self, ids: tuple[int, ...], tokens: tuple[str, ...] | None = None
    ) -> DecoderTrace:
        """The forward pass over token ids (labels default to their readable text)."""
        labels = tokens if tokens is not None else readable(self.tokenizer, ids)
        c, n = self.spec, len(ids)
        split = len(row_parts(n)) > 1
        with self._lock, one_blas_thread if split else blas_by_load():
            hidden = np.empty((c.n_layers + 1, n, c.d_model), self.embedding.dtype)
            x = hidden[0] = self._embed(np.asarray(ids, dtype=np.intp))  # (n, d)
            angles: dict[RopeSpec, FloatArray] = {}  # (n, r/2) per distinct RoPE (Gemma 3: 2)
            kept, stats = [], []
            for i, w in enumerate(self.layers):
                rope = c.rope_at(i)
                if rope is not None and rope not in angles:
                    angles[rope] = rope_angles_of(n, rope, c.head_dim)
                x, keep, s = self.layer(x, i, w, None if rope is None else angles[rope], labels)
                hidden[i + 1] = x  # (n, d) into its slot
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
            special=self.special,
            readout=self.readout,
            summary=self.summary,
        )

    def _embed(self, ids: np.ndarray) -> FloatArray:
        """1. x = E[ids] · scale (+ P[0..n)): (n, d)."""
        x: FloatArray = self.embedding[ids]  # (n, d) a copy (fancy indexing)
        if self.spec.embed_scale != 1.0:
            x *= x.dtype.type(self.spec.embed_scale)
        if self.weights.positions is not None:
            x += self.weights.positions[: ids.shape[0]]  # (n, d) learned absolute positions
        return x

    def layer(
        self, x: FloatArray, index: int, w: LayerWeights, angles: FloatArray | None,
        tokens: tuple[str, ...],
    ) -> tuple[FloatArray, LayerKeep, HeadStats]:  # fmt: skip
        """2–7. Layer `index`: the new hidden states, what it keeps, its heads' diagnostics."""
        c, n = self.spec, x.shape[0]
        hq, hkv, dk = c.n_heads, c.n_kv_heads, c.head_dim
        rope = c.rope_at(index)
        factor = c.scale * math.sqrt(dk)  # 1 unless the architecture sets its own scale
        q = np.empty((hq, n, dk), x.dtype)  # (h, n, d_k) private arrays: LayerKeep keeps
        k = np.empty((hkv, n, dk), x.dtype)  # (h_kv, n, d_k) them without a copy
        v = np.empty((hkv, n, dk), x.dtype)  # (h_kv, n, d_v)

        def project(rows: slice) -> None:  # 2–4 for these rows
            h = w.norm_attn(x[rows])  # (r, d)
            qkv = h @ w.w_qkv  # (r, (h + 2 h_kv) d_k)
            if w.b_qkv is not None:
                qkv += w.b_qkv
            heads = qkv.reshape(-1, hq + 2 * hkv, dk).transpose(1, 0, 2)  # (h + 2 h_kv, r, d_k)
            qh: FloatArray = heads[:hq]  # (h, r, d_k)
            kh: FloatArray = heads[hq : hq + hkv]  # (h_kv, r, d_k)
            if w.q_norm is not None and w.k_norm is not None:
                qh, kh = w.q_norm(qh), w.k_norm(kh)
            if rope is not None and angles is not None:
                qh, kh = rotate_heads(qh, angles[rows], rope), rotate_heads(kh, angles[rows], rope)
            if factor != 1.0:
                qh = qh * qh.dtype.type(factor)
            q[:, rows], k[:, rows], v[:, rows] = qh, kh, heads[hq + hkv :]

        parts = row_parts(n)
        each(project, parts)
        for fresh in (q, k, v):
            fresh.flags.writeable = False
        z, keep, stats = attend_causal(
            q, k, v, tokens=tokens, window=c.mask.window_at(index), sinks=c.mask.sinks,
            cap=c.attn_softcap,
        )  # fmt: skip
        merged = merge_heads(z)  # (n, h d_k)
        out = np.empty_like(x)  # (n, d)

        def mix(rows: slice) -> None:  # 6–7 for these rows
            a: FloatArray = merged[rows] @ w.w_o  # (r, d)
            if w.b_o is not None:
                a += w.b_o
            if w.post_attn is not None:
                a = w.post_attn(a)
            a += x[rows]  # residual
            m = w.mlp(w.norm_mlp(a))  # (r, d)
            if w.post_mlp is not None:
                m = w.post_mlp(m)
            np.add(m, a, out=out[rows])  # residual

        each(mix, parts)
        return out, keep, stats


def row_parts(n: int) -> tuple[slice, ...]:
    """A layer's rows as the parts its row-wise steps run in: two halves from ROWS_SPLIT_FROM
    tokens on, one part below (where BLAS's own two threads did as well or better)."""
    if n < ROWS_SPLIT_FROM or THREADS < 2:
        return (slice(0, n),)
    return (slice(0, n // 2), slice(n // 2, n))
