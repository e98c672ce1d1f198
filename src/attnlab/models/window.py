"""Which tokens a long text's six beats show: the focus, its neighbours and the keys it weighs most.

The beats draw one row per token (a vector strip, a score, a weight). At 2,048 tokens that is
2,048 rows, far past a screen, and the focus row is lost among them. A text longer than
`WHOLE_AT` tokens is shown through a window instead, the token indices, in order, of

* the first token (a decoder's "attention sink", BERT's [CLS]),
* the focus and `radius` tokens either side of it,
* the `top` keys the focus row weighs most (whatever their distance),
* the pair the Parallel beat reads both ways.

Every number of a shown row is the model's own; the rows left out are in the matrix picture and
one request away (a row's numbers on demand). The share of the focus row's weight on the shown
keys is said on screen, so a learner knows how much of the budget the window holds.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from attnlab.types import FloatArray

__all__ = ["RADIUS", "TOP", "WHOLE_AT", "window"]

WHOLE_AT = 48
"""Texts of at most this many tokens are shown whole."""
RADIUS = 8
TOP = 8


def window(
    row: FloatArray, focus: int, *, extra: Iterable[int] = (), radius: int = RADIUS, top: int = TOP
) -> tuple[int, ...]:
    """The indices to show for a focus row `row` (n,): every index when n <= WHOLE_AT."""
    n = int(row.shape[0])
    if n <= WHOLE_AT:
        return tuple(range(n))
    near = range(max(0, focus - radius), min(n, focus + radius + 1))
    strongest = np.argsort(-np.nan_to_num(row, nan=0.0), kind="stable")[:top]  # (top,)
    keep = {0, focus, *near, *(int(j) for j in strongest), *(int(j) for j in extra)}
    return tuple(sorted(j for j in keep if 0 <= j < n))
