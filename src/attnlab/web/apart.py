"""Work that must not share the server's process: the cost measurement, in a process of its own.

`core/cost.measure` reads peak memory with tracemalloc. In a server, other worker threads
allocate while it runs, and that breaks it twice over: tracemalloc counts their allocations as
the measurement's, and CPython 3.11's `tracemalloc.stop()` can crash the whole process when
another thread allocates at that moment (a segmentation fault, found by benchmarks/load.py with
200 clients; the crash is CPython's, gh-128679). So the server measures in one spawned child
process that runs nothing else: the numbers are the computation's alone and a crash there is
an error answer, not a dead server.

The child is started on first use (spawn, not fork: the server has threads), at a lower CPU
priority (a measurement is seconds of one core; the other requests come first), and kept;
`close` stops it with the app, and it ends by itself when the server is gone.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import ParamSpec, TypeVar

from attnlab.web.turns import waiting

__all__ = ["Apart", "MeasureCrashedError", "watch_parent"]

P = ParamSpec("P")
R = TypeVar("R")


class MeasureCrashedError(RuntimeError):
    """The measuring process died: the request answers 500 with this message, the server goes
    on, and the next measurement starts a fresh child."""


NICENESS = 10
"""How much lower the measuring child's CPU priority is than the server's: a measurement keeps a
core busy for seconds, and the requests of everyone else come first."""


WATCH_SECONDS = 1.0
"""How often the child checks that the server that started it is still there."""


def _background(server: int) -> None:
    """In the child, before any work: lower its priority (where the OS allows it), and end the
    child when the server `server` (a pid) is gone, however the server ended: a server killed
    outright runs no `close`, and its child would live on, orphaned, holding the server's
    standard output open."""
    try:
        os.nice(NICENESS)
    except (AttributeError, OSError):  # no nice on this OS, or not permitted: run as is
        pass
    watch_parent(server)


def watch_parent(server: int) -> None:
    """In a child of the server `server` (a pid): a thread that ends this process once its
    parent is no longer `server` (an orphan is re-parented)."""
    threading.Thread(target=_watch, args=(server,), name="attnlab-watch", daemon=True).start()


def _watch(server: int) -> None:
    """Exit this process once its parent is no longer `server`."""
    while os.getppid() == server:
        time.sleep(WATCH_SECONDS)
    os._exit(0)


class Apart:
    """One child process for measurements, started when first asked."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def run(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """`fn(*args, **kwargs)` in the child (fn and its arguments picklable); waits for it."""
        with self._lock:
            if self._pool is None:
                context = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=context,
                    initializer=_background,
                    initargs=(os.getpid(),),
                )
            pool = self._pool
        try:
            with waiting():  # the child computes; this thread only waits for its answer
                return pool.submit(fn, *args, **kwargs).result()
        except BrokenProcessPool:
            with self._lock:
                if self._pool is pool:
                    self._pool = None  # the next request starts a fresh child
            raise MeasureCrashedError(
                "the measuring process stopped before it answered; measure again"
            ) from None

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
