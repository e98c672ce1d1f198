"""GET /api/cheaper: the Cheaper attention cards, as /openapi.json declares them."""

import pytest


def test_cheaper_answers_every_card(client) -> None:
    r = client.get("/api/cheaper", params={"sentence": "at the savings bank", "tile": "1"})
    assert r.status_code == 200, r.text
    d = r.json()
    assert d["tile"] == 1 and len(d["online"]["steps"]) == 4
    assert d["online"]["badge"]["kind"] == "exact"
    assert d["linear"]["badge"]["kind"] == "approximate"
    assert [w["scheme"] for w in d["windows"]] == ["full", "window", "sinks"]


def test_a_bad_tile_is_refused_by_name(client) -> None:
    r = client.get("/api/cheaper", params={"tile": "7"})
    assert r.status_code == 400 and r.json()["field"] == "tile"


@pytest.mark.slow  # the measuring child: 3 s on a quiet machine, 18 s on a loaded one
def test_price_answers_each_forms_curve(client) -> None:
    r = client.get("/api/cheaper/price")
    assert r.status_code == 200, r.text
    d = r.json()
    assert [p["n"] for p in d["points"]] == [256, 512, 1024, 2048, 4096]
    last = d["points"][-1]
    assert last["tiled_bytes"] < last["exact_bytes"] / 20
    assert d["text"].startswith("At n = 4,096 the n × n form peaked at ")
