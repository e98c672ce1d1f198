"""One more token after n: the n × n matrix recomputed against one row on a key/value cache.

Side by side in one run, per head (float32, d = 64, random vectors) at n = 128 … 2048:
`attnlab.core.cost.attention` (softmax(QKᵀ/√dₖ)V for every row, what generating without a cache
pays) against `cached_row` (the new token's query against n cached keys and values). The two
alternate run by run; each is reported by its median and its fastest run (which other processes
on a shared machine disturb less), the measured ratio recompute / cached, and the cost model's
FLOP and byte ratios (core/cost.py). Run: `python benchmarks/kv_cache.py`.

The recompute is a matrix product, which OpenBLAS spreads over its worker threads; on a machine
whose cores other processes keep busy, those threads wait for each other and the medians jump.
So the script then runs itself once more with OPENBLAS_NUM_THREADS=1 (it must be set before
numpy loads) and prints that table too, labelled: the single-thread ratio is the steadier one.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

import numpy as np

from attnlab.core.cost import KV_SIZES, D, KVCacheCost, attention, cached_row

RUNS = {128: 100, 256: 50, 512: 20, 1024: 10, 2048: 6}
ONE_THREAD = "OPENBLAS_NUM_THREADS"
ROW_REPS = 50


def side_by_side(n: int, d: int) -> tuple[list[float], list[float]]:
    rng = np.random.default_rng(n)
    q, k, v = (rng.standard_normal((n, d), dtype=np.float32) for _ in range(3))
    q_new = q[-1:]  # (1, d)
    attention(q, k, v), cached_row(q_new, k, v)  # warm up
    full, row = [], []
    for _ in range(RUNS[n]):
        t0 = time.perf_counter()
        attention(q, k, v)
        t1 = time.perf_counter()
        for _ in range(ROW_REPS):
            cached_row(q_new, k, v)
        t2 = time.perf_counter()
        full.append(t1 - t0)
        row.append((t2 - t1) / ROW_REPS)
    return full, row


def main() -> None:
    d = D
    model = KVCacheCost(
        d=d,
        n=np.array(KV_SIZES, dtype=np.float64),
        recompute_seconds=np.ones(5),
        cached_seconds=np.ones(5),
        budget_seconds=0.0,
        complete=True,
    )  # fmt: skip  (for the model columns)
    threads = "1 BLAS thread" if os.environ.get(ONE_THREAD) == "1" else "default BLAS threads"
    print(f"one more token after n, d = {d}, float32, {threads}: "
          "recompute n × n vs one row on a KV cache")  # fmt: skip
    head = ("n", "recompute med", "min", "cached med", "min", "ratio med", "ratio min",
            "FLOP ratio", "byte ratio")  # fmt: skip
    print("  ".join(f"{h:>13}" for h in head))
    for i, n in enumerate(KV_SIZES):
        full, row = side_by_side(n, d)
        fm, rm = statistics.median(full), statistics.median(row)
        cells = (str(n), f"{fm * 1e3:.3f} ms", f"{min(full) * 1e3:.3f} ms",
                 f"{rm * 1e6:.1f} µs", f"{min(row) * 1e6:.1f} µs", f"{fm / rm:.0f}×",
                 f"{min(full) / min(row):.0f}×",
                 f"{model.recompute_flops[i] / model.cached_flops[i]:.0f}×",
                 f"{model.recompute_bytes[i] / model.cached_bytes[i]:.0f}×")  # fmt: skip
        print("  ".join(f"{c:>13}" for c in cells))


if __name__ == "__main__":
    main()
    if os.environ.get(ONE_THREAD) != "1":
        print()
        sys.stdout.flush()
        subprocess.run([sys.executable, __file__], env={**os.environ, ONE_THREAD: "1"}, check=True)
