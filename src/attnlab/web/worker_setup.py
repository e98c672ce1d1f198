"""What `serve`'s worker processes set for themselves before they compute.

Nothing here runs on `import attnlab` or `load_model`: a notebook or a script keeps NumPy's and
glibc's defaults. Each worker (the toy lesson's pool, the models' process, the measuring child)
is spawned by the server and runs `setup_worker` as its executor's initializer:

    BLAS on one thread    the workers already run side by side, one per core: BLAS threads on
                          top of them waited for each other (on 2 cores under
                          benchmarks/load.py, 1 BLAS thread gave 2.6 times the throughput of 2)
    freed memory kept     in the models' worker: glibc's mmap and trim thresholds raised and
                          one arena for every thread (models/memory.py has what it saves)
    a lower priority      `niceness` more than the server's, so the event loop's short answers
                          come first when both want a core
    no orphan             the worker ends once the server that started it is gone

OpenBLAS reads OPENBLAS_THREAD_TIMEOUT once, as NumPy loads, so that one is set in the server's
environment (`spawn_environment`) before a worker is spawned, and the worker inherits it: after
a product OpenBLAS's threads spin 2^28 cycles by default and held a core from the decoder's
attention threads (a 512-token SmolLM2 pass: 1.91-2.02 s with the default, 1.64-1.80 s with
2^20 cycles, three runs each, interleaved).
"""

from __future__ import annotations

import os
import threading
import time
from contextlib import suppress
from typing import Any

__all__ = ["SPIN_CYCLES_LOG2", "setup_worker", "spawn_environment"]

SPIN_CYCLES_LOG2 = 20
"""A BLAS thread spins 2^20 cycles after a product, then sleeps: 2.5-3.7 ms of CPU time
measured in the 50 ms after one product (48-50 ms with OpenBLAS's default of 2^28)."""

WATCH_SECONDS = 1.0
"""How often a worker checks that the server that started it is still there."""

_kept: list[Any] = []  # the worker's BLAS limit, held for the life of the process


def spawn_environment() -> None:
    """In the server, before it spawns a worker: the variables a worker reads as NumPy loads
    (a value already set is kept)."""
    os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", str(SPIN_CYCLES_LOG2))


def setup_worker(
    server: int, niceness: int, preload: tuple[str, ...] = (), *, keep_memory: bool = False
) -> None:
    """In a worker, before any work (see the module's docstring); `server` is the server's pid,
    `preload` the route modules it will run (imported now, not by its first request),
    `keep_memory` for the models' worker only (the toy's small arrays gain nothing from it)."""
    import importlib

    from threadpoolctl import threadpool_limits

    from attnlab.models.memory import keep_freed_memory

    if keep_memory:
        keep_freed_memory()  # before the worker starts a thread
    _kept.append(threadpool_limits(1, user_api="blas"))
    for module in preload:
        importlib.import_module(module)
    with suppress(AttributeError, OSError):  # no nice on this OS, or not permitted: run as is
        os.nice(niceness)
    threading.Thread(target=_watch, args=(server,), name="attnlab-watch", daemon=True).start()


def _watch(server: int) -> None:
    """End this process once its parent is no longer `server` (a pid): a server killed outright
    closes nothing, and its worker would live on, orphaned, holding the server's standard output
    open."""
    while os.getppid() == server:
        time.sleep(WATCH_SECONDS)
    os._exit(0)
