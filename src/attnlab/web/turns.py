"""Computing turns: how many of the worker threads run Python at once.

The pool (workers.py) has threads enough that requests waiting for something (a heavy slot,
another thread's computation of the same trace, the measuring process) never hold up a cheap
one. But Python runs one thread at a time: more threads computing at once answer no sooner,
and the event loop, which needs Python's lock at every read and write, waits behind each of
them. So a thread takes one of `ServerOptions.running` turns before its handler runs
(`in_turn`) and hands it back for as long as it only waits (`waiting`).

On 2 cores under benchmarks/load.py (200 clients; one run each, and runs vary by 2x), with
all 6 threads computing at once /api/presets answered in 478 ms at p99, with 2 in 299 ms, at
the same throughput (64 and 67 requests/s).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

__all__ = ["in_turn", "waiting"]

P = ParamSpec("P")
R = TypeVar("R")

_held = threading.local()
"""The turns of which this thread holds one now (set by `in_turn`)."""


def in_turn(turns: threading.Semaphore, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """`fn(*args, **kwargs)` once this thread has one of `turns`, given back when fn returns."""
    with turns:
        _held.turns = turns
        try:
            return fn(*args, **kwargs)
        finally:
            _held.turns = None


@contextmanager
def waiting() -> Iterator[None]:
    """Give this thread's turn back while the block only waits, and take one again after, so
    that other requests compute meanwhile. Outside `in_turn` (a test, the CLI) it does
    nothing."""
    turns: threading.Semaphore | None = getattr(_held, "turns", None)
    if turns is None:
        yield
        return
    turns.release()
    try:
        yield
    finally:
        turns.acquire()
