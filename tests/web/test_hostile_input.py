"""Each reproduction of issue 9 that answered 500 (or NaN): now a 400 naming its field.

Against main before this branch, the model routes answered 500 for a focus or word that only
looks like a number ('²', '--5'), /api/sweep?t_min=5e-324 answered 200 with weights "nan",
and a JSON body nested 1,000 deep or holding a 5,000-digit number was refused with no field.
"""

import math

import pytest

JSON = {"content-type": "application/json"}
NUMBER_LIKE = "looks like a number but is not one: give a position in the digits 0-9 or a word"
DIGITS = "9" * 5000


@pytest.mark.parametrize("path", ["/api/lesson", "/api/sweep", "/api/shuffle", "/api/model/trace"])
@pytest.mark.parametrize("focus", ["²", "--5", "٣", "+-1", "½"])
def test_a_focus_that_only_looks_like_a_number_is_refused(client, minilm, path, focus) -> None:
    r = client.get(path, params={"focus": focus})
    assert r.status_code == 400
    assert r.json() == {"error": f"focus {focus!r} {NUMBER_LIKE} of the text", "field": "focus"}


@pytest.mark.parametrize("focus", ["²", "--5"])
def test_a_focus_that_only_looks_like_a_number_in_a_body_is_refused(client, focus) -> None:
    r = client.post("/api/lesson", json={"focus": focus})
    assert r.status_code == 400 and r.json()["field"] == "focus"
    assert NUMBER_LIKE in r.json()["error"]


@pytest.mark.parametrize("word", ["--5", "²", "12"])
def test_a_compare_word_that_is_a_number_is_refused(client, minilm, word) -> None:
    r = client.get("/api/model/compare", params={"word": word})
    assert r.status_code == 400
    assert r.json() == {"error": f"word must be a word, got the number {word!r}", "field": "word"}


@pytest.mark.parametrize("path", ["/api/lesson", "/api/sweep", "/api/model/trace"])
def test_a_focus_of_5000_digits_is_refused_before_it_is_read(client, minilm, path) -> None:
    r = client.get(path, params={"focus": DIGITS})
    assert r.status_code == 400
    assert r.json() == {"error": "focus 999999999999… is a position far outside any text",
                        "field": "focus"}  # fmt: skip
    r = client.post("/api/lesson", json={"focus": DIGITS})
    assert r.status_code == 400 and r.json()["field"] == "focus"


def test_plain_positions_still_work(client, minilm) -> None:
    assert client.get("/api/lesson", params={"focus": " 2 "}).json()["focus"] == 2
    assert client.get("/api/lesson", params={"focus": "bank"}).json()["focus"] == 3
    assert client.get("/api/model/trace", params={"focus": "1"}).json()["focus"] == 1
    r = client.get("/api/lesson", params={"focus": "-1"})
    assert r.status_code == 400 and r.json()["field"] == "focus"


def test_a_body_number_of_5000_digits_is_400_naming_the_body(client) -> None:
    r = client.post("/api/lesson", content='{"focus": ' + DIGITS + "}", headers=JSON)
    assert r.status_code == 400 and r.json()["field"] == "body"
    assert r.json()["error"].startswith("the body is not valid JSON (Exceeds the limit")


@pytest.mark.parametrize(
    ("body", "field"),
    [('{"heads": 1e999}', "heads"), ('{"temperature": 1e400}', "temperature"),
     ('{"shuffle": 2e308}', "shuffle"), ('{"heads": -1.8e309}', "heads"),
     ('{"edits": {"embeddings": {"bank": [1e309, 0, 0, 0]}}}', "set"),
     ('{"edits": {"values": {"bank": [0, 0, 0, -1e999]}}}', "set_v")],
)  # fmt: skip
def test_numbers_beyond_float_range_in_a_body_are_refused(client, body, field) -> None:
    r = client.post("/api/lesson", content=body, headers=JSON)
    assert r.status_code == 400 and r.json()["field"] == field, r.text


@pytest.mark.parametrize("t_min", ["5e-324", "1e-300", "0.0009"])
def test_a_sweep_from_a_vanishing_temperature_is_refused(client, t_min) -> None:
    r = client.get("/api/sweep", params={"t_min": t_min})
    assert r.status_code == 400
    assert r.json() == {"error": f"t_min must be at least 0.001, got {t_min!r}", "field": "t_min"}


def test_a_sweep_at_the_extremes_has_no_nan(client) -> None:
    big = "bank=100,100,100,100"
    params = {"t_min": "0.001", "t_max": "1000000", "steps": "201", "set": big, "set_k": big}
    d = client.get("/api/sweep", params=params).json()
    weights = [w for row in d["weights"] for w in row]
    assert all(isinstance(w, float) and math.isfinite(w) for w in weights)
    assert client.get("/api/sweep", params={"t_max": "1e7"}).json()["field"] == "t_max"
