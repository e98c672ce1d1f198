"""A decoder's forward pass: a ModelTrace plus what RoPE and the next-token prediction show.

`DecoderTrace` is a `ModelTrace` (model_trace.py), so `head(l, i)`, `rows`, `stats`, `kv_head`
and `maps()` work unchanged; it adds, for any decoder (the RoPE ones only where the spec has
rotary positions: `has_rope(l)`; GPT-2's learned positions have none):

    rope_query(l, i, pos)         the query of head i at `pos` before and after its rotation
                                  (d_k,) each; the kept q is after RoPE, the one before is
                                  recovered by rotating back by −pos·θ
    rope_key(l, i, pos)           the same for the key head i reads (kv_head(i))
    score_by_distance(l, i, q, k) the score (q·k/√d_k) of query `q`'s vector against key `k`'s
                                  vector, both unrotated, placed at distances 0..D − 1 apart:
                                  with RoPE it depends only on the distance (Su et al., 2021)
    next_tokens(pos, k)           the k most likely next tokens after `pos` (the last by default)
                                  and their probabilities: softmax(cap(norm(x_pos) Uᵀ))

Each layer rotates with the spec's RoPE for it (Gemma 3's local layers turn with another base),
the first r = fraction · d_k dimensions only (rope_frequencies.py).

The logits are computed for the rows asked for only (one row is d_model × vocab, 28 M
multiply-adds for SmolLM2), never for every position.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from attnlab.errors import FocusError
from attnlab.models.decoder_pieces import Norm, soft_cap
from attnlab.models.gguf_tokenizer import readable
from attnlab.models.model_trace import ModelTrace
from attnlab.models.rope_frequencies import rope_angles_of, rotate_heads
from attnlab.models.spec import DecoderSpec, RopeSpec
from attnlab.types import FloatArray

if TYPE_CHECKING:
    from tokenizers import Tokenizer

__all__ = ["KEPT_NEXT", "DecoderTrace", "Readout"]

Marked = tuple[tuple[str, float, bool], ...]  # (token, probability, special) each
KEPT_NEXT = 8
"""How many (position, k) answers of `next_tokens` a trace keeps: a few words each."""


@dataclass(frozen=True, eq=False)
class Readout:
    """What turns the last hidden state into next-token probabilities (shared, not copied)."""

    norm: Norm  # the final norm
    unembed: FloatArray  # (vocab, d_model): the embedding matrix when tied
    tokenizer: Tokenizer  # writes an id as readable text (gguf_tokenizer.readable)
    spec: DecoderSpec  # the positions of each layer, the logits' cap


@dataclass(frozen=True, repr=False)  # ModelTrace.__repr__: a summary, not the arrays
class DecoderTrace(ModelTrace):
    """A ModelTrace of a causal decoder (module docstring)."""

    readout: Readout | None = None

    def _readout(self) -> Readout:
        if self.readout is None:  # only a decoder's loader makes a DecoderTrace
            raise FocusError("this trace has no readout")
        return self.readout

    def has_rope(self, layer: int) -> bool:
        """Whether layer `layer` turns its queries and keys by RoPE."""
        return self.readout is not None and self.readout.spec.rope_at(layer) is not None

    def _rope(self, layer: int) -> RopeSpec:
        rope = self._readout().spec.rope_at(layer)
        if rope is None:
            raise FocusError(
                f"{self.model} has learned positions, added to the embeddings: no layer turns "
                "its queries and keys by RoPE"
            )
        return rope

    def _angles(self, layer: int, positions: npt.ArrayLike) -> FloatArray:
        d_k = int(self.layers[0].queries.shape[-1])
        return rope_angles_of(positions, self._rope(layer), d_k)  # (p, r/2)

    def _turn(self, layer: int, x: FloatArray, positions: npt.ArrayLike, sign: float) -> FloatArray:
        """Rows x (p, d_k) turned by sign · their positions' angles under layer's RoPE."""
        return rotate_heads(x, sign * self._angles(layer, positions), self._rope(layer))

    def _position(self, pos: int) -> int:
        if not 0 <= pos < self.n:
            raise FocusError(f"position {pos} is outside 0..{self.n - 1}")
        return pos

    def rope_query(self, layer: int, head: int, pos: int) -> tuple[FloatArray, FloatArray]:
        """Head `head`'s query at `pos`: (before RoPE, after RoPE), (d_k,) each."""
        self._check(layer, head)
        after = self.layers[layer].queries[head, self._position(pos)]  # (d_k,)
        before = self._turn(layer, after[None], [pos], -1.0)[0]  # (d_k,)
        return before, after

    def rope_key(self, layer: int, head: int, pos: int) -> tuple[FloatArray, FloatArray]:
        """The key at `pos` that query head `head` reads: (before RoPE, after RoPE)."""
        self._check(layer, head)
        after = self.layers[layer].keys[self.kv_head(head), self._position(pos)]  # (d_k,)
        before = self._turn(layer, after[None], [pos], -1.0)[0]  # (d_k,)
        return before, after

    def score_by_distance(
        self, layer: int, head: int, query: int, key: int, distances: int | None = None
    ) -> FloatArray:
        """(D,) the scaled score of query `query`'s unrotated vector against key `key`'s when
        the query sits δ = 0..D − 1 positions after the key (D = n by default). At δ = query −
        key it is the score the pass used."""
        q, _ = self.rope_query(layer, head, query)  # (d_k,)
        k, _ = self.rope_key(layer, head, key)  # (d_k,)
        d = self.n if distances is None else distances
        # R(m)q · R(m − δ)k = R(δ)q · k for every m: rotate the query alone by δ.
        rq = self._turn(layer, np.broadcast_to(q, (d, q.shape[0])), np.arange(d), 1.0)  # (D, d_k)
        out: FloatArray = rq @ k / math.sqrt(q.shape[0])  # (D,)
        return out

    def logits(self, pos: int) -> FloatArray:
        """(vocab,) the next-token logits after position `pos`."""
        r = self._readout()
        x = self.hidden_states[-1][self._position(pos)]  # (d_model,)
        out: FloatArray = soft_cap(r.unembed @ r.norm(x), r.spec.final_softcap)  # (vocab,)
        return out

    def next_tokens(self, pos: int | None = None, k: int = 5) -> tuple[tuple[str, float], ...]:
        """The `k` most likely next tokens after `pos` (the last token by default) with their
        probabilities, most likely first. They depend on the text alone, not on a head: the
        last KEPT_NEXT answers are kept, so a head switch does not multiply d_model × vocab
        again for the same positions."""
        return self._kept(pos, k)[1]

    def next_tokens_marked(
        self, pos: int | None = None, k: int = 5
    ) -> tuple[tuple[str, float, bool], ...]:
        """`next_tokens` with whether each is one of the tokenizer's special tokens (Gemma 3's
        <start_of_image>, <eos>): one its decoder drops when asked to skip special tokens, or
        one the model names among its `special` tokens (as the page's specials menu does)."""
        return self._kept(pos, k)[0]

    def _kept(self, pos: int | None, k: int) -> tuple[Marked, tuple[tuple[str, float], ...]]:
        at = self.n - 1 if pos is None else self._position(pos)
        kept = self._kept_next
        found = kept.get((at, k))
        if found is None:
            marked = self._next_tokens(at, k)
            found = kept[(at, k)] = (marked, tuple((w, p) for w, p, _ in marked))
            while len(kept) > KEPT_NEXT:
                kept.pop(next(iter(kept)))  # the oldest first
        return found

    @cached_property
    def _kept_next(
        self,
    ) -> dict[tuple[int, int], tuple[Marked, tuple[tuple[str, float], ...]]]:
        """The last KEPT_NEXT answers of `next_tokens_marked`, by (position, k)."""
        return {}

    def _next_tokens(self, pos: int, k: int) -> Marked:
        z = self.logits(pos).astype(np.float64)  # (vocab,)
        z -= z.max()
        p = np.exp(z)
        p /= p.sum()  # (vocab,) softmax
        k = max(1, min(int(k), p.shape[0]))
        top = np.argpartition(-p, k - 1)[:k]
        top = top[np.argsort(-p[top], kind="stable")]
        tokenizer = self._readout().tokenizer
        words = readable(tokenizer, [int(i) for i in top])
        named = set(self.special)
        special = [
            w in named or (w != "" and tokenizer.decode([int(i)], skip_special_tokens=True) == "")
            for w, i in zip(words, top, strict=True)
        ]  # a special token: named so, or dropped when its decoder skips special tokens
        return tuple((w, float(p[i]), s) for w, i, s in zip(words, top, special, strict=True))
