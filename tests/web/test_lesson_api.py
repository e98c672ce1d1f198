"""The lab's API: the lesson's new options, POSTed edits, sweep, shuffle and cost endpoints."""

import pytest
from starlette.testclient import TestClient

from attnlab.web.app import create_app


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def get(client: TestClient, path: str = "/api/lesson", **params) -> dict:
    r = client.get(path, params=params)
    assert r.status_code == 200, r.text
    return r.json()


def test_lesson_keeps_its_keys_and_adds_the_labs(client: TestClient) -> None:
    d = get(client)
    assert [round(w, 2) for w in d["weights"][3]] == [0.11, 0.07, 0.69, 0.14]
    for key in ("saturation", "readings", "positions", "heads", "causal", "shuffle", "edits"):
        assert key in d, key


def test_lesson_lab_options(client: TestClient) -> None:
    d = get(client, temperature="0.5", positions="rope", causal="1", heads="2", shuffle="4")
    assert d["divisor"] == 0.5 and d["causal"] and d["positions"]["kind"] == "rope"
    assert len(d["heads"]) == 2 and len(d["concat_outputs"][3]) == 8
    assert d["shuffle"]["seed"] == 4 and len(d["shuffle"]["rows"]) == 4
    assert all(row[j] == 0 for i, row in enumerate(d["weights"]) for j in range(i + 1, 4))


def test_lesson_edits_by_query(client: TestClient) -> None:
    r = client.get("/api/lesson", params=[("set", "river=0,1,0,0"), ("set_q", "bank=0,0,0,0")])
    d = r.json()
    assert r.status_code == 200 and d["embeddings"][2] == [0, 1, 0, 0]
    assert d["queries"][3] == [0, 0, 0, 0] and d["weights"][3] == [0.25] * 4
    assert d["edits"]["queries"] == {"bank": [0.0, 0.0, 0.0, 0.0]}


def test_post_lesson_with_edits(client: TestClient) -> None:
    body = {"sentence": "at the savings bank", "edits": {"embeddings": {"bank": [0, 0, 0, 1]}}}
    r = client.post("/api/lesson", json=body)
    assert r.status_code == 200 and r.json()["embeddings"][3] == [0, 0, 0, 1]
    assert r.json()["tokens"] == ["at", "the", "savings", "bank"]


@pytest.mark.parametrize(
    ("params", "field", "message"),
    [
        ({"temperature": "hot"}, "temperature", "must be a number"),
        ({"temperature": "0"}, "temperature", "positive and finite"),
        ({"temperature": "1", "mode": "uniform"}, "temperature", "needs mode 'scaled'"),
        ({"positions": "learned"}, "positions", "unknown positions 'learned'"),
        ({"causal": "maybe"}, "causal", "true or false"),
        ({"heads": "3"}, "heads", "between 1 and 2"),
        ({"shuffle": "-1"}, "shuffle", "between 0"),
        ({"set": "bank=1,x,0,0"}, "set", "dimension 1 (financial): 'x' is not a number"),
        ({"set_k": "bank=1,nan,0,0"}, "set_k", "the key of 'bank', dimension 1: 'nan' is NaN"),
        ({"set_v": "bank=1,0,0,101"}, "set_v", "'101' is beyond ±100"),
        ({"set": "money=1,0,0,0"}, "set", "not in the sentence"),
        ({"set": "bank"}, "set", "TOKEN=x,y,z,w"),
    ],
)
def test_bad_lab_input_is_a_400_naming_the_field(client, params, field, message) -> None:
    r = client.get("/api/lesson", params=params)
    assert r.status_code == 400, r.text
    assert r.json()["field"] == field and message in r.json()["error"]


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ([1, 2], "body", "JSON object"),
        ({"edits": {"queries": {"bank": [1, 2, 3]}}}, "set_q", "needs 4 numbers"),
        ({"edits": {"embeddings": {"bank": ["a", 0, 0, 0]}}}, "set", "'a' is not a number"),
        ({"temperature": -1}, "temperature", "got -1"),
        ({"mode": "softer"}, "mode", "unknown mode"),
    ],
)
def test_bad_post_is_a_400_naming_the_field(client, body, field, message) -> None:
    r = client.post("/api/lesson", json=body)
    assert r.status_code == 400, r.text
    assert r.json()["field"] == field and message in r.json()["error"]
    assert client.post("/api/lesson", content=b"{not json").status_code == 400


def test_sweep(client: TestClient) -> None:
    d = get(client, "/api/sweep", steps="5")
    assert d["temperatures"][0] == pytest.approx(0.1) and d["temperatures"][-1] == pytest.approx(10)
    assert len(d["weights"]) == 5 and d["marks"] == {"scaled": 2.0, "unscaled": 1.0}
    assert d["tokens"] == ["by", "the", "river", "bank"] and d["focus"] == 3
    assert d["jacobian_frobenius"][0] < d["jacobian_frobenius"][-1]
    assert (
        client.get("/api/sweep", params={"t_min": "5", "t_max": "1"}).json()["field"]
        == "temperature"
    )


def test_shuffle_every_kind(client: TestClient) -> None:
    d = get(client, "/api/shuffle", seed="2")
    assert d["kinds"] == ["none", "sinusoidal", "rope"]
    assert d["none"]["all_unchanged"] and not d["rope"]["all_unchanged"]
    assert d["sinusoidal"]["max_distance"] > 0.01


def test_cost(client: TestClient) -> None:
    d = get(client, "/api/cost", max_n="256", per_octave="1")
    assert [p["n"] for p in d["points"]] == [4, 8, 16, 32, 64, 128, 256] and d["d"] == 64
    assert d["fit"]["memory"]["c"] > 0
    r = client.get("/api/cost", params={"max_n": "100000"})
    assert r.status_code == 400 and r.json()["field"] == "max_n"


def test_lab_choices(client: TestClient) -> None:
    d = get(client, "/api/lab")
    assert d["positions"] == ["none", "sinusoidal", "rope"] and d["heads"] == [1, 2]
    assert d["temperature"]["min"] == 0.1 and d["edit_limit"] == 100
