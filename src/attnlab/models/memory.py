"""Keeping freed memory for reuse: glibc's allocator thresholds, raised once per process.

A forward pass with every head recorded makes many arrays of 0.2–0.8 MB: each layer's scores
and weights for all heads, which the trace keeps, and the temporaries around them. glibc serves
a block over 128 KiB with mmap and hands freed memory back to the kernel at once (its
M_MMAP_THRESHOLD and M_TRIM_THRESHOLD), so the next array lands on fresh pages and every fresh
page is a page fault. On a small VM that made a 128-token pass spend more time faulting than
multiplying. `keep_freed_memory` raises both thresholds (64 MiB, 512 MiB), as the environment
variables MALLOC_MMAP_THRESHOLD_ and MALLOC_TRIM_THRESHOLD_ would: freed memory stays with the
process and is reused.

It also keeps every thread started after it on one arena (M_ARENA_MAX = 1, as MALLOC_ARENA_MAX
would). glibc gives each new thread an arena of its own, and memory freed in one arena is reused
by that arena's threads only. A server computes each request on whichever worker thread is free,
so every worker faulted in pages of its own for the heads it computed, and kept its own freed
memory: in the `attnlab serve` model process the first heads of a 2,048-token text (three 16 MB
arrays each) cost 4,300-4,750 page faults and 90-113 ms of system time apiece, against 55-75 ms
for the arithmetic; with one arena, none once the first two were computed
(tests/models/test_memory.py counts them).

It affects the whole process, runs once, does nothing outside glibc, and is skipped when
ATTNLAB_MALLOC=default is set. So it is not done on import or on `load_model` (a notebook's
process is its user's): `attnlab serve` calls it in each worker before the worker starts a
thread (web/worker_setup.py), and a script may call it. Measured here on a MiniLM trace of 134
tokens in one process: median 1.06-1.08 s with it, 1.85-2.14 s with glibc's defaults (two runs
each).
"""

from __future__ import annotations

import ctypes
import os
import platform

M_TRIM_THRESHOLD = -1  # glibc's mallopt parameter numbers (malloc.h)
M_MMAP_THRESHOLD = -3
M_ARENA_MAX = -8
MMAP_THRESHOLD = 64 << 20
TRIM_THRESHOLD = 512 << 20

_done = False


def keep_freed_memory() -> bool:
    """Raise glibc's mmap and trim thresholds and keep new threads on one arena, once; True
    when that is (or was) done."""
    global _done
    if _done:
        return True
    if os.environ.get("ATTNLAB_MALLOC") == "default" or platform.libc_ver()[0] != "glibc":
        return False
    try:
        libc = ctypes.CDLL(None)
        ok = bool(libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))
        ok = bool(libc.mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD)) and ok
        ok = bool(libc.mallopt(M_ARENA_MAX, 1)) and ok
    except (OSError, AttributeError):
        return False
    _done = ok
    return ok
