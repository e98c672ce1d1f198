"""Work that must not share a process with other work: the cost measurement, in a child alone.

`core/cost.measure` reads peak memory with tracemalloc. With other threads allocating it
breaks twice over: tracemalloc counts their allocations as the measurement's, and CPython 3.11's
`tracemalloc.stop()` can crash the whole process when another thread allocates at that moment (a
segmentation fault, found by benchmarks/load.py with 200 clients; the crash is CPython's,
gh-128679). So the measuring child stays a child: one spawned process that runs nothing else,
so the numbers are the computation's alone and a crash there is a 503, not a dead server.

It runs at a lower CPU priority (a measurement is seconds of one core; the other requests come
first), and one measurement at a time: the executor queues the others, and the server sheds
beyond its heavy queue (heavy.py).
"""

from __future__ import annotations

from attnlab.web.executors import Pool

__all__ = ["NICENESS", "measuring_pool"]

NICENESS = 10
"""How much lower the measuring child's CPU priority is than the server's."""


def measuring_pool() -> Pool:
    """The one child that measures, started on first use and replaced if it dies."""
    return Pool(1, what="measuring", niceness=NICENESS, preload=("attnlab.web.lesson_routes",))
