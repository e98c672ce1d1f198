"""The Train view's routes (web/train_routes.py) against the core: the server's chunks carry
the numbers train/ computes, bit for bit however the run is cut; Stop frees the worker at once;
bad input answers the one error shape."""

import threading
import time

import pytest
from contract_check import ContractClient

from attnlab.encode.train_json import CHUNK_LIMIT
from attnlab.train.catalog import advance, begin, start
from attnlab.web.train_routes import TrainJobs


@pytest.fixture(scope="module")
def live() -> ContractClient:
    c = ContractClient()
    with c.http:  # the lifespan: the workers start, and stop after the module
        yield c


def _run(client, experiment: str, steps: int, seed: int, counts: list[int]):
    job = client.post(
        "/api/train/start", json={"experiment": experiment, "steps": steps, "seed": seed}
    ).json()["job"]
    points, checkpoints, i, last = [], [], 0, None
    while True:
        r = client.post("/api/train/next", json={"job": job, "count": counts[i % len(counts)]})
        assert r.status_code == 200, r.text
        last = r.json()
        points += last["points"]
        checkpoints += last["checkpoints"]
        i += 1
        if last["done"]:
            return job, points, checkpoints, last


def test_chunks_from_the_server_equal_the_core_in_one_go(live) -> None:
    _, points, checkpoints, last = _run(live, "lookup", 23, 4, [3, 7, 1])
    whole = list(start("lookup", steps=23, seed=4))
    assert [p["step"] for p in points] == list(range(24))
    for p, s in zip(points, whole, strict=True):
        assert p["values"] == dict(s.values)  # JSON's shortest float repr reads back exactly
    saved = [s for s in whole if s.checkpoint is not None]
    assert [c["step"] for c in checkpoints] == [s.step for s in saved]
    for c, s in zip(checkpoints, saved, strict=True):
        assert [m["weights"] for m in c["maps"]] == [m.weights.tolist() for m in s.checkpoint.maps]
        assert all(m["row"] == 3 and m["tokens"][3] == "bank" for m in c["maps"])
    assert last["next_step"] == 24 and last["summary"][0].startswith("Scaled: bank's weight")


def test_the_same_seed_gives_the_same_curve_cut_differently(live) -> None:
    _, a, _, _ = _run(live, "sqrt-dk", 12, 9, [5])
    _, b, _, _ = _run(live, "sqrt-dk", 12, 9, [1, 2])
    assert a == b
    _, c, _, _ = _run(live, "sqrt-dk", 12, 10, [5])
    assert a != c


def test_the_phase_line_quotes_the_numbers_of_the_step(live) -> None:
    job = live.post("/api/train/start", json={"experiment": "lookup", "steps": 10}).json()["job"]
    d = live.post("/api/train/next", json={"job": job, "count": 1}).json()
    _, steps = advance(begin("lookup", steps=10), 1)  # the core's step 0, computed here
    w = steps[0].values["scaled.weight_river"]
    assert (
        d["phase"].startswith("Step 0, before any update") and f"{w:.2f}".rstrip("0") in d["phase"]
    )


def test_stop_frees_the_worker_for_the_next_run_at_once(live) -> None:
    """A long induction run's chunk is in the worker when Stop comes: Stop answers at once, the
    chunk's answer is dropped, and another run's chunk is answered right after it."""
    slow = live.post("/api/train/start", json={"experiment": "induction", "steps": 3000}).json()[
        "job"
    ]
    live.post("/api/train/next", json={"job": slow, "count": 1})  # the worker is warm
    answers = {}
    t = threading.Thread(
        target=lambda: answers.setdefault(
            "slow", live.post("/api/train/next", json={"job": slow, "count": CHUNK_LIMIT})
        )
    )
    t.start()
    time.sleep(0.3)  # the chunk is being computed
    began = time.monotonic()
    stopped = live.post("/api/train/stop", json={"job": slow})
    assert stopped.status_code == 200 and stopped.json()["stopped"] is True
    assert time.monotonic() - began < 0.5  # Stop itself never waits for the worker
    quick = live.post("/api/train/start", json={"experiment": "lookup", "steps": 5}).json()["job"]
    r = live.post("/api/train/next", json={"job": quick, "count": 5})
    waited = time.monotonic() - began
    t.join()
    assert r.status_code == 200 and len(r.json()["points"]) == 5
    # at most the one chunk in flight (20 induction steps) stood between Stop and this answer,
    # not the 2,980 steps the stopped run had left
    assert waited < 15, waited
    dropped = answers["slow"]
    assert dropped.status_code == 400 and dropped.json()["field"] == "job"
    again = live.post("/api/train/next", json={"job": slow, "count": 1})
    assert again.status_code == 400 and "no run named" in again.json()["error"]


