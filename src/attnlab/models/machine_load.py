"""How many cores are free for a pass right now: the machine's idle time, our own work not load.

A pass decides its BLAS threads from this (threads.py `blas_by_load`): BLAS's second thread
helps only when a core is free for it. Linux's /proc/stat counts every core's time since boot in
clock ticks (user, nice, system, idle, iowait, irq, softirq, steal, ...); over a window between
two looks, the cores free to this process are

    free = (Δidle + Δiowait) / (HZ · Δwall)  +  Δ(this process's CPU seconds) / Δwall

that is, the cores nobody used plus the ones this process used itself (its own passes and BLAS
threads are not load against it), capped at the cores it may run on. A look costs one read of a
small file (~20 µs); a window shorter than WINDOW_S gives back the last answer, so a server
doing a hundred short passes a second reads it a few times a second.

A window longer than STALE_S (a server that waited for its next request, or the first look)
says little about now: then the answer is the threads running right now, the fourth field of
/proc/loadavg ("3/345": three runnable, this one among them), less this one. Without either file
(not Linux) it is the 1-minute load average, `os.getloadavg()`, which counts this process's
running threads too and so errs towards "busy": one BLAS thread, the side that never costs more
than ~1.5×.

Measured against the standard parts: `os.getloadavg()` alone reacts over a minute and counts our
own threads (a benchmark loop of ours on a quiet machine reads ~1 busy core and would keep BLAS
on one thread for good); psutil's `cpu_percent` reads the same /proc/stat but is another
dependency for twenty lines of arithmetic.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["STALE_S", "WINDOW_S", "Look", "MachineLoad", "cores", "machine_load", "read_proc_stat",
           "running_others"]  # fmt: skip

WINDOW_S = 0.25
"""The shortest window between two looks; a call sooner gives back the last answer."""

STALE_S = 2.0
"""The longest window averaged; past it the threads running now decide."""

_HZ = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


@dataclass(frozen=True)
class Look:
    """One look at the clocks: wall seconds, the machine's idle CPU seconds (all cores), this
    process's CPU seconds (all its threads)."""

    wall: float
    idle: float
    ours: float


def read_proc_stat(path: str = "/proc/stat") -> float | None:
    """The machine's idle + iowait CPU seconds since boot, summed over its cores; None when the
    file is not there or not in Linux's format."""
    try:
        with open(path, "rb") as f:
            first = f.readline().split()
    except OSError:
        return None
    if len(first) < 6 or first[0] != b"cpu":
        return None
    try:
        return (int(first[4]) + int(first[5])) / _HZ  # idle, iowait
    except ValueError:
        return None


def running_others(path: str = "/proc/loadavg") -> float:
    """The threads other than this one that are runnable right now (/proc/loadavg's fourth
    field, less one); without that file the 1-minute load average."""
    try:
        with open(path, "rb") as f:
            running = int(f.read().split()[3].split(b"/")[0])
    except (OSError, IndexError, ValueError):
        return os.getloadavg()[0]
    return float(max(0, running - 1))


class MachineLoad:
    """The cores free to this process, from looks at the clocks over the last window.

    The clocks are arguments so that a test can play a machine: `idle_seconds` (the machine's
    idle CPU seconds, or None without them), `wall`, `ours` (this process's CPU seconds) and
    `others_now` (the other threads runnable now)."""

    def __init__(
        self,
        *,
        cores: int,
        idle_seconds: Callable[[], float | None] = read_proc_stat,
        wall: Callable[[], float] = time.monotonic,
        ours: Callable[[], float] = time.process_time,
        others_now: Callable[[], float] = running_others,
    ) -> None:
        self.cores = cores
        self._idle_seconds, self._wall, self._ours = idle_seconds, wall, ours
        self._others_now = others_now
        self._lock = threading.Lock()
        self._last: Look | None = None
        self._free = 0.0

    def free_cores(self) -> float:
        """Cores free to this process over the window since the last look (0 … cores)."""
        with self._lock:
            wall = self._wall()
            if self._last is not None and wall - self._last.wall < WINDOW_S:
                return self._free
            idle = self._idle_seconds()
            look = Look(wall, idle, self._ours()) if idle is not None else None
            last, self._last = self._last, look
            if look is None or last is None or wall - last.wall > STALE_S:
                free = self.cores - self._others_now()  # no window, or one too old to say
            else:
                free = (look.idle - last.idle + look.ours - last.ours) / (wall - last.wall)
            self._free = min(float(self.cores), max(0.0, free))
            return self._free

    def all_free(self) -> bool:
        """Whether every core this process may use is free for it (within half a core: the
        clock ticks are 10 ms, and a core half taken already makes BLAS's threads wait)."""
        return self.free_cores() >= self.cores - 0.5


def cores() -> int:
    """The cores this process may run on: its CPU affinity, not the machine's count."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity on this OS
        return os.cpu_count() or 1


machine_load = MachineLoad(cores=cores())
"""The process's one view of the machine (every pass shares its window)."""
