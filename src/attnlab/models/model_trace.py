"""The ModelTrace: every layer's attention in a real encoder, with each head as a lesson Trace.

One `ModelTrace` is what `model.trace(text)` returns. It keeps the tokens as the tokenizer writes
them ([CLS], by, ##s, [SEP]), the hidden states entering and leaving every layer, and one
multi-head `attnlab.core.trace.Trace` per layer whose arrays carry the head as a leading dimension:
queries (h, n, d_k), weights (h, n, n), outputs (h, n, d_k). `head(layer, head)` cuts out one
head as the single-head Trace the lesson uses, so the CLI and the page show a real head exactly
as they show the toy. Row i, column j means token i (the query) attends to token j (the key).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

from attnlab.core.trace import Trace
from attnlab.errors import FocusError, UnknownHeadError
from attnlab.types import FloatArray

SPECIAL = ("[CLS]", "[SEP]", "[PAD]", "[MASK]", "[UNK]")


@dataclass(frozen=True)
class ModelTrace:
    """A forward pass, every layer's attention kept.

    hidden_states (layers + 1, n, d_model): [0] is the embedding output, [l + 1] leaves layer l.
    layers[l]: that layer's heads as one Trace with a leading head axis. `head(l, i)` adds
    hidden_states[l] as the single-head Trace's `embeddings`: the vectors Q, K, V came from.
    """

    model: str
    tokens: tuple[str, ...]
    token_ids: tuple[int, ...]
    hidden_states: FloatArray
    layers: tuple[Trace, ...]

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
        return int(self.layers[0].weights.shape[0])

    @cached_property
    def attentions(self) -> FloatArray:
        """Every attention matrix, (layers, heads, n, n): the weights, rows summing to 1."""
        a = np.stack([t.weights for t in self.layers])  # (L, h, n, n)
        a.flags.writeable = False
        return a

    def head(self, layer: int, head: int) -> Trace:
        """One head of one layer as the lesson's single-head Trace (d_k = d_model / heads)."""
        self._check(layer, head)
        t = self.layers[layer]
        return replace(
            t,
            queries=t.queries[head],  # (n, d_k)
            keys=t.keys[head],  # (n, d_k)
            values=t.values[head],  # (n, d_v)
            raw_scores=t.raw_scores[head],  # (n, n)
            scores=t.scores[head],  # (n, n)
            weights=t.weights[head],  # (n, n)
            outputs=t.outputs[head],  # (n, d_v)
            mask=None if t.mask is None else t.mask[head],
            embeddings=self.hidden_states[layer],  # (n, d_model) the layer's input
        )

    def focus_index(self, focus: str | int | None = None) -> int:
        """The row of `focus`: a token (first match, case-insensitive, "##" optional), an index,
        or None for the last token that is not [SEP] (the last word piece of the text)."""
        if focus is None:
            words = [i for i, t in enumerate(self.tokens) if t not in SPECIAL]
            return words[-1] if words else 0
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

    def _check(self, layer: int, head: int) -> None:
        if not 0 <= layer < self.n_layers:
            raise UnknownHeadError(f"layer {layer} is outside 0..{self.n_layers - 1}")
        if not 0 <= head < self.n_heads:
            raise UnknownHeadError(f"head {head} is outside 0..{self.n_heads - 1}")
