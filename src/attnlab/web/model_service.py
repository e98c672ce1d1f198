"""The models' worker: one process that keeps the models, their traces and heads, and answers
each caller on a thread of its own.

A ProcessPoolExecutor worker runs one task at a time, so a head switch would wait behind a long
forward pass or a ranking of the same text. The stdlib's `multiprocessing.managers.BaseManager`
is a threaded server instead: one thread per connection. The server process calls it from
`MODEL_CALLS` threads of its own (`Models.submit`), each with its own connection (a proxy keeps
one per thread), so up to that many model requests run side by side in the worker: a head's
picture, already kept or 50 ms of NumPy, is answered while another thread's pass goes on (NumPy
lets go of Python's lock inside each product). Work is a plain function of model_routes.py (or a
route module beside it) with its request model, run through executors.reply: the answer crosses
as a Response whose body is already encoded.

The manager is spawned, set up by worker_setup.setup_worker, and serves the `--model` folders
(models/kept.py's `serve_folder`) too. If it dies, the call in flight answers 503
(executors.WorkerGone), one warning line is logged (executors.LOG) and the next call starts a new
manager: BaseManager has no replacement of its own.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from multiprocessing.managers import BaseManager
from typing import Any

from starlette.responses import Response

from attnlab.errors import AttnlabError
from attnlab.models.kept import served_name
from attnlab.models.threads import cores
from attnlab.web.executors import LOG, Closed, WorkerGone, reply
from attnlab.web.server_options import ServerOptions
from attnlab.web.worker_setup import setup_worker, spawn_environment

__all__ = ["MODEL_CALLS", "ModelService", "Models"]

MODEL_CALLS = 2 * cores()
"""Model requests in the worker at once, two a core (a head switch beside a pass); more queue
in the server, where one whose client has gone is cancelled before it starts. Each is a thread
of the server that only waits for its answer."""


NICENESS = 5
"""The models' worker runs this much below the server's priority."""


class ModelService:
    """What the worker serves: any route function, run through executors.reply."""

    def answer(self, fn: Callable[..., Response], *args: Any) -> Response:
        return reply(fn, *args)

    def pid(self) -> int:
        return os.getpid()


class _Manager(BaseManager):
    pass


_Manager.register("service", callable=ModelService, exposed=("answer", "pid"))


def _start_worker(
    server: int, options: ServerOptions, folders: tuple[tuple[str, str | None], ...]
) -> None:
    from attnlab.models.kept import serve_folder
    from attnlab.web import model_routes

    routes = ("attnlab.web.model_views_routes", "attnlab.web.export_routes")
    setup_worker(server, NICENESS, routes, keep_memory=True)
    model_routes.configure(options)
    for folder, name in folders:  # `serve` loaded each once already; one changed since is skipped
        try:
            serve_folder(folder, name=name)  # the name the server chose, so both agree
        except AttnlabError as exc:
            LOG.warning("attnlab: not serving the model at %r: %s", folder, exc)


class Models:
    """The server's side: the worker started on first use (or by `start`), and again once it
    has died."""

    def __init__(self, options: ServerOptions, folders: tuple[str, ...] = ()) -> None:
        self.options = options
        self.folders = folders
        self._calls = ThreadPoolExecutor(MODEL_CALLS, thread_name_prefix="attnlab-model-call")
        self._lock = threading.Lock()
        self._manager: _Manager | None = None
        self._proxy: Any = None
        self._closed = False

    def start(self) -> Any:
        """The worker's service proxy, starting the worker if it is not running."""
        with self._lock:
            if self._closed:  # a worker started now would outlive the app
                raise Closed("the model worker has stopped")
            if self._proxy is None:
                spawn_environment()
                manager = _Manager(ctx=multiprocessing.get_context("spawn"))
                named = tuple((f, served_name(f)) for f in self.folders)
                manager.start(_start_worker, (os.getpid(), self.options, named))
                self._manager, self._proxy = manager, manager.service()  # type: ignore[attr-defined]
            return self._proxy

    def _call(self, fn: Callable[..., Response], *args: Any) -> Response:
        proxy = None
        try:
            proxy = self.start()
            answer: Response = proxy.answer(fn, *args)
        except (EOFError, OSError) as exc:  # the worker died (or never started): no connection
            self._drop(proxy, f"{type(exc).__name__}: {exc}")
            raise WorkerGone(f"{type(exc).__name__}: {exc}") from None
        return answer

    def submit(self, fn: Callable[..., Response], *args: Any) -> Future[Response]:
        """`fn(*args)` in the worker, answered on one of the server's calling threads."""
        return self._calls.submit(self._call, fn, *args)

    def _drop(self, proxy: Any, why: str) -> None:
        with self._lock:
            if self._proxy is not proxy:
                return  # another call already dropped it
            manager, self._manager, self._proxy = self._manager, None, None
        process = getattr(manager, "_process", None)  # BaseManager's own, set by start()
        pid = getattr(process, "pid", None)
        LOG.warning("the model worker process (pid %s) stopped (%s); a new one starts", pid, why)
        if process is not None and process.is_alive():
            process.kill()

    def close(self) -> None:
        self._calls.shutdown(wait=False, cancel_futures=True)
        with self._lock:
            manager, self._manager, self._proxy = self._manager, None, None
            self._closed = True
        if manager is not None:
            manager.shutdown()
