"""The threads a decoder pass shares, and BLAS kept on one thread while they run.

NumPy runs each array operation on one core, releasing the GIL inside it. A decoder pass spreads
its own work over the cores instead: a layer's causal attention blocks (causal_blocks.py) and,
for a long text, the rest of a layer in row halves (llama.py). Meanwhile BLAS stays on one
thread per product: two of our threads each calling OpenBLAS with its two threads made four on
two cores (the SmolLM2 pass at 2,048 tokens took 12.5-13.4 s that way, 9.7-10.1 s on one block
thread, 8.7-9.2 s like this).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any, TypeVar

__all__ = ["THREADS", "cores", "each", "one_blas_thread", "pool"]


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
