"""`attnlab serve` in three processes: the front answers, two compute processes compute.

Python runs one thread at a time in a process. In one process, the event loop that reads and
answers every request needs that lock at each read and write, and the worker threads computing
a model's forward pass or a lesson hold it most of the time: under benchmarks/load.py
(200 clients, 2 cores) /api/presets, an answer made once at start, waited 150-300 ms at p99
behind them, however few threads computed (turns.py).

So `serve` runs the app three times (app.py's `create_app`, the same code and options):

    front    (this process)  the page, its files, /openapi.json, /api/presets and /api/lab,
                             all answered here; every other /api/ request is passed on whole
    model    (a child)       /api/model/... and /api/export/model.html: the models, their
                             caches, the long traces' heavy slots
    lesson   (a child)       the rest of /api/: the toy lesson, its lab and the cost measure

Each child has its worker pool and its heavy slots, listens on a Unix socket only this user
can open, and runs at a lower CPU priority (NICENESS) than the front. Two children rather than
one: each has Python's lock to itself, so the toy lesson computes on one core while a model
computes on the other (one child answered 80 requests/s under benchmarks/load.py, two 148).

The front checks each request at its own edge (edge.py: Host, body size and type, JSON depth)
before passing it on, and adds the security headers to every answer; the compute process
checks again, as any app does. A request is passed on as HTTP/1.0 over a fresh connection to the
socket and the answer read to its end: nothing is kept between requests, so a compute process
that is stopped or restarted leaves nothing stale. If a compute process is gone, a new one is
started and the request waits for it; one that was being computed when it died answers 503
with Retry-After.

The child is spawned (not forked: the front has threads), ends by itself when the front is
gone (apart.py's watch), and is stopped with the front.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import tempfile
import threading
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from attnlab.web.apart import watch_parent
from attnlab.web.edge import Edge, read_body, too_long
from attnlab.web.server_options import ServerOptions

__all__ = ["FRONT_ROUTES", "MODEL_ROUTES", "NICENESS", "ComputeProcess", "Front"]

FRONT_ROUTES = frozenset({"/api/presets", "/api/lab"})
"""The API routes the front answers itself: fixed answers made once, never computed per
request. Every other path under /api/ goes to a compute process."""

MODEL_ROUTES = ("/api/model/", "/api/export/model.html")
"""The paths (prefixes) the model process answers; the lesson process answers the rest."""

NICENESS = 5
"""How much lower the compute processes' CPU priority is than the front's: when both want a
core, the front's short answers come first."""

START_SECONDS = 120.0
"""How long a request waits for a compute process that is starting (importing NumPy and the
app takes 1-3 s; a `--model` folder is loaded before it listens)."""

_HOP = frozenset({b"connection", b"keep-alive", b"transfer-encoding", b"te", b"upgrade",
                  b"content-length", b"proxy-connection"})  # fmt: skip
"""Request headers that belong to one connection, not to the request passed on."""

_ANSWER_HOP = frozenset({b"connection", b"keep-alive", b"transfer-encoding", b"date",
                         b"server"})  # fmt: skip
"""Answer headers the front's own server writes for its connection."""


def _compute_main(
    socket_path: str, options: ServerOptions, folders: tuple[str, ...], front: int
) -> None:
    """The compute process: the app on a Unix socket, until the front stops it or is gone."""
    import uvicorn

    from attnlab.web import app, model_routes

    watch_parent(front)
    try:
        os.nice(NICENESS)
    except (AttributeError, OSError):  # no nice on this OS, or not permitted: run as is
        pass
    for folder in folders:
        model_routes.serve_folder(folder)
    uvicorn.Server(app.uvicorn_config(app.create_app(options), uds=socket_path)).run()


class ComputeUnavailable(Exception):
    """The compute process is not answering: it is starting, or it stopped."""


