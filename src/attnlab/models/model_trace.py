"""The ModelTrace: a real model's forward pass, any head recomputable as the lesson's Trace.

One `ModelTrace` is what `model.trace(text)` returns. It keeps the tokens as the tokenizer writes
them ([CLS], by, ##s, [SEP]), the hidden states entering and leaving every layer, one `LayerKeep`
per layer (each head's q, k and v, the mask kind: layer_keep.py) and the per-head diagnostics
computed during the pass (`stats`, core/diagnostics.py). What is not kept is computed on demand
by the same `attend` the forward pass used, so it is the same numbers:

    head(l, i)    the single-head Trace of the lesson, keys and values of kv head kv_head(i)
    rows(focus)   the focus token's row in every head, (L, H, n), without any n × n matrix
    attentions    every weight matrix, (L, H, n, n), computed once when first read (short texts)
    maps()        the same weights as a weights-only AttentionMaps, the type a host shares

Row i, column j means token i (the query) attends to token j (the key).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

from attnlab.core.attention import attend
from attnlab.core.attention_maps import AttentionMaps
from attnlab.core.diagnostics import HeadStats
from attnlab.core.grouped import kv_head
from attnlab.core.trace import Trace
from attnlab.errors import FocusError, UnknownHeadError
from attnlab.models.layer_keep import LayerKeep
from attnlab.types import FloatArray

SPECIAL = ("[CLS]", "[SEP]", "[PAD]", "[MASK]", "[UNK]")
"""BERT's special tokens; another tokenizer's model passes its own as `special`."""


@dataclass(frozen=True)
class ModelTrace:
    """A forward pass: what recomputes every head, and every head's diagnostics.

    hidden_states (layers + 1, n, d_model): [0] is the embedding output, [l + 1] leaves layer l.
    layers[l]: that layer's q (h, n, d_k), k and v (h_kv, n, d_k) and mask kind.
    stats: (layers, heads) means over query rows, from the weights the pass computed.
    """

    model: str
    tokens: tuple[str, ...]
    token_ids: tuple[int, ...]
    hidden_states: FloatArray
    layers: tuple[LayerKeep, ...]
    stats: HeadStats
    special: tuple[str, ...] = SPECIAL  # tokens the default focus skips

    def __post_init__(self) -> None:
        self.hidden_states.flags.writeable = False

    @property
    def n(self) -> int:
        """The number of tokens, [CLS] and [SEP] included."""
        return len(self.tokens)

    @property
    def n_layers(self) -> int:
        return len(self.layers)

    @property
    def n_heads(self) -> int:
        return self.layers[0].n_heads

    @property
    def n_kv_heads(self) -> int:
        """Key/value heads per layer: n_heads for multi-head attention, fewer under GQA."""
        return self.layers[0].n_kv_heads

    @property
    def causal(self) -> bool:
        return self.layers[0].mask == "causal"

    def kv_head(self, head: int) -> int:
        """The key/value head query head `head` reads: head // (n_heads / n_kv_heads)."""
        return kv_head(head, n_heads=self.n_heads, n_kv_heads=self.n_kv_heads)

    def head(self, layer: int, head: int) -> Trace:
        """One head of one layer as the lesson's single-head Trace, recomputed by `attend`;
        its `embeddings` are the layer's input, hidden_states[layer]."""
        self._check(layer, head)
        keep, j = self.layers[layer], self.kv_head(head)
        t = attend(
            keep.queries[head],  # (n, d_k)
            keep.keys[j],  # (n, d_k) shared by the query heads of group j
            keep.values[j],  # (n, d_v)
            mask=keep.allowed(),
            tokens=self.tokens,
        )  # weights (n, n)
        return replace(t, embeddings=self.hidden_states[layer])  # (n, d_model)

    def rows(self, focus: int) -> FloatArray:
        """The focus token's attention row in every head: (L, H, n), one query row each."""
        if not 0 <= focus < self.n:
            raise FocusError(f"focus index {focus} is outside 0..{self.n - 1}")
        one = slice(focus, focus + 1)
        out = np.stack([self._weights(keep, one)[:, 0] for keep in self.layers])  # (L, H, n)
        out.flags.writeable = False
        return out

    @cached_property
    def attentions(self) -> FloatArray:
        """Every attention matrix, (layers, heads, n, n), rows summing to 1: computed when first
        read and kept. It holds L·H·n² numbers: for long texts read `rows` or `head` instead."""
        a = np.stack([self._weights(keep) for keep in self.layers])  # (L, H, n, n)
        a.flags.writeable = False
        return a

    def maps(self) -> AttentionMaps:
        """The weights as an AttentionMaps, the weights-only type hosts share with other sources."""
        return AttentionMaps(self.attentions, self.tokens, self.tokens, self.model)

    def focus_index(self, focus: str | int | None = None) -> int:
        """The row of `focus`: a token (first match, case-insensitive, "##" optional), an index,
        or None for the last word: the last token that is not special and holds a letter or a
        digit ("bank" in "by the river bank >"), else the last token that is not special."""
        if focus is None:
            pieces = [i for i, t in enumerate(self.tokens) if t not in self.special]
            words = [i for i in pieces if any(c.isalnum() for c in self.tokens[i])]
            return (words or pieces or [0])[-1]
        if isinstance(focus, int) or focus.strip().lstrip("-").isdigit():
            i = int(focus)
            if not 0 <= i < self.n:
                raise FocusError(f"focus index {i} is outside 0..{self.n - 1}")
            return i
        wanted = focus.strip().lower()
        for strip in ("", "#"):  # an exact match first, then one ignoring WordPiece's "##"
            for i, t in enumerate(self.tokens):
                if t.lower().lstrip(strip) == wanted:
                    return i
        raise FocusError(
            f"focus {focus!r} is not a token of the text: choose one of {list(self.tokens)}"
        )

    def _weights(self, keep: LayerKeep, rows: slice | None = None) -> FloatArray:
        """Every head's weights for query `rows` (all by default): (h, rows, n), via `attend`."""
        k, v = keep.expanded()  # (h, n, d_k), (h, n, d_v)
        q = keep.queries if rows is None else keep.queries[:, rows]  # (h, rows, d_k)
        w: FloatArray = attend(q, k, v, mask=keep.allowed(rows), tokens=None).weights
        return w  # (h, rows, n)

    def _check(self, layer: int, head: int) -> None:
        if not 0 <= layer < self.n_layers:
            raise UnknownHeadError(f"layer {layer} is outside 0..{self.n_layers - 1}")
        if not 0 <= head < self.n_heads:
            raise UnknownHeadError(f"head {head} is outside 0..{self.n_heads - 1}")
