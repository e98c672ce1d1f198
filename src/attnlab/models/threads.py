"""The threads a decoder pass shares, and BLAS kept on one thread while they run or while the
work is small.

NumPy runs each array operation on one core, releasing the GIL inside it. A decoder pass spreads
its own work over the cores instead: a layer's causal attention blocks (causal_blocks.py) and,
for a long text, the rest of a layer in row halves (llama.py). Meanwhile BLAS stays on one
thread per product: two of our threads each calling OpenBLAS with its two threads made four on
two cores (the SmolLM2 pass at 2,048 tokens took 12.5-13.4 s that way, 9.7-10.1 s on one block
thread, 8.7-9.2 s like this).

A short pass (a few dozen tokens) is many small products with NumPy's own steps between them:
BLAS's second thread spins, sleeps and wakes for each, and when another process holds a core it
waits for its turn on it, so the whole pass waits for it. `blas_by_size` keeps such a pass on
one BLAS thread, inside attnlab's call only (threadpoolctl's limit, given back after the pass).
Measured on this 2-core machine, medians of interleaved runs with default threads against one
(idle means no load of ours; other sessions shared the machine):

    MiniLM      6 tokens   idle 45 / 13 ms       two busy processes 16-587 / 29-83 ms
                32 tokens  idle 30 / 17 ms       two busy processes 505 / 89 ms
                128 tokens idle 32 / 42 ms       two busy processes 1,048 / 240 ms
                512 tokens idle 206 / 247 ms     two busy processes 5,764 / 1,497 ms
    SmolLM2     6 tokens   idle 1,581 / 243 ms   two busy processes 8,002 / 1,018 ms
                256 tokens idle 6,042 / 1,335 ms two busy processes 4,788 / 1,160 ms

One thread loses only on a quiet machine from ~128 MiniLM tokens on (by a quarter at most) and
wins 4-10 times under load, so the limit is set high: products (n, d) @ (d, d_ff) below
BLAS_ALONE_BELOW multiply-adds (MiniLM below 455 tokens, SmolLM2 below 303; from 384 tokens a
decoder's row halves take BLAS to one thread anyway).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, nullcontext
from functools import cache
from typing import Any, TypeVar

__all__ = ["BLAS_ALONE_BELOW", "THREADS", "blas_by_size", "cores", "each", "one_blas_thread",
           "pool"]  # fmt: skip


def cores() -> int:
    """The cores this process may run on: its CPU affinity, not the machine's count."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity on this OS
        return os.cpu_count() or 1


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


BLAS_ALONE_BELOW = 2**28
"""A pass whose largest product (n, d) @ (d, d_ff) has fewer multiply-adds runs BLAS on one
thread (the module's docstring has the measurements)."""


def blas_by_size(n: int, d_model: int, d_ff: int) -> AbstractContextManager[None]:
    """The BLAS threads for a pass of `n` tokens through layers d_model wide with a d_ff-wide
    MLP: one thread (shared by every pass inside, `one_blas_thread`) when the work is small,
    BLAS's own otherwise. Use it around the pass: `with blas_by_size(n, d, d_ff): ...`."""
    if n * d_model * d_ff < BLAS_ALONE_BELOW:
        return one_blas_thread
    return nullcontext()
