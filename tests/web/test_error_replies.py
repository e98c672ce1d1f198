"""Every refusal answers {"error": message, "field": name} (error_replies.py); an unexpected
failure answers 500 JSON and the server keeps serving."""

import json

import pytest
from contract_check import ContractClient

from attnlab import lesson
from attnlab.web import lesson_routes
from attnlab.web.executors import reply
from attnlab.web.requests_lesson import LessonQuery


def test_a_body_that_is_not_json_or_not_an_object(client) -> None:
    r = client.post(
        "/api/lesson", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert r.status_code == 400 and r.json()["field"] == "body"
    assert r.json()["error"].startswith("the body is not valid JSON")
    r = client.post("/api/lesson", json="by the river bank")
    assert r.json() == {
        "error": "the body must be a JSON object, got 'by the river bank'",
        "field": "body",
    }


def test_a_value_of_several_kinds_names_them_all(client) -> None:
    r = client.post("/api/lesson", json={"focus": [1]})
    assert r.json() == {"error": "focus must be a whole number or text, got [1]", "field": "focus"}


def test_a_body_of_the_wrong_types(client) -> None:
    r = client.post("/api/lesson", json={"sentence": 5})
    assert r.json() == {"error": "sentence must be text, got 5", "field": "sentence"}
    r = client.post("/api/lesson", json={"edits": {"keys": {"bank": [1, 0, 0, "inf"]}}})
    assert r.status_code == 400 and r.json()["field"] == "set_k"


def test_no_such_route_or_method_in_the_same_shape(client) -> None:
    r = client.get("/api/nothing")
    assert r.status_code == 404 and r.json() == {"error": "Not Found", "field": None}
    r = client.post("/api/sweep", json={})
    assert r.status_code == 405 and r.json()["field"] is None
    assert client.get("/static/../pyproject.toml").status_code == 404


def test_an_unexpected_failure_is_a_500_in_words_and_the_server_serves_on(monkeypatch) -> None:
    """In the server's own process (the presets) and in a worker (executors.reply, which the
    lesson's pool runs), the same words."""
    quiet = ContractClient(raise_server_exceptions=False)

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(lesson_routes, "_presets", broken)
    r = quiet.get("/api/presets")
    assert r.status_code == 500
    assert r.json() == {"error": "internal error: ZeroDivisionError: a bug", "field": None}
    monkeypatch.setattr(lesson, "explain_lesson", broken)
    answer = reply(lesson_routes._explain, LessonQuery())
    assert answer.status_code == 500
    assert json.loads(answer.body) == {
        "error": "internal error: ZeroDivisionError: a bug",
        "field": None,
    }
    monkeypatch.undo()
    assert quiet.get("/api/presets").status_code == 200
    assert quiet.get("/api/lesson").status_code == 200


@pytest.mark.parametrize("docs", ["/docs", "/redoc", "/docs/oauth2-redirect"])
def test_no_docs_page_that_loads_from_a_cdn(client, docs) -> None:
    assert client.get(docs).status_code == 404
