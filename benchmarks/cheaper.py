"""FlashAttention's tiles against the n × n matrix against PyTorch, at n = 1,024 … 32,768.

Side by side in one run, one head, float32, d = 64, random vectors:

* exact: `attnlab.core.cost.attention`, softmax(QKᵀ/√dₖ)V with the n × n scores formed;
* tiled: `attnlab.core.online_softmax.online_outputs`, FlashAttention's online softmax in NumPy,
  tiles of 256 queries × 256 keys, never more than one tile of scores;
* torch: `torch.nn.functional.scaled_dot_product_attention` on the CPU (its fused kernel);
* linear: `attnlab.core.linear_attention.linear_outputs`, φ(Q)(φ(K)ᵀV) with φ = elu + 1: another
  computation (an approximation), whose cost grows as n · d², printed beside the exact ones.

Each (form, n) runs in a child process of its own, so that its peak memory is its own: the peak
resident set (getrusage's ru_maxrss) minus the resident set before the call, both read in the
child after q, k and v exist; the time is the fastest of REPEATS runs. The tiled form's NumPy
peak is also read with tracemalloc. The exact form stops at --max-exact (default 8,192): beyond
it the n × n scores alone are n² · 4 bytes (4.3 GB at 32,768), which a shared machine should not
be asked for; the table says so.
The outputs of tiled and torch are checked against exact where exact runs (max |Δ|).

Run: `python benchmarks/cheaper.py [--max-exact 8192] [--sizes 1024,2048,...]`.
"""

from __future__ import annotations

import argparse
import importlib.util
import multiprocessing as mp
import queue
import resource
import sys
import time

import numpy as np

SIZES = (1024, 2048, 4096, 8192, 16384, 32768)
D = 64
TILE = 256
REPEATS = 3


def _rss_kb() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() // 1024


def _run(form: str, n: int, out: mp.Queue) -> None:  # type: ignore[type-arg]
    rng = np.random.default_rng(n)
    q, k, v = (rng.standard_normal((n, D), dtype=np.float32) for _ in range(3))
    from attnlab.core.cost import attention
    from attnlab.core.online_softmax import online_outputs

    if form == "torch":
        import torch

        tq, tk, tv = (torch.from_numpy(a)[None, None] for a in (q, k, v))
        torch.nn.functional.scaled_dot_product_attention(tq[..., :64, :], tk, tv)  # warm up

        def call() -> np.ndarray:
            with torch.no_grad():
                return torch.nn.functional.scaled_dot_product_attention(tq, tk, tv)[0, 0].numpy()

    elif form == "linear":
        from attnlab.core.linear_attention import linear_outputs

        def call() -> np.ndarray:
            return linear_outputs(q, k, v)

    elif form == "tiled":

        def call() -> np.ndarray:
            return online_outputs(q, k, v, tile=TILE)

    else:

        def call() -> np.ndarray:
            return attention(q, k, v)

    if form != "torch":  # warm up BLAS and the code path on a small slice
        from attnlab.core.linear_attention import linear_outputs

        warm = {"tiled": online_outputs, "exact": attention, "linear": linear_outputs}[form]
        warm(q[:512], k[:512], v[:512])
    before = _rss_kb()
    t0 = time.perf_counter()
    z = call()
    times = [time.perf_counter() - t0]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    for _ in range(REPEATS - 1):  # the fastest run: other processes on the machine slow some
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    seconds = min(times)
    traced = 0
    if form == "tiled":
        from attnlab.core.online_softmax import peak_bytes

        traced = peak_bytes(call)
    sample = np.asarray(z[:: max(1, n // 64)], dtype=np.float64)  # rows 0, n/64, … to compare
    out.put((seconds, peak * 1024, traced, sample))


NO_TORCH = (
    "benchmarks/cheaper.py compares with PyTorch's scaled_dot_product_attention, and PyTorch "
    "is not installed in this Python ({python}). `make test` installs it into .venv (the CPU "
    "build, as the parity tests use); or run with --no-torch to leave that column out."
)


def measure(form: str, n: int) -> tuple[float, int, int, np.ndarray]:
    """Run one (form, n) in a child; a child that dies (an import error, out of memory) ends the
    run with its exit code instead of leaving this process waiting on the queue for ever."""
    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    p = ctx.Process(target=_run, args=(form, n, out))
    p.start()
    while True:
        try:
            result = out.get(timeout=0.5)
            break
        except queue.Empty:
            if not p.is_alive() and out.empty():
                p.join()
                raise SystemExit(
                    f"benchmarks/cheaper.py: the {form} run at n = {n:,} stopped with exit code "
                    f"{p.exitcode} before it answered (its error is printed above)"
                ) from None
    p.join()
    return result  # type: ignore[no-any-return]


def _mb(b: int) -> str:
    return f"{b / 2**20:,.1f} MB"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-exact", type=int, default=8192)
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)))
    ap.add_argument("--no-torch", action="store_true", help="leave PyTorch's SDPA out")
    args = ap.parse_args()
    if not args.no_torch and importlib.util.find_spec("torch") is None:
        raise SystemExit(NO_TORCH.format(python=sys.executable))
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"one head, float32, d = {D}; tiled = online softmax in NumPy, {TILE} × {TILE} tiles; "
          "peak = resident set growth during the call")  # fmt: skip
    head = ("n", "exact time", "exact peak", "tiled time", "tiled peak", "tiled traced",
            "torch time", "torch peak", "n² scores", "max|Δ| tiled", "max|Δ| torch",
            "linear time", "linear peak")  # fmt: skip
    print("  ".join(f"{h:>13}" for h in head))
    for n in sizes:
        tiled = measure("tiled", n)
        torch_ = None if args.no_torch else measure("torch", n)
        lin = measure("linear", n)
        if n <= args.max_exact:
            exact = measure("exact", n)
            cells_exact = (f"{exact[0]:.3f} s", _mb(exact[1]))
            d_tiled = f"{np.abs(tiled[3] - exact[3]).max():.1e}"
            d_torch = "-" if torch_ is None else f"{np.abs(torch_[3] - exact[3]).max():.1e}"
        elif torch_ is None:
            cells_exact, d_tiled, d_torch = ("not run", "not run"), "-", "-"
        else:
            cells_exact = ("not run", "not run")
            d_tiled = f"{np.abs(tiled[3] - torch_[3]).max():.1e}*"
            d_torch = "(ref)"
        cells = (str(n), *cells_exact, f"{tiled[0]:.3f} s", _mb(tiled[1]), _mb(tiled[2]),
                 *(("-", "-") if torch_ is None else (f"{torch_[0]:.3f} s", _mb(torch_[1]))),
                 _mb(n * n * 4), d_tiled,
                 d_torch, f"{lin[0]:.3f} s", _mb(lin[1]))  # fmt: skip
        print("  ".join(f"{c:>13}" for c in cells), flush=True)
    print("* beyond --max-exact, tiled is compared with torch")


if __name__ == "__main__":
    sys.exit(main())