@pytest.mark.parametrize(
    ("route", "body", "field"),
    [
        ("start", {"experiment": "lookups"}, "experiment"),
        ("start", {"experiment": "lookup", "steps": 0}, "steps"),
        ("start", {"experiment": "lookup", "steps": -5}, "steps"),
        ("start", {"experiment": "lookup", "steps": 2001}, "steps"),  # lookup's own largest
        ("start", {"experiment": "lookup", "steps": 10**9}, "steps"),
        ("start", {"experiment": "lookup", "seed": 2.5}, "seed"),
        ("start", {"experiment": "lookup", "seed": "three"}, "seed"),
        ("start", {"experiment": "lookup", "speed": 3}, "speed"),
        ("next", {"job": "nope"}, "job"),
        ("next", {"job": "nope", "count": CHUNK_LIMIT + 1}, "count"),
        ("stop", {"job": ""}, "job"),
    ],
)
def test_bad_input_gets_the_one_error_shape(live, route, body, field) -> None:
    r = live.post(f"/api/train/{route}", json=body)
    assert r.status_code == 400 and set(r.json()) == {"error", "field"}
    assert r.json()["field"] == field, r.json()


def test_the_catalog_names_every_experiment_and_its_words(live) -> None:
    d = live.get("/api/train").json()
    assert [e["name"] for e in d["experiments"]] == ["lookup", "sqrt-dk", "induction"]
    assert d["max_count"] == CHUNK_LIMIT and max(d["speeds"]) <= CHUNK_LIMIT
    assert d["labels"]["play"] == "Play"


def test_the_jobs_keep_at_most_their_limit_and_forget_the_oldest() -> None:
    jobs = TrainJobs(limit=2)
    names = [jobs.add(begin("lookup", steps=1)) for _ in range(3)]
    with pytest.raises(Exception, match="no run named"):
        jobs.take(names[0])
    entry = jobs.take(names[1])
    with pytest.raises(Exception, match="computing a chunk already"):
        jobs.take(names[1])
    jobs.release(entry)
    assert jobs.take(names[2]).run.steps == 1


def test_a_dead_worker_answers_503_and_the_run_goes_on_from_where_it_was(live) -> None:
    """The run's state lives in the server, so a new worker takes it from the same step."""
    import os
    import signal

    job = live.post("/api/train/start", json={"experiment": "lookup", "steps": 30}).json()["job"]
    first = live.post("/api/train/next", json={"job": job, "count": 4}).json()
    pool = live.app.state.executors.train
    os.kill(pool.submit(os.getpid).result(timeout=30), signal.SIGKILL)
    answers = [live.post("/api/train/next", json={"job": job, "count": 4}) for _ in range(3)]
    codes = [a.status_code for a in answers]
    assert codes[-1] == 200 and set(codes) <= {200, 503}, codes
    gone = [a for a in answers if a.status_code == 503]
    assert all(
        a.headers["Retry-After"] and "training process stopped" in a.json()["error"] for a in gone
    )
    steps = [p["step"] for a in answers if a.status_code == 200 for p in a.json()["points"]]
    assert steps[:4] == [4, 5, 6, 7]  # no step lost or repeated
    whole = list(start("lookup", steps=30, seed=0))
    ok = next(a for a in answers if a.status_code == 200).json()
    assert ok["points"][0]["values"] == dict(whole[4].values)
    assert first["next_step"] == 4
