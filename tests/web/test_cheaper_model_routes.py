"""GET /api/cheaper/models and /api/cheaper/kv: the real-model card's numbers are the core's."""

from __future__ import annotations

from attnlab.encode.cheaper_models_json import KV_TEXT
from attnlab.models import load_model
from attnlab.models.kv_decode import check_cache
from attnlab.models.real_caches import real_caches


def test_models_answers_the_same_rows_as_cheaper_cache(client) -> None:
    r = client.get("/api/cheaper/models")
    assert r.status_code == 200, r.text
    got = {m["name"]: m for m in r.json()["models"]}
    for row in real_caches():
        m = got[row.name]
        assert [(f["name"], f["bytes"]) for f in m["forms"]] == [
            (f.name, f.bytes) for f in row.forms
        ]
        assert m["missing"] == row.missing and m["n_layers"] == row.n_layers
    assert "DeepSeek-V2" in got and "from its paper's published sizes" in got["DeepSeek-V2"]["text"]


def test_kv_is_the_decoders_own_cache_check(client) -> None:
    r = client.get("/api/cheaper/kv", params={"model": "smollm2"})
    assert r.status_code == 200, r.text
    d = r.json()
    c = check_cache(load_model("smollm2"), KV_TEXT)
    assert d["max_row_diff"] == c.max_row_diff and d["max_logit_diff"] == c.max_logit_diff
    assert d["badge"]["kind"] == "exact" and d["same_next_token"] is True
    assert d["badge"]["text"].startswith("exact: max |Δ| = ")
    assert client.get("/api/cheaper/kv", params={"model": "minilm"}).status_code == 400
