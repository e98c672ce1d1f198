"""Shedding heavy work: at most a few heavy computations at once, a bounded queue, then 503.

`HeavyGate.slot(what)` runs its block in one of ServerOptions.heavy_workers slots, waiting while
heavy_queue others wait; one more is refused at once with `Busy` (503 with Retry-After,
error_replies.py), so a flood of long passes or cost measurements never piles up behind itself.
`admit(what)` only counts (for work an executor already queues: the cost's one child).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from attnlab.web.server_options import ServerOptions

__all__ = ["Busy", "HeavyGate"]


class Busy(Exception):
    """Every heavy slot and every place in its queue is taken: try again in a moment."""

    def __init__(self, what: str, retry_after: int) -> None:
        super().__init__(
            f"the server is busy with other {what} requests: try again in {retry_after} s"
        )
        self.retry_after = retry_after


class HeavyGate:
    """At most `options.heavy_workers` heavy computations at once, and at most
    `options.heavy_queue` waiting for a slot."""

    def __init__(self, options: ServerOptions) -> None:
        self._slots = threading.BoundedSemaphore(options.heavy_workers)
        self._lock = threading.Lock()
        self._inside = 0  # running plus waiting
        self.capacity = options.heavy_workers + options.heavy_queue
        self.retry_after = options.retry_after_seconds

    @property
    def inside(self) -> int:
        """How many heavy requests run or wait now."""
        with self._lock:
            return self._inside

    @contextmanager
    def admit(self, what: str) -> Iterator[None]:
        """Count the block as heavy work; raise Busy if the slots and the queue are full."""
        with self._lock:
            if self._inside >= self.capacity:
                raise Busy(what, self.retry_after)
            self._inside += 1
        try:
            yield
        finally:
            with self._lock:
                self._inside -= 1

    @contextmanager
    def slot(self, what: str) -> Iterator[None]:
        """Run the block in a heavy slot, waiting for one; raise Busy if the queue is full."""
        with self.admit(what), self._slots:
            yield
