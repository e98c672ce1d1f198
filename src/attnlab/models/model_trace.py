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

import re
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

from attnlab.core.attention import attend
from attnlab.core.attention_maps import AttentionMaps
from attnlab.core.checks import as_index
from attnlab.core.diagnostics import HeadStats
from attnlab.core.grouped import kv_head
from attnlab.core.trace import Trace
from attnlab.errors import FocusError, UnknownHeadError
from attnlab.models.layer_keep import LayerKeep
from attnlab.models.pieces import occurrences
from attnlab.models.summary import ModelSummary
from attnlab.types import FloatArray

SPECIAL = ("[CLS]", "[SEP]", "[PAD]", "[MASK]", "[UNK]")
"""BERT's special tokens; another tokenizer's model passes its own as `special`."""
KEPT_ROWS = 8
"""How many focuses' `rows` a trace keeps: 2.2 MB each for SmolLM2 at 2,048 tokens."""


_ESCAPED_BYTE = re.compile(r"\\x[0-9a-f]{2}")
"""Part of a UTF-8 character, as a byte-level token shows it (gguf_tokenizer.readable): \\x85."""


def word_like(token: str) -> bool:
    """Whether `token` holds a letter or a digit of its own: the x and 85 of an escaped byte
    (SmolLM2 cuts ✅ into ' \\xe2', '\\x9c', '\\x85') are not the text's."""
    return any(c.isalnum() for c in _ESCAPED_BYTE.sub("", token))


def last_word(tokens: tuple[str, ...], special: tuple[str, ...] = ()) -> int:
    """The default focus: the last token that is not special and is `word_like`, else the last
    token that is not special, else 0."""
    pieces = [i for i, t in enumerate(tokens) if t not in special]
    words = [i for i in pieces if word_like(tokens[i])]
    return (words or pieces or [0])[-1]


@dataclass(frozen=True)
class ModelTrace:
    """A forward pass: what recomputes every head, and every head's diagnostics.

    hidden_states (layers + 1, n, d_model): [0] is the embedding output, [l + 1] leaves layer l.
    layers[l]: that layer's q (h, n, d_k), k and v (h_kv, n, d_k) and mask kind.
    stats: (layers, heads) means over query rows, from the weights the pass computed.
    summary, text, spans: the model's summary, and the text traced with each token's character
    span in it ((0, 0) for a token the tokenizer added), when the pass began from a text.
    """

    model: str
    tokens: tuple[str, ...]
    token_ids: tuple[int, ...]
    hidden_states: FloatArray
    layers: tuple[LayerKeep, ...]
    stats: HeadStats
    special: tuple[str, ...] = SPECIAL  # tokens the default focus skips
    summary: ModelSummary | None = None  # the model's name, sizes and limits (summary.py)
    text: str | None = None  # the text traced, when the pass began from one (trace(text))
    spans: tuple[tuple[int, int], ...] | None = None  # each token's [start, end) in `text`

    def __post_init__(self) -> None:
        self.hidden_states.flags.writeable = False

    def __repr__(self) -> str:
        """A short summary: the hidden states alone are (layers + 1) × n × d_model numbers."""
        keep = self.layers[0]
        shown = " ".join(self.tokens[:6]) + (f" … (+{self.n - 6})" if self.n > 6 else "")
        return (
            f"{type(self).__name__}({self.model!r}: {self.n} tokens '{shown}', "
            f"{self.n_layers} layers × {self.n_heads} heads ({self.n_kv_heads} kv), "
            f"d_k {keep.queries.shape[-1]}; keeps "
            f"hidden states {tuple(self.hidden_states.shape)}, each head's q, k, v and "
            "diagnostics; weights recomputed on demand)"
        )

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

    @property
    def head_nbytes(self) -> int:
        """About the most `head` holds at once (within 5% of tracemalloc's peak): three n × n
        arrays of the queries' dtype (QKᵀ, the scores, the weights) and two n × n boolean ones
        (the mask and a temporary as large). 2,048 tokens in float32: 59 MB."""
        return self.n * self.n * (3 * self.layers[0].queries.dtype.itemsize + 2)

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
            cap=keep.cap,
        )  # weights (n, n)
        return replace(t, embeddings=self.hidden_states[layer])  # (n, d_model)

    def rows(self, focus: int) -> FloatArray:
        """The focus token's attention row in every head: (L, H, n), one query row each."""
        if isinstance(focus, bool) or not isinstance(focus, int | np.integer):
            raise FocusError(f"a focus row is an index, got {focus!r}")
        if not 0 <= focus < self.n:
            raise FocusError(f"focus index {focus} is outside 0..{self.n - 1}")
        kept = self._kept_rows
        found = kept.get(int(focus))
        if found is not None:  # the grid and the decoder panel read the same rows
            return found
        one = slice(focus, focus + 1)
        out = np.stack([self._weights(keep, one)[:, 0] for keep in self.layers])  # (L, H, n)
        out.flags.writeable = False
        kept[int(focus)] = out
        while len(kept) > KEPT_ROWS:
            kept.pop(next(iter(kept)))  # the oldest focus first
        return out

    @cached_property
    def _kept_rows(self) -> dict[int, FloatArray]:
        """The last KEPT_ROWS focus rows `rows` computed, by focus (L·H·n numbers each)."""
        return {}

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
        """The row of `focus`: a token (first match, case-insensitive, "##" optional), a word
        made of pieces (its last piece: pieces.py), an index, or None for the last word
        (`last_word`: "bank" in "by the river bank >", " works" in "It works ✅").
        Spaces around a token are ignored: a byte-level BPE token reads " bank"."""
        if focus is None:
            return last_word(self.tokens, self.special)
        if isinstance(focus, bool) or not isinstance(focus, int | str):
            raise FocusError(f"a focus is a token or an index, got {focus!r}")
        index = as_index(focus)
        if index is not None:
            if not 0 <= index < self.n:
                raise FocusError(f"focus index {index} is outside 0..{self.n - 1}")
            return index
        wanted = str(focus).strip().lower()
        for strip in ("", "#"):  # an exact match first, then one ignoring WordPiece's "##"
            for i, t in enumerate(self.tokens):
                if t.strip().lower().lstrip(strip) == wanted:
                    return i
        found = occurrences(self.tokens, str(focus), self.special)  # a word made of pieces
        if found:
            return found[0].token  # its last piece (pieces.PIECE_RULE)
        raise FocusError(
            f"focus {focus!r} is not a token of the text: choose one of {list(self.tokens)}"
        )

    def _weights(self, keep: LayerKeep, rows: slice | None = None) -> FloatArray:
        """Every head's weights for query `rows` (all by default): (h, rows, n), via `attend`."""
        k, v = keep.expanded()  # (h, n, d_k), (h, n, d_v)
        q = keep.queries if rows is None else keep.queries[:, rows]  # (h, rows, d_k)
        w: FloatArray = attend(q, k, v, mask=keep.allowed(rows), tokens=None, cap=keep.cap).weights
        return w  # (h, rows, n)

    def _check(self, layer: int, head: int) -> None:
        for name, i in (("layer", layer), ("head", head)):
            if isinstance(i, bool) or not isinstance(i, int | np.integer):
                raise UnknownHeadError(f"{name} must be a whole number, got {i!r}", field=name)
        if not 0 <= layer < self.n_layers:
            raise UnknownHeadError(f"layer {layer} is outside 0..{self.n_layers - 1}")
        if not 0 <= head < self.n_heads:
            raise UnknownHeadError(f"head {head} is outside 0..{self.n_heads - 1}")
