"""The price of attention: time and memory of softmax(QKᵀ/√dₖ)V against the sequence length n.

The score matrix QKᵀ has n² entries, each a d-long dot product, so one head costs O(n²·d) time
and O(n²) memory (Vaswani et al., 2017, Table 1: "Self-Attention, O(n²·d) per layer"). `measure`
times the formula on random vectors (d = 64 by default) for n from 4 to a few thousand, records
the peak memory the computation allocates (tracemalloc sees NumPy's buffers), and fits
a + c·n² to both, so the quadratic is seen rather than told.

The formula measured is the bare one, without the Trace's copies: what a model pays per head.
A time budget keeps the whole measurement to a few seconds; sizes not reached are left out.

The price, continued: a decoder that generates one more token after n needs that token's
attention row only. With the keys and values of the n tokens before it kept (a key/value
cache), that is one new query row against n cached keys: q·Kᵀ (1, n), a softmax over n, then
w·V. Without the cache the whole n × n matrix is computed again. Per head, in float32:

                   FLOPs                     bytes moved (4 per number)
    recompute      4·n²·d + 5·n²             4·(4·n·d + 2·n²)  Q, K, V in, the output out,
                                                               the n² scores written and read
    cached row     4·n·d + 5·n               4·(2·n·d + 2·d + 2·n)  the cached K and V read,
                                                               q and the output, n scores

(QKᵀ and WV are 2·n²·d each, a multiply and an add per term; the softmax about 5 per score:
max, subtract, exp, sum, divide.) The projections that make q, k and v are left out of both:
they are the same per new token with a cache, n times that without. `measure_kv_cache` times
both in NumPy at n = 128 … 2048, so the ratio, close to n, is seen rather than told.
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

__all__ = [
    "DEFAULT_MAX_N",
    "KV_SIZES",
    "MAX_D",
    "MAX_N",
    "Cost",
    "D",
    "KVCacheCost",
    "attention",
    "cached_row",
    "measure",
    "measure_kv_cache",
    "measured_kv_cache",
    "sizes",
]

D = 64
"""The vector width measured, a common per-head dimension."""
MAX_N = 4096
"""The largest n `measure` accepts (float32 scores of 4096² are 64 MB)."""
MAX_D = 512
"""The widest vectors `measure` and `measure_kv_cache` take."""
DEFAULT_MAX_N = 2048
"""The largest n measured unless asked otherwise (the CLI's and the page's default)."""
BUDGET_SECONDS = 3.0
"""Stop measuring larger n once this much time has been spent."""


def attention(q: FloatArray, k: FloatArray, v: FloatArray) -> FloatArray:
    """softmax(QKᵀ/√dₖ)V with nothing kept: the computation whose cost is measured."""
    scores = q @ k.T / np.float32(math.sqrt(q.shape[-1]))  # (n, n)
    return stable_softmax(scores, axis=-1) @ v  # (n, d)


def cached_row(q_new: FloatArray, k: FloatArray, v: FloatArray) -> FloatArray:
    """One new token's attention with a key/value cache: its query (1, d) against the n cached
    keys (n, d), blending the n cached values: softmax(q Kᵀ/√dₖ) V, (1, d)."""
    scores = q_new @ k.T / np.float32(math.sqrt(q_new.shape[-1]))  # (1, n)
    return stable_softmax(scores, axis=-1) @ v  # (1, d)


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
    if not 1 <= d <= MAX_D or not ns or ns[0] < 2 or ns[-1] > MAX_N:
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


KV_SIZES = (128, 256, 512, 1024, 2048)
"""The lengths n the key/value-cache comparison measures."""
KV_BUDGET_SECONDS = 2.5
"""Stop the comparison at larger n once this much time has been spent (on an idle 2-core
machine all five sizes take about half a second; measured once per process)."""


ROW_REPS = 20
"""Cached rows timed together per run (one takes microseconds, near the clock's resolution)."""


@dataclass(frozen=True)
class KVCacheCost:
    """One more token after n: the n × n matrix recomputed against one row on a cache, per head.

    seconds are the fastest of alternating runs; flops and bytes come from the cost model in
    the module docstring."""

    d: int
    n: FloatArray  # (p,) the lengths measured
    recompute_seconds: FloatArray  # (p,) softmax(QKᵀ/√dₖ)V for all n rows
    cached_seconds: FloatArray  # (p,) one new row against n cached keys
    budget_seconds: float
    complete: bool  # False when the budget stopped before the largest n

    @property
    def ratio(self) -> FloatArray:
        """How many times longer recomputing takes than one cached row (about n)."""
        return self.recompute_seconds / self.cached_seconds

    @property
    def recompute_flops(self) -> FloatArray:
        return 4 * self.n**2 * self.d + 5 * self.n**2

    @property
    def cached_flops(self) -> FloatArray:
        return 4 * self.n * self.d + 5 * self.n

    @property
    def recompute_bytes(self) -> FloatArray:
        return 4 * (4 * self.n * self.d + 2 * self.n**2)

    @property
    def cached_bytes(self) -> FloatArray:
        return 4 * (2 * self.n * self.d + 2 * self.d + 2 * self.n)


def _time_both(n: int, d: int, rng: np.random.Generator) -> tuple[float, float]:
    """The fastest recompute and cached-row times at n, their runs alternating."""
    q, k, v = (rng.standard_normal((n, d), dtype=np.float32) for _ in range(3))  # (n, d) each
    q_new = q[-1:]  # (1, d) the newest token's query
    attention(q, k, v), cached_row(q_new, k, v)  # warm up
    full = row = math.inf
    runs, start = 0, time.perf_counter()
    while runs < 3 or (time.perf_counter() - start < 0.1 and runs < 200):
        t0 = time.perf_counter()
        attention(q, k, v)
        t1 = time.perf_counter()
        for _ in range(ROW_REPS):  # one row is microseconds: time several at a time
            cached_row(q_new, k, v)
        t2 = time.perf_counter()
        full, row, runs = min(full, t1 - t0), min(row, (t2 - t1) / ROW_REPS), runs + 1
    return full, row


def measure_kv_cache(
    ns: tuple[int, ...] = KV_SIZES,
    *,
    d: int = D,
    budget_seconds: float = KV_BUDGET_SECONDS,
    seed: int = 0,
) -> KVCacheCost:
    """Time one more token after each n in `ns`: recomputing the n × n matrix, and one new row
    against n cached keys (float32, d wide). Stops early once `budget_seconds` are spent."""
    ns = tuple(sorted(ns))
    if not 1 <= d <= MAX_D or not ns or ns[0] < 2 or ns[-1] > MAX_N:
        raise ShapeError(f"the cache comparison needs 1 <= d <= 512 and 2 <= n <= {MAX_N}; "
                         f"got d={d}, n={list(ns)}")  # fmt: skip
    rng = np.random.default_rng(seed)
    done: list[tuple[int, float, float]] = []
    start = time.perf_counter()
    for n in ns:
        if done and time.perf_counter() - start > budget_seconds:
            break
        done.append((n, *_time_both(n, d, rng)))
    n_arr, full, row = (np.array(col, dtype=np.float64) for col in zip(*done, strict=True))
    return KVCacheCost(d=d, n=n_arr, recompute_seconds=full, cached_seconds=row,
                       budget_seconds=budget_seconds, complete=len(done) == len(ns))  # fmt: skip


_MEASURED: dict[int, KVCacheCost] = {}


def measured_kv_cache(d: int = D) -> KVCacheCost:
    """`measure_kv_cache` at KV_SIZES, once per width per process (about a second), so that a
    page asking again, or a server asked by many, does not measure again. Two threads asking
    at once may both measure; the last answer is kept, both are real measurements."""
    kept = _MEASURED.get(d)
    if kept is None:
        kept = measure_kv_cache(d=d)
        if len(_MEASURED) >= 8:  # widths are 1..512: keep a few, not all
            _MEASURED.clear()
        _MEASURED[d] = kept
    return kept