class ComputeProcess:
    """The child that computes: started with `start`, started again when it has died."""

    def __init__(self, name: str, options: ServerOptions, folders: tuple[str, ...] = ()) -> None:
        self.name = name
        self.options = options
        self.folders = folders
        self._dir: tempfile.TemporaryDirectory[str] | None = None  # made by the first start
        self.socket_path = ""
        self._lock = threading.Lock()
        self._process: BaseProcess | None = None

    @property
    def pid(self) -> int | None:
        process = self._process
        return process.pid if process is not None else None

    def start(self) -> None:
        """Start the child if it is not running (it listens a moment later)."""
        with self._lock:
            if self._process is not None and self._process.is_alive():
                return
            if self._process is not None:
                self._process.join(0)
            if self._dir is None:
                self._dir = tempfile.TemporaryDirectory(prefix="attnlab-")  # mode 0700
                self.socket_path = str(Path(self._dir.name) / "compute.sock")
            Path(self.socket_path).unlink(missing_ok=True)
            context = multiprocessing.get_context("spawn")
            self._process = context.Process(
                target=_compute_main,
                args=(self.socket_path, self.options, self.folders, os.getpid()),
                name=f"attnlab-{self.name}",
            )
            self._process.start()

    def alive(self) -> bool:
        process = self._process
        return process is not None and process.is_alive()

    async def connect(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """A connection to the child's socket, waiting while it starts; restarts a dead one."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + START_SECONDS
        while True:
            if not self.alive():
                self.start()
            try:
                return await asyncio.open_unix_connection(self.socket_path, limit=2**20)
            except (FileNotFoundError, ConnectionRefusedError):
                if loop.time() > deadline:
                    raise ComputeUnavailable from None
                await asyncio.sleep(0.05)

    def close(self) -> None:
        with self._lock:
            process, self._process = self._process, None
        if process is not None and process.is_alive():
            process.terminate()  # uvicorn shuts down on SIGTERM
            process.join(10)
            if process.is_alive():
                process.kill()
                process.join(10)
        with self._lock:
            folder, self._dir = self._dir, None
        if folder is not None:
            folder.cleanup()


@dataclass(frozen=True)
class _Request:
    """A request as it is passed on: its method, path and query, headers and whole body."""

    method: str
    target: bytes
    headers: list[tuple[bytes, bytes]]
    body: bytes

    @classmethod
    def of(cls, scope: Scope, body: bytes) -> _Request:
        target = scope.get("raw_path") or scope["path"].encode()
        if scope.get("query_string"):
            target += b"?" + scope["query_string"]
        headers = [(k, v) for k, v in scope["headers"] if k.lower() not in _HOP]
        return cls(scope["method"], target, headers, body)


class Front:
    """The front's ASGI app: `app` for the page and the fixed routes, the rest passed on to
    the `model` or the `lesson` process, each behind its own edge."""

    def __init__(
        self, app: ASGIApp, model: ComputeProcess, lesson: ComputeProcess, options: ServerOptions
    ) -> None:
        self.app = app  # create_app(options): its edge is inside it
        self.model = model
        self.lesson = lesson
        self.options = options
        self._passed_on = Edge(self._pass_on, options)

    def compute_for(self, path: str) -> ComputeProcess:
        """The process that answers `path`."""
        return self.model if path.startswith(MODEL_ROUTES) else self.lesson

    @property
    def state(self) -> Any:
        """The front app's state (its options), as a FastAPI app's."""
        return getattr(self.app, "state", None)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            self.model.start()
            self.lesson.start()
            try:
                await self.app(scope, receive, send)
            finally:
                self.model.close()
                self.lesson.close()
            return
        path = scope.get("path", "")
        if scope["type"] == "http" and path.startswith("/api/") and path not in FRONT_ROUTES:
            await self._passed_on(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _pass_on(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = await read_body(receive, self.options.max_body_bytes)
        if body is None:  # a chunked body the edge could not refuse by its Content-Length
            refusal = {"error": too_long(self.options.max_body_bytes), "field": "body"}
            await JSONResponse(refusal, 413)(scope, receive, send)
            return
        try:
            status, headers, answer = await self._exchange(
                self.compute_for(scope["path"]), _Request.of(scope, body)
            )
        except (ComputeUnavailable, ConnectionError, asyncio.IncompleteReadError, ValueError):
            seconds = self.options.retry_after_seconds
            message = f"the computing process is starting again: try again in {seconds} s"
            busy = JSONResponse(
                {"error": message, "field": None}, 503, headers={"Retry-After": str(seconds)}
            )
            await busy(scope, receive, send)
            return
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": answer})

    async def _exchange(
        self, compute: ComputeProcess, request: _Request
    ) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        """Send `request` to `compute` and read its whole answer."""
        reader, writer = await compute.connect()
        try:
            head = [f"{request.method} ".encode() + request.target + b" HTTP/1.0"]
            head += [k + b": " + v for k, v in request.headers]
            head.append(b"content-length: " + str(len(request.body)).encode())
            writer.write(b"\r\n".join(head) + b"\r\n\r\n" + request.body)
            answer = await reader.read()  # HTTP/1.0: the answer ends where the connection does
        finally:
            writer.close()
        top, sep, body = answer.partition(b"\r\n\r\n")
        if not sep:
            raise ConnectionError("the computing process closed the connection mid-answer")
        status_line, *lines = top.split(b"\r\n")
        status = int(status_line.split()[1])
        headers = []
        for line in lines:
            name, _, value = line.partition(b":")
            if name.strip().lower() not in _ANSWER_HOP:
                headers.append((name.strip().lower(), value.strip()))
        return status, headers, body
