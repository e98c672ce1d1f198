"""Shrinking an attention matrix to a picture: block pooling of an (n, m) matrix to (r, c).

A 2,048-token head is 2,048² weights; a screen shows a few hundred pixels a side. Each output
cell is one block of consecutive query rows × consecutive key columns (blocks differ in size by
at most one when the sizes do not divide), reduced by

* "max":  the block's largest weight, so a single strong cell (a sink, a previous-token
  diagonal) stays visible however far the matrix shrinks;
* "mean": the block's average weight, so the picture keeps each block's share of the budget.

Nothing is pooled when the matrix already fits (factor 1). `edges(n, r)` are the blocks' first
indices, so a host can say which rows and keys a cell covers.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

import numpy as np
import numpy.typing as npt

from attnlab.types import FloatArray

__all__ = ["POOLS", "Pool", "edges", "pool"]

Pool: TypeAlias = Literal["max", "mean"]
POOLS: tuple[Pool, ...] = ("max", "mean")


def edges(n: int, parts: int) -> npt.NDArray[np.intp]:
    """The first index of each of `parts` blocks of consecutive indices covering 0..n-1."""
    parts = max(1, min(n, parts))
    return np.floor(np.arange(parts) * n / parts).astype(np.intp)  # (parts,)


def pool(w: FloatArray, side: int, how: Pool = "max") -> FloatArray:
    """`w` (n, m) pooled to at most side × side cells; `w` itself when it already fits."""
    n, m = w.shape
    if n <= side and m <= side:
        return w
    rows, cols = edges(n, side), edges(m, side)  # (r,), (c,)
    if how == "max":
        return _block_max(_block_max(w, rows, axis=0), cols, axis=1)  # (r, c)
    sums = np.add.reduceat(np.add.reduceat(w, rows, axis=0, dtype=np.float64), cols, axis=1)
    count_r = np.diff(np.append(rows, n))  # (r,) rows per block
    count_c = np.diff(np.append(cols, m))  # (c,) keys per block
    out: FloatArray = sums / np.outer(count_r, count_c)  # (r, c)
    return out


def _block_max(w: FloatArray, starts: npt.NDArray[np.intp], *, axis: int) -> FloatArray:
    """The largest entry of each block of consecutive indices along `axis`, the blocks starting
    at `starts`: np.maximum.reduceat(w, starts, axis), the same numbers, but as one elementwise
    maximum per place in a block (a block's k-th slice, or its last again when it is shorter),
    4 passes over a 2,048² head instead of a strided reduction 15 times slower."""
    stops = np.append(starts[1:], w.shape[axis])  # (r,) one past each block
    out: FloatArray = np.take(w, starts, axis=axis)  # each block's first slice, a copy
    for k in range(1, int(np.max(stops - starts))):
        np.maximum(out, np.take(w, np.minimum(starts + k, stops - 1), axis=axis), out=out)
    return out
