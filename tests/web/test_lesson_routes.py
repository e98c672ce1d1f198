"""The lab's API: the lesson's new options, POSTed edits, sweep, shuffle and cost endpoints."""

import pytest


def get(client, path: str = "/api/lesson", **params) -> dict:
    r = client.get(path, params=params)
    assert r.status_code == 200, r.text
    return r.json()


def test_lesson_keeps_its_keys_and_adds_the_labs(client) -> None:
    d = get(client)
    assert [round(w, 2) for w in d["weights"][3]] == [0.11, 0.07, 0.69, 0.14]
    for key in ("saturation", "readings", "positions", "heads", "causal", "shuffle", "edits"):
        assert key in d, key


def test_lesson_lab_options(client) -> None:
    d = get(client, temperature="0.5", positions="rope", causal="1", heads="2", shuffle="4")
    assert d["divisor"] == 0.5 and d["causal"] and d["positions"]["kind"] == "rope"
    assert len(d["heads"]) == 2 and len(d["concat_outputs"][3]) == 8
    assert d["shuffle"]["seed"] == 4 and len(d["shuffle"]["rows"]) == 4
    assert all(row[j] == 0 for i, row in enumerate(d["weights"]) for j in range(i + 1, 4))


def test_lesson_edits_by_query(client) -> None:
    r = client.get("/api/lesson", params=[("set", "river=0,1,0,0"), ("set_q", "bank=0,0,0,0")])
    d = r.json()
    assert r.status_code == 200 and d["embeddings"][2] == [0, 1, 0, 0]
    assert d["queries"][3] == [0, 0, 0, 0] and d["weights"][3] == [0.25] * 4
    assert d["edits"]["queries"] == {"bank": [0.0, 0.0, 0.0, 0.0]}


def test_post_lesson_with_edits(client) -> None:
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
        ({"edits": {"embeddings": {"bank": ["a", 0, 0, 0]}}}, "set", "must be a JSON number"),
        ({"temperature": -1}, "temperature", "got -1"),
        ({"mode": "softer"}, "mode", "unknown mode"),
    ],
)
def test_bad_post_is_a_400_naming_the_field(client, body, field, message) -> None:
    r = client.post("/api/lesson", json=body)
    assert r.status_code == 400, r.text
    assert r.json()["field"] == field and message in r.json()["error"]
    json_type = {"content-type": "application/json"}
    assert client.post("/api/lesson", content=b"{not json", headers=json_type).status_code == 400


def test_sweep(client) -> None:
    d = get(client, "/api/sweep", steps="5")
    assert d["temperatures"][0] == pytest.approx(0.1) and d["temperatures"][-1] == pytest.approx(10)
    assert len(d["weights"]) == 5 and d["marks"] == {"scaled": 2.0, "unscaled": 1.0}
    assert d["tokens"] == ["by", "the", "river", "bank"] and d["focus"] == 3
    assert d["jacobian_frobenius"][0] < d["jacobian_frobenius"][-1]


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"t_min": "5", "t_max": "1"}, "t_min (5) must be below t_max (1)"),
        ({"t_min": "20"}, "t_min (20) must be below t_max (10)"),
        ({"t_min": "0"}, "t_min must be at least 0.001, got '0'"),
        ({"t_min": "-1", "t_max": "1"}, "t_min must be at least 0.001, got '-1'"),
        ({"t_min": "5e-324"}, "t_min must be at least 0.001, got '5e-324'"),  # was NaN weights
        ({"t_min": "inf"}, "t_min must be a finite number, got 'inf'"),
    ],
)
def test_a_sweep_range_that_does_not_rise_from_above_zero_names_t_min(client, params, message):
    """Bugs: t_min > t_max was reported against `temperature`; t_min=0 silently became 0.1."""
    r = client.get("/api/sweep", params=params)
    assert r.status_code == 400, r.text
    assert r.json() == {"error": message, "field": "t_min"}


def test_a_sweep_takes_its_own_range(client) -> None:
    d = get(client, "/api/sweep", t_min="0.5", t_max="4", steps="3", head="2")
    assert d["temperatures"] == pytest.approx([0.5, 1.414, 4], abs=1e-3)
    r = client.get("/api/sweep", params={"t_max": "0"})
    assert r.status_code == 400 and r.json()["field"] == "t_max"


def test_shuffle_every_kind(client) -> None:
    d = get(client, "/api/shuffle", seed="2")
    assert d["kinds"] == ["none", "sinusoidal", "rope"]
    assert d["none"]["all_unchanged"] and not d["rope"]["all_unchanged"]
    assert d["sinusoidal"]["max_distance"] > 0.01


def test_cost(client) -> None:
    d = get(client, "/api/cost", max_n="256", per_octave="1")
    assert [p["n"] for p in d["points"]] == [4, 8, 16, 32, 64, 128, 256] and d["d"] == 64
    assert d["fit"]["memory"]["c"] > 0
    r = client.get("/api/cost", params={"max_n": "100000"})
    assert r.status_code == 400 and r.json()["field"] == "max_n"


