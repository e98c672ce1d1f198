"""`attnlab serve`'s three processes (web/front.py), live: the front answers the page and the
fixed routes itself, passes every other API request whole to the model or the lesson process,
keeps answering while they are stopped, and starts a new one when one has died.

Deterministic: the compute process is stopped with SIGSTOP, so a request passed on cannot be
answered until SIGCONT; bounded waits only stop a test that would otherwise hang.
"""

import json
import os
import signal
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient

from attnlab.web.app import ServerOptions, create_app, serving_app, uvicorn_config
from attnlab.web.edge import SECURITY_HEADERS
from attnlab.web.front import NICENESS, Front

WAIT = 120  # seconds: a bound on a wait, never a threshold that is asserted


@contextmanager
def _live() -> Iterator[tuple[httpx.Client, Front]]:
    """A live `serving_app` on 127.0.0.1 (its compute process started by the lifespan), and
    a client of it; the server is stopped after."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    app = serving_app(ServerOptions())
    server = uvicorn.Server(uvicorn_config(app))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    base = f"http://127.0.0.1:{sock.getsockname()[1]}"
    try:
        with httpx.Client(base_url=base, timeout=WAIT) as client:
            assert client.get("/api/lesson").status_code == 200  # the compute process is up
            yield client, app
    finally:
        server.should_exit = True
        thread.join(WAIT)


@pytest.fixture(scope="module")
def front():
    with _live() as live:
        yield live


def test_a_passed_on_answer_is_the_app_s_own(front) -> None:
    client, _ = front
    params = {"sentence": "at the savings bank", "mode": "uniform"}
    with TestClient(create_app(), base_url="http://127.0.0.1") as one:
        direct = one.get("/api/lesson", params=params)
    passed = client.get("/api/lesson", params=params)
    assert passed.status_code == direct.status_code == 200
    assert passed.json() == direct.json()
    for name, value in SECURITY_HEADERS.items():  # once each, from the front's edge
        assert passed.headers.get_list(name) == [value]
    assert len(passed.headers.get_list("server")) <= 1 and len(passed.headers.get_list("date")) == 1


def test_a_post_body_is_passed_on_and_the_front_s_edge_refuses_first(front) -> None:
    client, _ = front
    body = {"sentence": "by the river bank", "edits": {"embeddings": {"bank": [1, 0, 0, 1]}}}
    answer = client.post("/api/lesson", json=body)
    assert answer.status_code == 200 and answer.json()["focus"] == 3
    plain = client.post(
        "/api/lesson", content=json.dumps(body), headers={"content-type": "text/plain"}
    )
    assert plain.status_code == 415 and plain.json()["field"] == "body"
    evil = client.get("/api/lesson", headers={"host": "evil.example"})
    assert evil.status_code == 400 and evil.json()["field"] == "Host"

    def chunks():  # no Content-Length: the limit is counted as the body arrives
        for _ in range(80):
            yield b" " * 1024

    big = client.post("/api/lesson", content=chunks(), headers={"content-type": "application/json"})
    assert big.status_code == 413 and big.json()["field"] == "body"


def test_a_long_body_on_a_get_is_refused_before_it_is_passed_on(front) -> None:
    """The edge reads the body of a POST only; the front counts any other request's body as
    it arrives, so a chunked GET cannot carry megabytes to a compute process. The lesson process
    is stopped meanwhile: the 413 can only be the front's (a request passed on would wait, and
    the 10 s bound would end the test as a failure)."""
    client, app = front

    def chunks():
        for _ in range(80):
            yield b" " * 1024

    pid = app.lesson.pid
    os.kill(pid, signal.SIGSTOP)
    try:
        big = client.request("GET", "/api/lesson", content=chunks(), timeout=10)
    finally:
        os.kill(pid, signal.SIGCONT)
    assert big.status_code == 413 and big.json()["field"] == "body"
    assert client.get("/api/lesson").status_code == 200  # and the next request is served


def test_the_front_answers_while_the_compute_process_is_stopped(front) -> None:
    """The point of the split: /api/presets never waits for computation. Stopped, the model
    process answers nothing; the front still answers the fixed routes and the page, and the
    lesson process the toy lesson."""
    client, app = front
    pid = app.model.pid
    answers: list[httpx.Response] = []
    os.kill(pid, signal.SIGSTOP)
    try:
        asked = threading.Thread(target=lambda: answers.append(client.get("/api/model/info")))
        asked.start()
        assert client.get("/api/presets").status_code == 200
        assert client.get("/api/lab").status_code == 200
        assert client.get("/").status_code == 200
        assert client.get("/api/sweep").status_code == 200
        assert answers == []  # the passed-on request waits for the stopped process
    finally:
        os.kill(pid, signal.SIGCONT)
    asked.join(WAIT)
    assert [a.status_code for a in answers] == [200]


def test_the_compute_processes_yield_the_cpu_to_the_front(front) -> None:
    """When the front and a computation want the same core, the front's short answer comes
    first: under benchmarks/load.py /api/presets p99 was 37 ms without this, 12 ms with it."""
    _, app = front
    own = os.getpriority(os.PRIO_PROCESS, 0)
    for pid in (app.model.pid, app.lesson.pid):
        assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, own + NICENESS)


def test_each_route_goes_to_its_process(front) -> None:
    _, app = front
    assert app.compute_for("/api/model/trace") is app.model
    assert app.compute_for("/api/export/model.html") is app.model
    assert app.compute_for("/api/export/lesson.html") is app.lesson
    assert app.compute_for("/api/cost") is app.lesson


def test_a_compute_process_that_died_is_started_again(front) -> None:
    client, app = front
    old = app.lesson.pid
    os.kill(old, signal.SIGKILL)
    deadline = time.monotonic() + WAIT
    while app.lesson.alive() and time.monotonic() < deadline:
        time.sleep(0.02)
    answer = client.get("/api/lesson")  # waits while a new one starts
    assert answer.status_code == 200 and app.lesson.pid not in (None, old)


def test_the_compute_processes_end_with_the_front() -> None:
    with _live() as (client, app):
        assert client.get("/api/shuffle").status_code == 200
        pids = app.model.pid, app.lesson.pid
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)  # gone (joined, so not even a zombie)
