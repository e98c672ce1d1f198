"""The threads a decoder pass shares, and BLAS kept on one thread while they run or while
another process holds a core.

NumPy runs each array operation on one core, releasing the GIL inside it. A decoder pass spreads
its own work over the cores instead: a layer's causal attention blocks (causal_blocks.py) and,
for a long text, the rest of a layer in row halves (llama.py). Meanwhile BLAS stays on one
thread per product: two of our threads each calling OpenBLAS with its two threads made four on
two cores (the SmolLM2 pass at 2,048 tokens took 12.5-13.4 s that way, 9.7-10.1 s on one block
thread, 8.7-9.2 s like this).

BLAS's own threads (two here) take about two thirds of one thread's time for a pass when a core
is free for the second, and are several times slower when another process holds a core: the second
thread waits for its turn on it at every product, and the whole pass waits for it. So a pass
asks how busy the machine is right now (machine_load.py: the idle cores over the last window,
its own work not counted) and keeps BLAS on one thread, inside attnlab's call only
(threadpoolctl's limit, given back after the pass), unless every core is free for it:
`blas_by_load`. The numbers are the same either way (the products split their rows and columns
over the threads, never a sum; a test checks the traces bit for bit). Medians of interleaved
runs, one thread against BLAS's own two, on this 2-core machine:

    MiniLM      6 tokens   idle 8.9 / 6.3 ms       one busy process 24.5 / 117.8 ms
                32 tokens  idle 15.7 / 11.9 ms     one busy process 19.7 / 31.1 ms
    SmolLM2     6 tokens   idle 118.2 / 72.4 ms    one busy process 224.4 / 1,586.2 ms
                32 tokens  idle 146.1 / 94.9 ms

(Before this rule the size of the work decided: one thread below 2^28 multiply-adds. It won
4-10× under load and lost ~1.5× on a quiet machine at every size: the table above.)
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, nullcontext
from functools import cache
from typing import Any, Literal, TypeVar

from attnlab.models.machine_load import cores, machine_load

__all__ = ["BLAS_RULE", "THREADS", "blas_by_load", "blas_choice", "cores", "each",
           "one_blas_thread", "pool"]  # fmt: skip


THREADS = cores()
"""Threads that share a pass's parallel parts: one a core this process may use."""

T = TypeVar("T")
R = TypeVar("R")


@cache
def pool() -> ThreadPoolExecutor:
    """The threads every pass shares, made once per process. Their tasks never wait for
    another task of the pool, so passes on several server threads only queue."""
    return ThreadPoolExecutor(THREADS, thread_name_prefix="attnlab-pass")


def each(fn: Callable[[T], R], parts: Sequence[T]) -> list[R]:
    """fn of every part, in order: on the pool when there are several, here when one."""
    if len(parts) > 1 and THREADS > 1:
        return list(pool().map(fn, parts))
    return [fn(p) for p in parts]


@cache
def _blas() -> Any:
    """threadpoolctl's controller of the BLAS libraries loaded now (found once: a search of the
    loaded libraries costs milliseconds), or None without threadpoolctl."""
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:
        return None
    return ThreadpoolController()


class OneBlasThread:
    """One BLAS thread per call while a pass runs its own threads, for every pass at once: the
    first pass in sets the limit, the last one out gives the old one back (threadpoolctl's limits
    are the process's, so two passes restoring in their own order would leave the wrong one).
    Without threadpoolctl installed BLAS keeps its threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._inside = 0
        self._limit: Any = None

    def __enter__(self) -> None:
        with self._lock:
            self._inside += 1
            if self._inside == 1 and (controller := _blas()) is not None:
                self._limit = controller.limit(limits=1, user_api="blas")

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._inside -= 1
            if self._inside == 0 and self._limit is not None:
                self._limit.restore_original_limits()
                self._limit = None


one_blas_thread = OneBlasThread()


BlasRule = Literal["by load", "one", "own"]

BLAS_RULE: BlasRule = "by load"
"""How a pass picks its BLAS threads: by the machine's load (the default), always one, or always
BLAS's own. benchmarks/short_passes.py times the three side by side."""


def blas_choice(*, alone: bool = True) -> Literal["one", "own"]:
    """One BLAS thread, or BLAS's own: own while every core is free and no other pass of this
    process is running (`alone`: two passes each with BLAS's two threads would be four threads
    on two cores), by BLAS_RULE."""
    if BLAS_RULE == "own" or (BLAS_RULE == "by load" and alone and machine_load.all_free()):
        return "own"
    return "one"


class _Passes:
    """How many passes are inside `blas_by_load` now, in this process."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.inside = 0


_passes = _Passes()


@contextmanager
def blas_by_load() -> Iterator[None]:
    """The BLAS threads for a pass, `blas_choice`'s: one thread (shared by every pass inside,
    `one_blas_thread`) or BLAS's own. Use it around the pass: `with blas_by_load(): ...`."""
    with _passes.lock:
        _passes.inside += 1
        alone = _passes.inside == 1
    try:
        with one_blas_thread if blas_choice(alone=alone) == "one" else nullcontext():
            yield
    finally:
        with _passes.lock:
            _passes.inside -= 1
