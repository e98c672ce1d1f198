"""The price of each form against n: the n × n matrix, FlashAttention's tiles, linear attention.

One head, float32, d = 64, random vectors (as cost.py measures the exact form), at n = 256 …
4,096: each form's fastest of a few runs, and its peak of allocated memory (tracemalloc, so run
it in a process of its own: web/apart.py says why). The exact form holds n × n scores (O(n²));
the tiles hold the outputs and one tile of scores (O(n·d)); linear attention holds φ(Q), φ(K)
and one d × d matrix (O(n·d)), but computes another function (linear_attention.py).
benchmarks/cheaper.py measures the same up to 32,768 beside PyTorch.
"""

from __future__ import annotations

import math
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from attnlab.core.cost import attention
from attnlab.core.linear_attention import linear_outputs
from attnlab.core.online_softmax import online_outputs
from attnlab.types import FloatArray

__all__ = ["FORMS", "PRICE_SIZES", "Price", "measure_price"]

PRICE_SIZES = (256, 512, 1024, 2048, 4096)
D = 64
TILE = 128
RUNS = 3
FORMS = ("exact", "tiled", "linear")


@dataclass(frozen=True)
class Price:
    """Each form's (len(n),) fastest time in seconds and peak memory in bytes."""

    n: tuple[int, ...]
    d: int
    tile: int
    seconds: dict[str, FloatArray]  # by form
    bytes: dict[str, FloatArray]


def _forms(tile: int) -> dict[str, Callable[[FloatArray, FloatArray, FloatArray], object]]:
    return {
        "exact": attention,
        "tiled": lambda q, k, v: online_outputs(q, k, v, tile=tile),
        "linear": linear_outputs,
    }


def _one(run: Callable[[FloatArray, FloatArray, FloatArray], object], q: FloatArray,
         k: FloatArray, v: FloatArray) -> tuple[float, float]:  # fmt: skip
    run(q[:64], k[:64], v[:64])  # warm up
    best = math.inf
    for _ in range(RUNS):
        t0 = time.perf_counter()
        run(q, k, v)
        best = min(best, time.perf_counter() - t0)
    tracemalloc.start()
    try:
        run(q, k, v)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return best, float(peak)


def measure_price(sizes: Sequence[int] = PRICE_SIZES, *, d: int = D, tile: int = TILE) -> Price:
    """Time and peak memory of each form at each n."""
    rng = np.random.default_rng(0)
    forms = _forms(tile)
    seconds: dict[str, FloatArray] = {f: np.empty(len(sizes)) for f in FORMS}
    peaks: dict[str, FloatArray] = {f: np.empty(len(sizes)) for f in FORMS}
    for i, n in enumerate(sizes):
        q, k, v = (rng.standard_normal((n, d), dtype=np.float32) for _ in range(3))
        for f in FORMS:
            seconds[f][i], peaks[f][i] = _one(forms[f], q, k, v)
    return Price(tuple(int(n) for n in sizes), d, tile, seconds, peaks)
