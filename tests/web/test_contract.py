"""The declared contract: /openapi.json lists every route, and each route's 200 and 400 bodies
validate against it (the `client` fixture checks every answer; these tests make sure each route
is asked at least once both ways, and that the check and the declared models bite)."""

import httpx
import pytest
from contract_check import check_response
from fastapi.routing import APIRoute

from attnlab.encode import lesson_json
from attnlab.web import lesson_routes
from attnlab.web.app import create_app
from attnlab.web.executors import reply
from attnlab.web.requests_lesson import LessonQuery

GOOD_AND_BAD = [
    ("get", "/api/presets", {}, {"x": "1"}),
    ("get", "/api/lesson", {"heads": "2", "positions": "rope", "shuffle": "1", "causal": "1"},
     {"mode": "softer"}),
    ("get", "/api/lesson", {"axis": "queries", "set_q": "bank=0,0,0,0"}, {"set": "bank"}),
    ("get", "/api/lesson", {"mode": "uniform", "temperature": ""}, {"temperature": "0"}),
    ("post", "/api/lesson", {"edits": {"embeddings": {"bank": [1, 0, 0, 1]}}, "heads": 2},
     {"edits": {"values": {"bank": [1, 2]}}}),
    ("get", "/api/sweep", {"steps": "4", "causal": "1"}, {"steps": "1"}),
    ("get", "/api/shuffle", {"seed": "3", "causal": "1"}, {"seed": "-3"}),
    ("get", "/api/cost", {"max_n": "32", "per_octave": "1"}, {"d": "0"}),
    ("get", "/api/lab", {}, {"heads": "1"}),
    ("get", "/api/cheaper", {"focus": "bank", "tile": "1"}, {"tile": "0"}),
    ("get", "/api/cheaper", {"mode": "uniform", "axis": "queries", "tile": "4"}, {"tile": "13"}),
    ("get", "/api/cheaper/models", {}, {"model": "minilm"}),
    ("get", "/api/cheaper/kv", {"model": "smollm2"}, {"model": "minilm"}),
    ("get", "/api/model/info", {}, {"model": "gpt5"}),
    ("get", "/api/model/trace", {"text": "at the savings bank", "grid": "full", "mode": "uniform"},
     {"layer": "-1"}),
    ("get", "/api/model/trace", {"text": "a b", "grid": "none", "axis": "queries"},
     {"grid": "all"}),
    ("get", "/api/model/matrix", {"text": "a b c", "pool": "mean", "specials": "renormalise"},
     {"pool": "median"}),
    ("get", "/api/model/row", {"text": "a b c", "row": "2", "head": "4"}, {"row": "99"}),
    ("get", "/api/model/compare", {"word": "current", "a": "the river current", "b": "a current"},
     {"word": "fish"}),
    ("get", "/api/model/compare", {"a": "the bank by the bank", "occurrence_a": "2"},
     {"a": "the bank by the bank", "occurrence_a": "3"}),
    ("get", "/api/model/heads", {"text": "a riverbank", "layer": "5"}, {"layer": "6"}),
    ("get", "/api/model/mask", {"text": "by the river bank", "focus": "bank", "mask": "river"},
     {"mask": "bank", "focus": "bank"}),
    ("get", "/api/model/mask", {"how": "drop", "mask": "the"}, {"how": "hide"}),
    ("get", "/api/export/lesson.html", {"focus": "river", "beat": "5", "heads": "2"},
     {"beat": "6"}),
    ("get", "/api/export/model.html", {"text": "a b", "layer": "1", "beat": "2"}, {"head": "12"}),
    ("get", "/api/train", {}, {"experiment": "lookup"}),
    ("post", "/api/train/start", {"experiment": "lookup", "steps": 3, "seed": 1},
     {"experiment": "lookup", "steps": 0}),
    ("get", "/api/atlas", {"name": "patterns-atlas"}, {"name": "no-such-atlas"}),
    ("get", "/api/atlas/names", {}, {"x": "1"}),
]  # fmt: skip


def test_the_train_run_routes_answer_200_and_400_as_declared(client) -> None:
    """/api/train/next and /stop need a run that exists: one is started for them."""
    before = client.checked
    job = client.post("/api/train/start", json={"experiment": "sqrt-dk", "steps": 2}).json()["job"]
    assert client.post("/api/train/next", json={"job": job, "count": 3}).status_code == 200
    assert client.post("/api/train/next", json={"job": job, "count": 0}).status_code == 400
    assert client.post("/api/train/stop", json={"job": job}).status_code == 200
    r = client.post("/api/train/stop", json={"job": job})  # gone already
    assert r.status_code == 400 and set(r.json()) == {"error", "field"}
    assert client.checked == before + 5


def _ask(client, method, path, params):
    if method == "post":
        return client.post(path, json=params)
    return client.get(path, params=params)


