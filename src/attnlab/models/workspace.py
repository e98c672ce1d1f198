"""Scratch arrays for the forward pass, allocated once per model and reused by every layer.

A BERT layer makes a handful of temporaries as big as (n, d_ff) = (128, 1536) float32, 0.8 MB
each. Allocating them afresh for every layer means the allocator hands memory back to the
operating system and takes it again, and touching fresh pages costs more than the arithmetic
done on them. A Workspace keeps one array per name sized for the longest text and hands out
its first n rows. Nothing from a Workspace may end up in a returned trace: the next layer
overwrites it. One forward pass at a time may use it (the model holds a lock).
"""

from __future__ import annotations

import numpy as np

from attnlab.types import FloatArray


class Workspace:
    """Named (max_rows, width) scratch arrays of one dtype; `take` returns the first n rows."""

    def __init__(self, max_rows: int, dtype: np.dtype[np.floating]) -> None:
        self.max_rows = max_rows
        self.dtype = dtype
        self._arrays: dict[str, FloatArray] = {}

    def take(self, name: str, n: int, width: int) -> FloatArray:
        """A contiguous (n, width) view of the scratch array `name`; its contents are stale."""
        a = self._arrays.get(name)
        if a is None or a.shape[1] != width:
            a = self._arrays[name] = np.empty((self.max_rows, width), dtype=self.dtype)
        return a[:n]  # (n, width)
