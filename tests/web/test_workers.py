"""The worker pool and the heavy gate: a cheap request completes while heavy ones are held, and
a heavy request beyond the slots and their queue answers 503 with Retry-After at once.

Deterministic: the heavy handler is held on a threading.Event the test controls, and the test
waits for the gate's own count rather than for a time.
"""

import threading

import pytest
from contract_check import ContractClient

from attnlab.web import lesson_routes
from attnlab.web.app import ServerOptions
from attnlab.web.workers import Busy, HeavyGate

WAIT = 60  # seconds: a bound on waiting for a thread, never a threshold that is asserted


def test_the_gate_lets_limit_run_queue_wait_and_refuses_one_more() -> None:
    gate = HeavyGate(limit=1, queue=1, retry_after=3)
    release, entered = threading.Event(), threading.Event()

    def hold() -> None:
        with gate.slot("cost"):
            entered.set()
            release.wait(WAIT)

    first, second = threading.Thread(target=hold), threading.Thread(target=hold)
    first.start()
    assert entered.wait(WAIT)
    entered.clear()
    second.start()  # waits for the slot: inside counts it
    while gate.inside < 2:
        threading.Event().wait(0.01)
    assert not entered.is_set()  # the second is queued, not running
    with pytest.raises(Busy, match="try again in 3 s") as busy, gate.slot("cost"):
        pass
    assert busy.value.retry_after == 3
    release.set()
    first.join(WAIT), second.join(WAIT)
    assert entered.is_set() and gate.inside == 0


def test_options_keep_a_thread_free_for_cheap_requests() -> None:
    with pytest.raises(ValueError, match="must exceed"):
        ServerOptions(workers=3, heavy_workers=2, heavy_queue=1)


_LIFESPAN = """
import json
from fastapi.testclient import TestClient
from threadpoolctl import threadpool_info
from attnlab.web.app import ServerOptions, create_app

def blas():
    return sorted({i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"})

before = blas()
with TestClient(create_app(ServerOptions(blas_threads=1)), base_url="http://127.0.0.1") as c:
    inside = blas()
    status = c.get("/api/presets").status_code
print(json.dumps([before, inside, status, blas()]))
"""


def test_the_server_runs_blas_on_its_option_s_threads_and_gives_them_back() -> None:
    """Each request is one BLAS thread while the app runs: BLAS's own threads on top of the
    workers gave a third of the throughput under benchmarks/load.py. In a fresh interpreter:
    the limit is the process's, and this one's live servers may still be computing."""
    import json
    import os
    import subprocess
    import sys

    env = {**os.environ, "OPENBLAS_NUM_THREADS": "2"}
    out = subprocess.run([sys.executable, "-c", _LIFESPAN], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    before, inside, status, after = json.loads(out.stdout)
    assert before == [2] and inside == [1] and status == 200
    assert after == before
    with pytest.raises(ValueError, match="blas_threads"):
        ServerOptions(blas_threads=0)


@pytest.fixture
def held(monkeypatch):
    """/api/cost held on an Event until the test releases it."""
    release, started = threading.Event(), threading.Semaphore(0)
    real = lesson_routes._cost

    def held_cost(params, workers):
        started.release()
        assert release.wait(WAIT)
        return real(params, workers)

    monkeypatch.setattr(lesson_routes, "_cost", held_cost)
    yield release, started
    release.set()


def test_a_cheap_request_completes_while_heavy_ones_are_held(held) -> None:
    release, started = held
    client = ContractClient(ServerOptions(workers=4, heavy_workers=1, heavy_queue=2))
    gate = client.app.state.workers.heavy
    answers = []
    heavy = [
        threading.Thread(target=lambda: answers.append(client.get("/api/cost?max_n=8")))
        for _ in range(3)
    ]
    for t in heavy:
        t.start()
    assert started.acquire(timeout=WAIT)  # one runs, held ...
    while gate.inside < 3:  # ... and two wait for its slot
        threading.Event().wait(0.01)
    # the routes sent from the loop and the routes run in the pool both answer meanwhile
    assert client.get("/api/presets").status_code == 200
    lesson = client.get("/api/lesson", params={"sentence": "at the savings bank"})
    assert lesson.status_code == 200 and lesson.json()["focus"] == 3
    assert answers == [] and not release.is_set()  # the heavy ones are still held
    busy = client.get("/api/cost?max_n=8")  # a fourth finds the slot and its queue full
    assert busy.status_code == 503 and busy.headers["retry-after"] == "2"
    assert busy.json() == {
        "error": "the server is busy with other cost requests: try again in 2 s",
        "field": None,
    }
    release.set()
    for t in heavy:
        t.join(WAIT)
    assert [a.status_code for a in answers] == [200, 200, 200]


def test_a_long_model_trace_takes_a_heavy_slot(held, minilm) -> None:
    release, started = held
    client = ContractClient(
        ServerOptions(workers=3, heavy_workers=1, heavy_queue=0, heavy_tokens=8)
    )
    thread = threading.Thread(target=lambda: client.get("/api/cost?max_n=8"))
    thread.start()
    assert started.acquire(timeout=WAIT)
    long = client.get(
        "/api/model/trace", params={"text": "the bank of the river was steep and wet"}
    )
    assert long.status_code == 503 and "long model trace" in long.json()["error"]
    short = client.get("/api/model/trace", params={"text": "the river bank"})
    assert short.status_code == 200  # 5 tokens with [CLS] and [SEP]: not heavy
    release.set()
    thread.join(WAIT)
    assert (
        client.get(
            "/api/model/trace", params={"text": "the bank of the river was steep and wet"}
        ).status_code
        == 200
    )


def test_options_keep_a_computing_turn_for_cheap_requests() -> None:
    with pytest.raises(ValueError, match="running"):
        ServerOptions(running=1, heavy_workers=1)  # the heavy one would take every turn
    with pytest.raises(ValueError, match="running"):
        ServerOptions(workers=6, running=7)
    with pytest.raises(ValueError, match="gc_young"):
        ServerOptions(gc_young=0)


_COLLECTOR = """
import gc, json
from fastapi.testclient import TestClient
from attnlab.web.app import ServerOptions, create_app
from attnlab.web.model_routes import cached_model

before = gc.get_threshold()
with TestClient(create_app(ServerOptions(gc_young=12345)), base_url="http://127.0.0.1") as c:
    inside = gc.get_threshold()
    frozen_before = gc.get_freeze_count()
    cached_model("minilm")
    frozen_after = gc.get_freeze_count()
print(json.dumps([before, inside, gc.get_threshold(), frozen_before, frozen_after]))
"""


def test_the_server_collects_garbage_less_often_and_freezes_a_loaded_model(minilm) -> None:
    """While the app runs, Python's youngest collection waits for gc_young allocations, and a
    model once loaded is out of the collector's reach; the old threshold comes back after. In a
    fresh interpreter: the threshold is the process's, shared with this one's live servers."""
    import json
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", _COLLECTOR], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    before, inside, after, frozen_before, frozen_after = json.loads(out.stdout)
    assert inside == [12345, *before[1:]] and after == before
    assert frozen_after > frozen_before  # the model's objects left the generations