def test_cost_with_the_kv_cache(client) -> None:
    """kv_cache=true adds one more token after n = 128 … 2048: recompute against a cached row."""
    assert get(client, "/api/cost", max_n="16", per_octave="1")["kv_cache"] is None
    d = get(client, "/api/cost", max_n="16", per_octave="1", kv_cache="true")
    kv = d["kv_cache"]
    ns = [p["n"] for p in kv["points"]]
    assert ns == [128, 256, 512, 1024, 2048][: len(ns)] and kv["d"] == 64
    for p in kv["points"]:
        assert p["ratio"] == pytest.approx(p["recompute_seconds"] / p["cached_seconds"])
        assert p["flop_ratio"] == pytest.approx(p["n"], rel=0.02)
        assert p["recompute_bytes"] > p["cached_bytes"]
    assert kv["model"]["recompute_flops"] == "4·n²·d + 5·n²"
    again = get(client, "/api/cost", max_n="16", per_octave="1", kv_cache="true")["kv_cache"]
    assert again == kv  # measured once per process, not per request


def test_lab_choices(client) -> None:
    d = get(client, "/api/lab")
    assert d["positions"] == ["none", "sinusoidal", "rope"] and d["heads"] == [1, 2]
    assert d["temperature"]["min"] == 0.1 and d["edit_limit"] == 100


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("/api/lesson", {"sentense": "by the river bank"}),
        ("/api/lesson", {"beat": "score"}),
        ("/api/sweep", {"t_mni": "0.5"}),
        ("/api/shuffle", {"seeds": "2"}),
        ("/api/cost", {"n": "64"}),
        ("/api/presets", {"x": "1"}),
        ("/api/lab", {"x": "1"}),
    ],
)
def test_an_unknown_query_parameter_is_refused_by_name(client, path, params) -> None:
    """Bug: unknown query keys were silently ignored, so a typo gave the default lesson."""
    (name,) = params
    r = client.get(path, params=params)
    assert r.status_code == 400, r.text
    assert r.json()["field"] == name and f"unknown parameter {name!r}" in r.json()["error"]


def test_an_unknown_query_parameter_lists_the_known_ones(client) -> None:
    error = client.get("/api/cost", params={"n": "64"}).json()["error"]
    assert error == "unknown parameter 'n': expected one of max_n, d, per_octave, kv_cache"


@pytest.mark.parametrize(
    ("body", "name", "hint"),
    [
        ({"set": ["bank=1,0,0,1"]}, "set", '{"edits": {"embeddings"'),
        ({"set_q": ["bank=1,0,0,1"]}, "set_q", '{"edits": {"embeddings"'),
        ({"sentense": "by the river bank"}, "sentense", "expected one of sentence, focus"),
    ],
)
def test_an_unknown_body_key_is_refused_by_name(client, body, name, hint) -> None:
    """Bug: `set` in a POST body was silently ignored (edits travel as an object there)."""
    r = client.post("/api/lesson", json=body)
    assert r.status_code == 400, r.text
    assert r.json()["field"] == name
    assert f"unknown parameter {name!r}" in r.json()["error"] and hint in r.json()["error"]


def test_an_unknown_edit_role_is_refused(client) -> None:
    r = client.post("/api/lesson", json={"edits": {"embedding": {"bank": [1, 0, 0, 1]}}})
    assert r.status_code == 400 and r.json()["field"] == "set"
    assert "unknown edit role 'embedding'" in r.json()["error"]


def test_malformed_edits_are_named_in_words_not_echoed_as_a_repr(client) -> None:
    """Bug (issue 22): "edits must be an object of roles, got [{'role': 'x', … 'value': nan}]":
    a Python repr with nan in it. The refusal names what is wrong and the shape expected."""
    body = b'{"edits": [{"role": "x", "token": "bank", "value": NaN}]}'
    r = client.post("/api/lesson", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400
    assert r.json()["error"] == (
        'edits must be an object of roles such as {"embeddings": {"bank": [1, 0, 0, 1]}}, '
        "got a list"
    )
    r = client.post("/api/lesson", json={"edits": {"keys": [1, 0, 0, 1]}})
    assert r.status_code == 400 and r.json()["field"] == "set_k" and "'" not in r.json()["error"]
    assert r.json()["error"].startswith("edits of keys must map words to vectors such as")


def test_an_edit_value_is_a_json_number_not_a_string(client) -> None:
    """Bug (issue 22): "1" was taken as 1 although /openapi.json declares numbers: refused."""
    r = client.post("/api/lesson", json={"edits": {"embeddings": {"bank": ["1", 0, 0, 1]}}})
    assert r.status_code == 400
    assert r.json()["error"] == (
        "the embedding of 'bank', dimension 0 (geographic) must be a JSON number such as 1 or 0.5, "
        "got a string"
    )
    from attnlab.web.app import create_app

    schema = create_app().openapi()["components"]["schemas"]["EditsBody"]
    assert schema["properties"]["embeddings"]["additionalProperties"]["items"] == {"type": "number"}
    ok = client.post("/api/lesson", json={"edits": {"embeddings": {"bank": [1, 0, 0.5, 1]}}})
    assert ok.status_code == 200 and ok.json()["embeddings"][3] == [1.0, 0.0, 0.5, 1.0]
