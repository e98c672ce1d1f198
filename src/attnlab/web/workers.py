"""The server's worker pool: handlers run here, never on the event loop.

`Workers` owns a thread pool of a fixed size (ServerOptions.workers) and a `HeavyGate` for the
slow computations. A handler awaits `workers.run(fn, ...)`; `fn` runs in a pool thread and, when
its work is heavy, enters `workers.heavy.slot(...)` there. The gate lets `heavy_workers` run and
`heavy_queue` wait; one more is refused at once with `Busy` (503 with Retry-After). As the pool
has more threads than heavy slots plus queue (ServerOptions checks it), a thread is always free
for a cheap request.

Of the pool's threads, at most `ServerOptions.running` compute at once (turns.py): a thread
takes a turn before its handler runs and hands it back while it only waits.
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import Response

from attnlab.web.apart import Apart
from attnlab.web.server_options import ServerOptions
from attnlab.web.turns import in_turn, waiting

__all__ = ["Busy", "HeavyGate", "Workers", "json_answer", "workers_of"]

P = ParamSpec("P")
R = TypeVar("R")


class Busy(Exception):
    """Every heavy slot and every place in its queue is taken: try again in a moment."""

    def __init__(self, what: str, retry_after: int) -> None:
        super().__init__(
            f"the server is busy with other {what} requests: try again in {retry_after} s"
        )
        self.retry_after = retry_after


class HeavyGate:
    """At most `limit` heavy computations at once, and at most `queue` waiting for a turn."""

    def __init__(self, limit: int, queue: int, retry_after: int) -> None:
        self._slots = threading.BoundedSemaphore(limit)
        self._lock = threading.Lock()
        self._inside = 0  # running plus waiting
        self.capacity = limit + queue
        self.retry_after = retry_after

    @property
    def inside(self) -> int:
        """How many heavy requests run or wait now."""
        with self._lock:
            return self._inside

    @contextmanager
    def slot(self, what: str) -> Iterator[None]:
        """Run the block in a heavy slot, waiting for one; raise Busy if the queue is full."""
        with self._lock:
            if self._inside >= self.capacity:
                raise Busy(what, self.retry_after)
            self._inside += 1
        try:
            if not self._slots.acquire(blocking=False):
                with waiting():  # a queued request computes nothing while it waits
                    self._slots.acquire()
            try:
                yield
            finally:
                self._slots.release()
        finally:
            with self._lock:
                self._inside -= 1


class Workers:
    """The fixed pool the handlers run in, and the gate of the heavy ones."""

    def __init__(self, options: ServerOptions) -> None:
        self.options = options
        self._pool = ThreadPoolExecutor(options.workers, thread_name_prefix="attnlab-worker")
        self.heavy = HeavyGate(
            options.heavy_workers, options.heavy_queue, options.retry_after_seconds
        )
        self.apart = Apart()  # the cost measurement's own process (apart.py)
        self._computing = threading.Semaphore(options.running)

    async def run(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """`fn(*args, **kwargs)` in a pool thread, once it has a computing turn; the event loop
        waits without blocking."""
        loop = asyncio.get_running_loop()
        call = functools.partial(in_turn, self._computing, fn, *args, **kwargs)
        return await loop.run_in_executor(self._pool, call)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        self.apart.close()


def workers_of(request: Request) -> Workers:
    """The pool of the app serving `request` (create_app puts it in the app's state)."""
    workers = request.app.state.workers
    assert isinstance(workers, Workers)
    return workers


def json_answer(answer: BaseModel) -> Response:
    """`answer` encoded in the worker thread, so the event loop only sends bytes."""
    return Response(answer.model_dump_json(by_alias=True), media_type="application/json")
