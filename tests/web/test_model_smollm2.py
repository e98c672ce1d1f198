"""SmolLM2 through the API: the causal triangle, grouped-query attention, RoPE by distance and the
next tokens, all the trace's numbers; at 2,048 tokens a head switch moves under 1 MB, its
pooled picture is the max of each block of the head's weights, within the uint16 step."""

from __future__ import annotations

import numpy as np
import pytest

from attnlab.core.pooling import pool
from attnlab.encode.packed import UINT16_STEP, unpack
from attnlab.models.kept import cached_trace

pytestmark = pytest.mark.usefixtures("smollm2")

TEXT = "The river bank was muddy after the long rain, so we walked home."


def test_the_causal_triangle_and_grouped_keys(client) -> None:
    params = {"model": "smollm2", "text": TEXT, "layer": 4, "head": 7, "focus": "bank"}
    d = client.get("/api/model/trace", params={**params, "grid": "none"})
    body = d.json()
    assert d.status_code == 200, body
    t = cached_trace("smollm2", TEXT).head(4, 7)
    w = unpack(body["weights"])
    assert body["window"]["whole"] and w == pytest.approx(t.weights, abs=1e-6)
    assert np.all(w[np.triu_indices(w.shape[0], 1)] == 0)  # masked: later keys weigh 0
    assert w.sum(axis=1) == pytest.approx(1, abs=1e-5)  # over the visible keys
    assert body["mask"][0][1] is False and body["mask"][1][0] is True
    m, g = body["model"], body["gqa"]
    assert (m["n_heads"], m["n_kv_heads"], m["kv_head"], m["causal"]) == (9, 3, 2, True)
    assert g["group"] == [6, 7, 8] and g["group_identical"]
    assert g["keys"][0] == g["keys"][1] == g["keys"][2]
    assert g["keys"][1] == pytest.approx(t.keys[body["focus"], :4].tolist(), abs=1e-4)


def test_rope_by_distance_meets_the_score_the_head_used_and_next_tokens(client) -> None:
    params = {"model": "smollm2", "text": TEXT, "layer": 2, "head": 0, "focus": "bank"}
    body = client.get("/api/model/trace", params={**params, "grid": "none"}).json()
    dec = body["decoder"]
    t = cached_trace("smollm2", TEXT).head(2, 0)
    f, k = dec["focus"], dec["key"]
    assert dec["distance"] == f - k and k == int(np.argmax(t.weights[f]))
    scores = unpack(dec["scores"])
    assert scores[f - k] == pytest.approx(t.scores[f, k], abs=1e-3)  # what the pass computed
    assert dec["score_used"] == pytest.approx(t.scores[f, k], abs=1e-3)
    assert np.linalg.norm(dec["query_before"]) == pytest.approx(
        np.linalg.norm(dec["query_after"]), rel=1e-3
    )
    assert dec["query_after"] == pytest.approx(t.queries[f].tolist(), abs=1e-4)
    p = [x["probability"] for x in dec["next_after_last"]]
    assert p == sorted(p, reverse=True) and 0 < sum(p) <= 1
    assert dec["last"] == body["window"]["n"] - 1


def test_minilm_has_no_decoder_part(client, minilm) -> None:
    body = client.get("/api/model/trace", params={"text": "a b", "grid": "none"}).json()
    assert body["decoder"] is None and body["model"]["causal"] is False


def test_a_head_switch_at_2048_tokens_moves_under_a_megabyte(client, smollm2_long_text) -> None:
    text = smollm2_long_text
    first = client.get("/api/model/trace", params={"model": "smollm2", "text": text})
    assert first.status_code == 200, first.json()
    body = first.json()
    assert body["window"]["n"] == 2048 and not body["window"]["whole"]
    assert body["grid"]["rows"] is None and len(body["grid"]["stats"]["first"]) == 30
    switch = {"model": "smollm2", "text": text, "layer": 5, "head": 1}
    trace = client.get("/api/model/trace", params={**switch, "grid": "none"})
    matrix = client.get("/api/model/matrix", params=switch)
    sizes = len(trace.content), len(matrix.content)
    print(f"head switch at 2,048 tokens: trace {sizes[0]:,} B + matrix {sizes[1]:,} B")
    assert sum(sizes) < 1_000_000, sizes
    m = matrix.json()
    assert (m["cells"], m["factor"], m["pooled"], m["causal"]) == (512, 4, True, True)
    want = pool(cached_trace("smollm2", text).head(5, 1).weights, 512, "max")
    assert np.abs(unpack(m["weights"]) - want).max() <= UINT16_STEP / 2 + 1e-7
    row = client.get("/api/model/row", params={**switch, "row": 2047}).json()
    assert row["visible"] == 2048 and unpack(row["weights"]).sum() == pytest.approx(1, abs=1e-4)