@pytest.mark.parametrize(("method", "path", "good", "bad"), GOOD_AND_BAD)
def test_each_route_answers_200_and_400_as_declared(client, minilm, method, path, good, bad):
    before = client.checked
    assert _ask(client, method, path, good).status_code == 200
    r = _ask(client, method, path, bad)
    assert r.status_code == 400 and set(r.json()) == {"error", "field"}
    assert client.checked == before + 2  # both answers went through the schema check


def _routes(routes, api, others):
    """Split `routes` into API routes and the rest, through included routers."""
    for r in routes:
        if isinstance(r, APIRoute):
            api.append(r)
        elif hasattr(r, "original_router"):  # FastAPI keeps an included router whole
            _routes(r.original_router.routes, api, others)
        else:
            others.append(r)
    return api, others


def test_every_route_is_in_the_schema_and_nothing_else(client) -> None:
    api, others = _routes(create_app().routes, [], [])
    declared = {(path, m) for path, ops in client.doc["paths"].items() for m in ops}
    served = {(r.path_format, m.lower()) for r in api for m in r.methods}
    assert served == declared
    assert [r.path for r in others] == ["/openapi.json"]  # no mount, no docs page
    assert {p for p, _ in declared} == {
        "/", "/static/{name}", "/api/presets", "/api/lesson", "/api/sweep", "/api/shuffle",
        "/api/cost", "/api/lab", "/api/cheaper", "/api/cheaper/price", "/api/model/info",
        "/api/cheaper/models", "/api/cheaper/kv",
        "/api/model/trace", "/api/model/compare",
        "/api/model/heads", "/api/model/mask",
        "/api/model/matrix", "/api/model/row", "/api/export/lesson.html", "/api/export/model.html",
        "/api/train", "/api/train/start", "/api/train/next", "/api/train/stop",
        "/api/atlas", "/api/atlas/names",
    }  # fmt: skip


def test_the_schema_declares_the_error_shape_and_no_422(client) -> None:
    for path, ops in client.doc["paths"].items():
        for method, op in ops.items():
            assert "422" not in op["responses"], (method, path)
            if path.startswith("/api/"):
                ref = op["responses"]["400"]["content"]["application/json"]["schema"]["$ref"]
                assert ref == "#/components/schemas/ErrorAnswer"


def test_query_parameters_are_declared_with_their_kinds(client) -> None:
    params = {p["name"]: p for p in client.doc["paths"]["/api/lesson"]["get"]["parameters"]}
    assert list(params)[:3] == ["sentence", "focus", "mode"]
    assert {"set", "set_q", "set_k", "set_v", "temperature", "heads", "shuffle"} <= set(params)
    assert params["set"]["schema"]["type"] == "array"
    heads = params["heads"]["schema"]
    assert (heads["minimum"], heads["maximum"], heads["default"]) == (1, 2, 1)
    sweep = {p["name"] for p in client.doc["paths"]["/api/sweep"]["get"]["parameters"]}
    assert {"t_min", "t_max", "steps", "head"} <= sweep


def test_non_finite_numbers_are_declared_as_names(client) -> None:
    d = client.get("/api/lesson", params={"mode": "uniform", "causal": "1"}).json()
    assert d["divisor"] == "inf" and d["scores"][0][1] == "-inf"
    number = client.doc["components"]["schemas"]["LessonAnswer"]["properties"]["divisor"]
    assert {"enum": ["inf", "-inf", "nan"], "type": "string"} in number["anyOf"]


def test_the_check_catches_a_body_that_breaks_the_schema(client) -> None:
    good = client.http.get("/api/lab")
    body = {**good.json(), "heads": "two"}
    bad = httpx.Response(200, json=body, request=good.request)
    with pytest.raises(AssertionError, match="heads"):
        check_response(client.doc, bad)
    missing = httpx.Response(200, json={"error": "x", "field": None}, request=good.request)
    with pytest.raises(AssertionError, match="required"):
        check_response(client.doc, missing)


def test_an_encoder_that_drifts_cannot_send(monkeypatch) -> None:
    """A key the contract does not declare is an error where the answer is built, not silently
    dropped or sent: as the lesson's worker runs the route (executors.reply), in this process so
    the patch holds."""
    encode = lesson_json.encode_explanation
    monkeypatch.setattr(lesson_json, "encode_explanation", lambda ex: {**encode(ex), "new": 1})
    r = reply(lesson_routes._explain, LessonQuery())
    assert r.status_code == 500 and b"new" in r.body
    monkeypatch.setattr(lesson_json, "encode_explanation", lambda ex: {**encode(ex), "focus": "x"})
    assert reply(lesson_routes._explain, LessonQuery()).status_code == 500


def test_the_schema_loads_nothing_from_elsewhere(client) -> None:
    text = client.http.get("/openapi.json").text
    assert "http://" not in text and "https://" not in text
