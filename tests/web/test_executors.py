"""The server's executors, live: heavy work is shed beyond its queue while cheap routes answer,
a worker killed mid-request answers 503 with Retry-After and is replaced, and a request whose
client has gone stops waiting.

Deterministic: a held handler runs in a worker process until the test creates a file (a signal
that crosses processes), and says it started by writing its pid.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
import time
from collections.abc import Coroutine
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
from contract_check import ContractClient
from starlette.responses import Response

from attnlab.web import lesson_routes, model_routes
from attnlab.web.app import ServerOptions
from attnlab.web.executors import answered, reply
from attnlab.web.heavy import Busy
from attnlab.web.requests_model import ModelTraceQuery

WAIT = 60  # seconds: a bound on waiting, never a threshold that is asserted


def _held(real):
    """A handler that writes its pid to $HELD/started, waits for $HELD/release, then runs."""

    def held(params):
        folder = Path(os.environ["ATTNLAB_TEST_HELD"])
        (folder / f"pid-{os.getpid()}").write_text(str(os.getpid()))
        (folder / f"pid-{os.getpid()}").rename(folder / f"started-{os.getpid()}")  # whole, at once
        deadline = time.monotonic() + WAIT
        while not (folder / "release").exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        return real(params)

    return held


held_cost = _held(lesson_routes._cost)
held_sweep = _held(lesson_routes._sweep)
held_cost.__qualname__, held_sweep.__qualname__ = "held_cost", "held_sweep"  # picklable by name


def _started(folder: Path, count: int) -> list[int]:
    deadline = time.monotonic() + WAIT
    while len(found := sorted(folder.glob("started-*"))) < count:
        assert time.monotonic() < deadline, f"{len(found)} of {count} held handlers started"
        time.sleep(0.01)
    return [int(p.read_text()) for p in found]


@pytest.fixture
def held(monkeypatch, tmp_path):
    monkeypatch.setenv("ATTNLAB_TEST_HELD", str(tmp_path))  # the workers spawned next read it
    monkeypatch.setattr(lesson_routes, "_cost", held_cost)
    monkeypatch.setattr(lesson_routes, "_sweep", held_sweep)
    yield tmp_path
    (tmp_path / "release").touch()


def test_a_cheap_request_completes_while_heavy_ones_are_held(held) -> None:
    client = ContractClient(ServerOptions(heavy_workers=1, heavy_queue=2))
    gate = client.app.state.executors.heavy
    answers = []
    heavy = [
        threading.Thread(target=lambda: answers.append(client.get("/api/cost?max_n=8")))
        for _ in range(3)
    ]
    for t in heavy:
        t.start()
    _started(held, 1)  # one measures, held, in the measuring child ...
    while gate.inside < 3:  # ... and two wait behind it
        threading.Event().wait(0.01)
    assert client.get("/api/presets").status_code == 200
    lesson = client.get("/api/lesson", params={"sentence": "at the savings bank"})
    assert lesson.status_code == 200 and lesson.json()["focus"] == 3
    assert client.get("/api/shuffle").status_code == 200  # the toy pool answers meanwhile
    assert answers == []  # the heavy ones are still held
    busy = client.get("/api/cost?max_n=8")  # a fourth finds the slot and its queue full
    assert busy.status_code == 503 and busy.headers["retry-after"] == "2"
    assert busy.json() == {
        "error": "the server is busy with other cost requests: try again in 2 s",
        "field": None,
    }
    (held / "release").touch()
    for t in heavy:
        t.join(WAIT)
    assert [a.status_code for a in answers] == [200, 200, 200]


def test_a_toy_worker_killed_mid_request_is_a_503_and_is_replaced(held, caplog) -> None:
    """Bug: the 503 quoted the executor's internals ("BrokenProcessPool: A process in the
    process pool was terminated abruptly") and the server logged nothing."""
    caplog.set_level(logging.WARNING, logger="uvicorn.error")
    client = ContractClient()
    answers = []
    thread = threading.Thread(target=lambda: answers.append(client.get("/api/sweep")))
    thread.start()
    [pid] = _started(held, 1)
    os.kill(pid, signal.SIGKILL)
    thread.join(WAIT)
    [r] = answers
    assert r.status_code == 503 and r.headers["retry-after"] == "2"
    assert r.json() == {
        "error": "the toy lesson process stopped and is being restarted: try again in 2 s",
        "field": None,
    }
    [line] = [r.getMessage() for r in caplog.records if r.name == "uvicorn.error"]
    assert line.startswith("the toy lesson worker process stopped (BrokenProcessPool"), line
    (held / "release").touch()
    assert client.get("/api/sweep").status_code == 200  # a new pool
    assert client.get("/api/lesson").status_code == 200  # and everyone else was served


