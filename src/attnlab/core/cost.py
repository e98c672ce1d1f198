"""The price of attention: time and memory of softmax(QKᵀ/√dₖ)V against the sequence length n.

The score matrix QKᵀ has n² entries, each a d-long dot product, so one head costs O(n²·d) time
and O(n²) memory (Vaswani et al., 2017, Table 1: "Self-Attention, O(n²·d) per layer"). `measure`
times the formula on random vectors (d = 64 by default) for n from 4 to a few thousand, records
the peak memory the computation allocates (tracemalloc sees NumPy's buffers), and fits
a + c·n² to both, so the quadratic is seen rather than told.

The formula measured is the bare one, without the Trace's copies: what a model pays per head.
A time budget keeps the whole measurement to a few seconds; sizes not reached are left out.
"""

from __future__ import annotations

import math
import time
import tracemalloc
from dataclasses import dataclass

import numpy as np

from attnlab.core.softmax import stable_softmax
from attnlab.errors import ShapeError
from attnlab.types import FloatArray

__all__ = ["DEFAULT_MAX_N", "MAX_N", "Cost", "D", "attention", "measure", "sizes"]

D = 64
"""The vector width measured, a common per-head dimension."""
MAX_N = 4096
"""The largest n `measure` accepts (float32 scores of 4096² are 64 MB)."""
DEFAULT_MAX_N = 2048
"""The largest n measured unless asked otherwise (the CLI's and the page's default)."""
BUDGET_SECONDS = 3.0
"""Stop measuring larger n once this much time has been spent."""


def attention(q: FloatArray, k: FloatArray, v: FloatArray) -> FloatArray:
    """softmax(QKᵀ/√dₖ)V with nothing kept: the computation whose cost is measured."""
    scores = q @ k.T / np.float32(math.sqrt(q.shape[-1]))  # (n, n)
    return stable_softmax(scores, axis=-1) @ v  # (n, d)


def sizes(max_n: int = DEFAULT_MAX_N, *, min_n: int = 4, per_octave: int = 2) -> list[int]:
    """Sequence lengths from `min_n` to `max_n`, `per_octave` of them per doubling."""
    if not 2 <= min_n <= max_n <= MAX_N or not 1 <= per_octave <= 8:
        raise ShapeError(
            f"cost sizes need 2 <= min_n <= max_n <= {MAX_N} and 1..8 per octave; "
            f"got min_n={min_n}, max_n={max_n}, per_octave={per_octave}"
        )
    steps = round(math.log2(max_n / min_n) * per_octave)
    ns = np.geomspace(min_n, max_n, steps + 1) if steps else np.array([min_n])
    return sorted({round(float(x)) for x in ns})


@dataclass(frozen=True)
class Cost:
    """Measured points and the fitted a + c·n² curves."""

    d: int
    n: FloatArray  # (p,) the sequence lengths measured
    seconds: FloatArray  # (p,) the fastest of a few runs
    bytes: FloatArray  # (p,) peak bytes allocated during one run
    time_fit: tuple[float, float]  # (a, c): seconds ≈ a + c·n²
    memory_fit: tuple[float, float]  # (a, c): bytes ≈ a + c·n²
    budget_seconds: float
    complete: bool  # False when the budget stopped the sweep before the largest n

    def curve(self, fit: tuple[float, float], n: FloatArray) -> FloatArray:
        return fit[0] + fit[1] * n**2


def _fit_quadratic(n: FloatArray, y: FloatArray) -> tuple[float, float]:
    """Least squares a + c·n², relative errors (each point weighs the same), a, c >= 0."""
    a_mat = np.stack([np.ones_like(n), n**2], axis=1) / y[:, None]  # (p, 2)
    (a, c), *_ = np.linalg.lstsq(a_mat, np.ones_like(y), rcond=None)
    if a < 0 or c < 0:  # fall back to the pure quadratic through the largest point
        return 0.0, float(y[-1] / n[-1] ** 2)
    return float(a), float(c)


def _time_one(n: int, d: int, rng: np.random.Generator) -> tuple[float, float]:
    q, k, v = (rng.standard_normal((n, d), dtype=np.float32) for _ in range(3))  # (n, d) each
    attention(q, k, v)  # warm up
    best, runs, start = math.inf, 0, time.perf_counter()
    while runs < 5 or (time.perf_counter() - start < 0.02 and runs < 200):
        t0 = time.perf_counter()
        attention(q, k, v)
        best, runs = min(best, time.perf_counter() - t0), runs + 1
    tracemalloc.start()
    try:
        attention(q, k, v)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return best, float(peak)


def measure(
    ns: list[int] | None = None,
    *,
    d: int = D,
    budget_seconds: float = BUDGET_SECONDS,
    seed: int = 0,
) -> Cost:
    """Time and peak memory of attention for each n in `ns` (default 4..2048), float32."""
    ns = sizes() if ns is None else sorted(ns)
    if not 1 <= d <= 512 or not ns or ns[0] < 2 or ns[-1] > MAX_N:
        raise ShapeError(f"cost needs 1 <= d <= 512 and 2 <= n <= {MAX_N}; got d={d}, n={ns}")
    rng = np.random.default_rng(seed)
    done: list[tuple[int, float, float]] = []
    start = time.perf_counter()
    for n in ns:
        if done and time.perf_counter() - start > budget_seconds:
            break
        done.append((n, *_time_one(n, d, rng)))
    n_arr, secs, mem = (np.array(col, dtype=np.float64) for col in zip(*done, strict=True))
    return Cost(
        d=d,
        n=n_arr,
        seconds=secs,
        bytes=mem,
        time_fit=_fit_quadratic(n_arr, secs),
        memory_fit=_fit_quadratic(n_arr, mem),
        budget_seconds=budget_seconds,
        complete=len(done) == len(ns),
    )
