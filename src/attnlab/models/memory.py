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

It affects the whole process (PyTorch in the same process gains too), runs once, does nothing
outside glibc, and is skipped when ATTNLAB_MALLOC=default is set. The server calls it before it
starts a thread (web/app.py), a model when it loads.

Kept freed memory only helps from the second time: the first arrays of a size still land on
fresh pages. On this project's 2-core VM a fresh 4 KiB page costs 10-12 µs (64 MB: 150-200 ms),
so the server's first few heads of a 2,048-token text, until its head cache had been filled
once, each took 150-220 ms instead of 50. `touch(nbytes)` writes that much heap once and frees
it, as the pass that needs it ends: the heads that follow land on pages the process has. The
trim threshold is above what the server touches (five heads of 59 MB), so the kernel does not
take it back.
"""

from __future__ import annotations

import ctypes
import os
import platform

import numpy as np

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


TOUCH_CHUNK = 16 << 20
"""`touch` writes the heap in arrays of this size: under MMAP_THRESHOLD, so from the heap."""


def touch(nbytes: int) -> bool:
    """Write `nbytes` (at most TRIM_THRESHOLD) of heap memory once and free it, so the next
    arrays of that size land on pages the process already has (see the module's docstring).
    Pages it already has cost a write, about 5 ms per 100 MB here (fresh ones: 580 ms for
    270 MB). Does nothing, and returns False, unless `keep_freed_memory` took effect: freed
    memory would go back to the kernel."""
    if not _done or nbytes <= 0:
        return False
    nbytes = min(nbytes, TRIM_THRESHOLD - TOUCH_CHUNK)  # what a free keeps
    sizes = [min(TOUCH_CHUNK, nbytes - at) for at in range(0, nbytes, TOUCH_CHUNK)]
    chunks = [np.ones(size, np.uint8) for size in sizes]  # np.ones writes every page
    del chunks  # freed back to the heap, not to the kernel
    return True