def test_the_models_worker_killed_is_a_503_and_is_replaced(minilm, caplog) -> None:
    """Bug: the 503 said "(WorkerGone: BrokenPipeError: [Errno 32] Broken pipe)" to a learner,
    and the server logged nothing when the worker died."""
    caplog.set_level(logging.WARNING, logger="uvicorn.error")
    client = ContractClient()
    assert client.get("/api/model/info").status_code == 200
    models = client.app.state.executors.models
    pid = models.start().pid()
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + WAIT
    while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
        time.sleep(0.01)  # reaped by multiprocessing's own join
        if Path(f"/proc/{pid}/stat").exists() and " Z " in Path(f"/proc/{pid}/stat").read_text():
            break
    r = client.get("/api/model/trace", params={"text": "by the river bank"})
    assert r.status_code == 503 and r.headers["retry-after"] == "2", r.text
    assert r.json() == {
        "error": "the model process stopped and is being restarted: try again in 2 s",
        "field": None,
    }
    [line] = [r.getMessage() for r in caplog.records if r.name == "uvicorn.error"]
    assert line.startswith(f"the model worker process (pid {pid}) stopped ("), line
    assert client.get("/api/presets").status_code == 200
    again = client.get("/api/model/trace", params={"text": "by the river bank"})
    assert again.status_code == 200 and models.start().pid() != pid


R = TypeVar("R")


def _run(coro: Coroutine[Any, Any, R]) -> R:
    """`asyncio.run` on a thread of its own: in the full suite the browser tests' Playwright keeps
    an event loop running on the main thread, where asyncio.run refuses to start another."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


class _Gone:
    """A Starlette request whose client has already gone."""

    async def receive(self) -> dict[str, str]:
        return {"type": "http.disconnect"}


def test_a_request_whose_client_has_gone_stops_waiting_and_cancels_its_work() -> None:
    """Bug: a client that left did not stop the work; its request was computed all the same."""
    waiting: Future[Response] = Future()  # queued, not started: no worker has taken it
    response = _run(answered(_Gone(), waiting, "toy lesson", 2))  # type: ignore[arg-type]
    assert response.status_code == 499 and waiting.cancelled()


def test_a_gone_client_s_request_through_the_app_does_not_wait_for_the_worker() -> None:
    """Through the whole app: /api/model/info of a fresh app, whose models' worker takes
    seconds to start, returns as soon as the client has gone."""
    client = ContractClient()
    sent: list[dict[str, object]] = []
    scope = {
        "type": "http", "method": "GET", "path": "/api/model/info", "raw_path": b"/api/model/info",
        "query_string": b"", "headers": [(b"host", b"127.0.0.1")], "http_version": "1.1",
        "scheme": "http", "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 1), "root_path": "",
    }  # fmt: skip

    async def gone() -> dict[str, object]:
        return {"type": "http.disconnect"}

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    _run(client.app(scope, gone, send))
    assert sent[0]["status"] == 499  # not the model's answer: nobody waited for it


def test_a_long_model_trace_takes_a_heavy_slot_in_the_models_worker(minilm) -> None:
    """What the models' worker runs: a long text's pass takes a heavy slot, and with every slot
    taken it is refused (503 with Retry-After) while a short one is answered."""
    model_routes.configure(ServerOptions(heavy_workers=1, heavy_queue=0, heavy_tokens=8))
    try:
        with model_routes._gate.slot("held"):
            long = reply(
                model_routes._trace_answer,
                ModelTraceQuery(text="the bank of the river was steep and wet"),
            )
            short = reply(model_routes._trace_answer, ModelTraceQuery(text="the river bank"))
        assert long.status_code == 503 and long.headers["retry-after"] == "2"
        assert b"long model trace" in long.body
        assert short.status_code == 200  # 5 tokens with [CLS] and [SEP]: not heavy
        with pytest.raises(Busy), model_routes._gate.admit("one more"):
            with model_routes._gate.admit("and another"):
                pass
    finally:
        model_routes.configure(ServerOptions())
