"""The app's executors, and how a handler hands its work to one of them.

`Executors` (one per app, in `app.state`) holds the toy lesson's process pool, the models'
worker and the measuring child (executors.py says what runs where) and the gate of the heavy
work (heavy.py), and the training worker (train_routes.py: one process of its own, so a run's
chunks never wait behind the lesson's pool). A handler awaits `on_toy`, `on_models` or
`on_measure` with a plain function and its request model; each waits for the answer or for
the client to go (executors.answered).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import CancelledError
from typing import Any, cast

from starlette.requests import Request
from starlette.responses import Response

from attnlab.models.threads import cores
from attnlab.web.apart import measuring_pool
from attnlab.web.executors import Closed, Pool, answered, reply
from attnlab.web.heavy import HeavyGate
from attnlab.web.model_service import Models
from attnlab.web.server_options import ServerOptions

__all__ = ["Executors", "executors_of", "on_measure", "on_models", "on_toy"]

TOY_NICENESS = 2
"""The toy lesson's workers run a little below the server, which answers the page's files."""


class Executors:
    """The workers of one app, each started on first use."""

    def __init__(self, options: ServerOptions, folders: tuple[str, ...] = ()) -> None:
        self.options = options
        toy = ("attnlab.web.lesson_routes", "attnlab.web.export_routes")
        self.toy = Pool(cores(), what="toy lesson", niceness=TOY_NICENESS, preload=toy)
        self.models = Models(options, folders)
        self.measure = measuring_pool()
        self.heavy = HeavyGate(options)
        self.train = Pool(
            1, what="training", niceness=TOY_NICENESS, preload=("attnlab.train.catalog",)
        )

    def start(self) -> None:
        """Start every worker now (the server's lifespan does, so that the first requests do
        not wait for a spawn and the server's memory is whole from the start)."""
        try:
            for pool in (self.toy, self.measure, self.train):
                for future in [pool.submit(int) for _ in range(pool.workers)]:
                    future.result()
            self.models.start()
        except (Closed, CancelledError):
            pass  # the app stopped before its workers were all up: nothing more to start

    def close(self) -> None:
        self.toy.close()
        self.train.close()
        self.models.close()
        self.measure.close()


def executors_of(request: Request) -> Executors:
    return cast(Executors, request.app.state.executors)  # create_app's, one per app


_executors = executors_of


async def on_toy(request: Request, fn: Callable[..., Response], *args: Any) -> Response:
    ex = _executors(request)
    future = ex.toy.submit(reply, fn, *args)
    return await answered(request, future, "toy lesson", ex.options.retry_after_seconds)


async def on_models(request: Request, fn: Callable[..., Response], *args: Any) -> Response:
    ex = _executors(request)
    future = ex.models.submit(fn, *args)
    return await answered(request, future, "model", ex.options.retry_after_seconds)


async def on_measure(request: Request, fn: Callable[..., Response], *args: Any) -> Response:
    """Heavy: counted by the gate (503 beyond its queue) while the child measures."""
    ex = _executors(request)
    with ex.heavy.admit("cost"):
        future = ex.measure.submit(reply, fn, *args)
        return await answered(request, future, "measuring", ex.options.retry_after_seconds)
