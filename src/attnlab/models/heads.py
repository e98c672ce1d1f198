"""One real head told as the lesson's six beats, and every head of a model summarised for a token.

`explain_head` cuts head (layer, head) out of a ModelTrace and hands it to the lesson's own
`Explanation`, so the CLI, the JSON and the page show a real head exactly as they show the toy.
`head_summaries` reads, for one focus token, where each head's row puts most of its weight and
how spread the row is (its entropy in bits; log₂ n is a uniform row, 0 a one-hot row).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from attnlab.core.attention import attend
from attnlab.core.softmax import entropy_bits
from attnlab.models.model_trace import ModelTrace
from attnlab.types import Axis, Mode
from attnlab.words.explanation import Explanation


def explain_head(
    mt: ModelTrace,
    *,
    layer: int,
    head: int,
    focus: str | int | None = None,
    mode: Mode = "scaled",
    axis: Axis = "keys",
) -> Explanation:
    """The six beats of one real head for `focus` (default: the last word of the text).

    The model computed its heads with mode "scaled" across the keys; another `mode` or `axis`
    re-runs `attend` on this head's own q, k, v to show what that choice would do to it.
    """
    t = mt.head(layer, head)
    if (mode, axis) != ("scaled", "keys"):
        again = attend(t.queries, t.keys, t.values, mode=mode, axis=axis, tokens=t.tokens)
        t = replace(again, embeddings=t.embeddings)
    return Explanation.of(t, mt.focus_index(focus))


@dataclass(frozen=True)
class HeadSummary:
    """Where one head's focus row looks most, and how spread that row is."""

    layer: int
    head: int
    top: int  # the key the focus gives most weight
    top_weight: float
    entropy_bits: float


def head_summaries(mt: ModelTrace, focus: int) -> list[HeadSummary]:
    """One summary per (layer, head), in order, of row `focus` of each attention matrix."""
    rows = mt.rows(focus)  # (L, h, n) the focus token's budget in every head
    top = rows.argmax(axis=-1)  # (L, h)
    bits = entropy_bits(rows.astype(np.float64))  # (L, h)
    return [
        HeadSummary(l, h, int(top[l, h]), float(rows[l, h, top[l, h]]), float(bits[l, h]))
        for l in range(mt.n_layers)  # noqa: E741 (l is the paper's layer index)
        for h in range(mt.n_heads)
    ]
