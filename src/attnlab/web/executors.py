"""Where the server's CPU work runs: standard executors, awaited by the one uvicorn process.

A handler hands a plain function and its (picklable) arguments to a worker; the worker runs it
through `reply`, which answers its Response, or its failure in the one error shape: a Starlette
Response holds its body already encoded and pickles as it is, so the server only sends it on.
Three kinds of worker, made by `Executors`:

    toy       a ProcessPoolExecutor (spawn), one process a core (os.sched_getaffinity): the
              toy lesson's explanation, sweep, shuffle and offline file (lesson_routes.py
              says why the 1-2 ms explanation is not computed in the server)
    models    one process that keeps the models, their traces and heads (model_service.py)
    measure   the cost measurement's own child, one process (apart.py)

`answered(request, future, what)` waits for a worker's future and also for the client: once the
client has gone it stops waiting, and a future that has not started is cancelled. A worker that
died answers 503 with Retry-After in plain words (no exception text); a
ProcessPoolExecutor broken by the death of one of its processes (BrokenProcessPool) is replaced
by a new one on the next call (`Pool`). Each death is one warning line on uvicorn's error logger
(`LOG`), with the exception the learner is not shown.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import Response

from attnlab.web.error_replies import refusal
from attnlab.web.error_replies import reply as error_reply
from attnlab.web.worker_setup import setup_worker, spawn_environment

__all__ = [
    "LOG",
    "Pool",
    "WorkerGone",
    "answered",
    "json_answer",
    "reply",
]

LOG = logging.getLogger("uvicorn.error")
"""Where a worker's death is logged: uvicorn's own logger, shown by `attnlab serve`."""


def reply(fn: Callable[..., Response], *args: Any) -> Response:
    """`fn(*args)`, in the worker: its refusals (AttnlabError, Busy) and failures in the one
    error shape of error_replies.py."""
    try:
        return fn(*args)
    except Exception as exc:
        return refusal(exc)


class WorkerGone(Exception):
    """A worker process died before it answered (it is replaced on the next call)."""


class Closed(RuntimeError):
    """The app has stopped: its workers take no more work, and none is started again."""


class Pool:
    """A ProcessPoolExecutor of `workers` spawned processes, each set up by setup_worker (the
    `preload` modules imported), started on first use and replaced by a new one once broken;
    `what` names its work in the log and the 503 ("toy lesson")."""

    def __init__(
        self, workers: int, *, what: str, niceness: int, preload: tuple[str, ...] = ()
    ) -> None:
        self.workers = workers
        self.what = what
        self.niceness = niceness
        self.preload = preload
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False

    def _new(self) -> ProcessPoolExecutor:
        spawn_environment()
        return ProcessPoolExecutor(
            self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=setup_worker,
            initargs=(os.getpid(), self.niceness, self.preload),
        )

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        """`fn(*args)` in a worker (fn and its arguments picklable)."""
        with self._lock:
            if self._closed:  # a new pool now would outlive the app (its semaphores leaked)
                raise Closed(f"the {self.what} workers have stopped")
            if self._pool is None:
                self._pool = self._new()
            pool = self._pool
            try:
                future = pool.submit(fn, *args)
            except BrokenProcessPool:  # a worker died: the executor takes no more work
                self._log("BrokenProcessPool: the pool took no more work")
                pool.shutdown(wait=False, cancel_futures=True)
                self._pool = pool = self._new()
                future = pool.submit(fn, *args)
        future.add_done_callback(lambda done: self._broken(pool, done))
        return future

    def _broken(self, pool: ProcessPoolExecutor, done: Future[Any]) -> None:
        """A future of `pool` that failed with BrokenProcessPool: forget the pool (once)."""
        if done.cancelled() or not isinstance(done.exception(), BrokenProcessPool):
            return
        with self._lock:
            if self._pool is pool:
                self._log(f"BrokenProcessPool: {done.exception()}")
                self._pool = None  # its processes are already gone: the next call starts anew

    def _log(self, why: str) -> None:
        """The one warning line of a broken pool (called with the lock held)."""
        LOG.warning("the %s worker process stopped (%s); a new one starts", self.what, why)

    def close(self) -> None:
        with self._lock:
            pool, self._pool, self._closed = self._pool, None, True
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


async def _disconnected(request: Request) -> None:
    """Returns once the client has gone (the ASGI http.disconnect message)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def answered(request: Request, future: Future[Any], what: str, retry_after: int) -> Response:
    """The Response of `future`; 503 with Retry-After if the `what` worker died.
    Once the client of `request` has gone, stop waiting (and cancel a future not started)."""
    done = asyncio.wrap_future(future)
    gone = asyncio.ensure_future(_disconnected(request))
    try:
        await asyncio.wait({done, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        gone.cancel()
    if not done.done():
        future.cancel()  # does nothing to one already running: its answer is dropped
        done.cancel()
        return Response(status_code=499)  # no one reads it
    try:
        result = done.result()
    except (BrokenProcessPool, WorkerGone) as exc:
        del exc  # logged where the death was noticed (Pool, Models): not shown to the learner
        message = f"the {what} process stopped and is being restarted: try again in {retry_after} s"
        return error_reply(message, None, 503, headers={"Retry-After": str(retry_after)})
    assert isinstance(result, Response)
    return result


def json_answer(answer: BaseModel) -> Response:
    """`answer` encoded where it was computed, so the server only sends bytes."""
    return Response(answer.model_dump_json(by_alias=True), media_type="application/json")
