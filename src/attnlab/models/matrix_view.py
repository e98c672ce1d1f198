"""One head's whole matrix as the page's picture shows it, computed once: `MatrixView`.

A 2,048-token head is 4 M weights, far more than a screen's pixels: `matrix_view` block-pools
it to at most `side` × `side` cells (core/pooling.py: the max of each block keeps one strong
weight visible, the mean keeps its share of the budget), after hiding the special tokens when
asked (specials.py: [CLS] and [SEP] hold much of a BERT head's weight). The encoder
(encode/model_json.py) only packs it. Row i, column j means query i attends to key j.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np
import numpy.typing as npt

from attnlab.core.pooling import Pool, edges, pool
from attnlab.core.trace import Trace
from attnlab.models.model_trace import ModelTrace
from attnlab.models.specials import without_specials
from attnlab.types import FloatArray

__all__ = [
    "PICTURE_SIDE", "SPECIALS", "MatrixView", "Specials", "matrix_view", "weights_matrix_view",
]  # fmt: skip

Specials = Literal["show", "hide", "renormalise"]
SPECIALS: tuple[Specials, ...] = ("show", "hide", "renormalise")
PICTURE_SIDE = 512
"""A head's matrix crosses as at most this many cells a side: 512² uint16 codes are 512 KiB."""


@dataclass(frozen=True)
class MatrixView:
    """A head's matrix pooled to cells × cells over the `kept` tokens (all, or the ones that
    are not special), with the first kept token of each cell's block (`edges`)."""

    layer: int
    head: int
    n: int  # the text's tokens
    kept: npt.NDArray[np.intp]  # (k,) the token index of each shown token
    cells: FloatArray  # (r, r) pooled weights
    edges: npt.NDArray[np.intp]  # (r,)
    how: Pool
    specials: Specials
    causal: bool
    hidden: FloatArray | None  # (k,) the weight each kept row gave the hidden tokens
    present: tuple[str, ...] = ()  # the special tokens the text holds, in their first order
    window: int | None = None  # a local layer's sliding window: keys i − W < j ≤ i (spec.py)

    @property
    def shown(self) -> int:
        return int(self.kept.shape[0])


def matrix_view(
    mt: ModelTrace, t: Trace, *, layer: int, head: int, how: Pool, specials: Specials,
    side: int = PICTURE_SIDE,
) -> MatrixView:  # fmt: skip
    """Head (layer, head) of `mt`, its Trace `t`, as at most side × side cells."""
    view = weights_matrix_view(
        t.weights, t.tokens, mt.special, layer=layer, head=head, causal=mt.causal, how=how,
        specials=specials, side=side,
    )  # fmt: skip
    window = mt.layers[layer].window
    return replace(view, window=window) if window is not None else view


def weights_matrix_view(
    w: FloatArray, tokens: Sequence[str], special: Sequence[str], *, layer: int, head: int,
    causal: bool, how: Pool, specials: Specials, side: int = PICTURE_SIDE,
) -> MatrixView:  # fmt: skip
    """One head's (n, n) weights over `tokens` as at most side × side cells, the `special`
    tokens hidden when asked: a model's head (matrix_view) or weights handed in alone
    (maps_view.maps_matrix_view) take this one path."""
    n = int(w.shape[0])
    kept: npt.NDArray[np.intp] = np.arange(n, dtype=np.intp)
    hidden: FloatArray | None = None
    if specials != "show":
        w, kept, hidden = without_specials(
            w, tokens, special, renormalise=specials == "renormalise"
        )  # (k, k)
    cells = pool(w, side, how)  # (r, r)
    k, r = int(kept.shape[0]), int(cells.shape[0])
    return MatrixView(
        layer=layer, head=head, n=n, kept=kept, cells=cells, edges=edges(k, r), how=how,
        specials=specials, causal=causal, hidden=hidden,
        present=tuple(dict.fromkeys(t for t in tokens if t in special)),
    )  # fmt: skip
