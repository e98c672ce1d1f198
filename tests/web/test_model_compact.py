"""The real model's compact answers: packed arrays equal to the trace, a head's matrix as a
picture, a row on demand, the window of a long text, and the bytes a head switch moves."""

import numpy as np
import pytest

from attnlab.core.diagnostics import head_stats
from attnlab.encode.packed import UINT16_STEP, unpack
from attnlab.models.kept import cached_trace

pytestmark = pytest.mark.usefixtures("minilm")

LONG = " ".join(["the bank by the river was muddy after the rain and the farmers walked home"] * 8)


def test_packed_arrays_are_the_trace_s_numbers(client) -> None:
    d = client.get("/api/model/trace", params={"text": "by the river bank", "layer": 2,
                                               "head": 5, "grid": "none"}).json()  # fmt: skip
    t = cached_trace("minilm", "by the river bank").head(2, 5)
    assert d["window"]["whole"] and d["window"]["rows"] == list(range(6))
    for name in ("queries", "keys", "values", "raw_scores", "scores", "weights", "outputs"):
        assert unpack(d[name]) == pytest.approx(getattr(t, name), abs=1e-6), name
    assert unpack(d["window"]["focus_row"]) == pytest.approx(t.weights[4], abs=1e-7)


def test_a_long_text_is_shown_through_a_window_with_its_share_said(client) -> None:
    d = client.get("/api/model/trace", params={"text": LONG, "grid": "none"}).json()
    w = d["window"]
    t = cached_trace("minilm", LONG).head(0, 0)
    assert not w["whole"] and w["n"] == t.n and len(d["tokens"]) == len(w["rows"]) < 40
    assert d["tokens"] == [t.tokens[j] for j in w["rows"]]
    assert w["rows"][d["focus"]] == w["focus"] and 0 in w["rows"]
    rows = np.array(w["rows"])
    assert unpack(d["weights"]) == pytest.approx(t.weights[np.ix_(rows, rows)], abs=1e-6)
    assert w["shown_weight"] == pytest.approx(t.weights[w["focus"], rows].sum(), abs=1e-4)


def test_the_matrix_picture_decodes_to_the_weights_within_half_a_step(client) -> None:
    d = client.get("/api/model/matrix", params={"text": LONG, "layer": 3, "head": 1}).json()
    t = cached_trace("minilm", LONG).head(3, 1)
    assert not d["pooled"] and d["cells"] == t.n and d["factor"] == 1
    assert np.abs(unpack(d["weights"]) - t.weights).max() <= UINT16_STEP / 2 + 1e-7
    assert unpack(d["row_max"]) == pytest.approx(t.weights.max(axis=1), abs=1e-6)


def test_hiding_specials_renormalised_or_not(client) -> None:
    params = {"text": "by the river bank", "layer": 0, "head": 0}
    t = cached_trace("minilm", "by the river bank").head(0, 0)
    hide = client.get("/api/model/matrix", params={**params, "specials": "hide"}).json()
    assert hide["kept"] == [1, 2, 3, 4] and hide["shown"] == 4
    assert unpack(hide["weights"]) == pytest.approx(t.weights[1:5, 1:5], abs=UINT16_STEP)
    assert hide["hidden_mean"] == pytest.approx(1 - t.weights[1:5, 1:5].sum(1).mean(), abs=1e-4)
    renorm = client.get("/api/model/matrix", params={**params, "specials": "renormalise"}).json()
    assert unpack(renorm["weights"]).sum(axis=1) == pytest.approx(1, abs=1e-3)


def test_a_row_on_demand(client) -> None:
    d = client.get("/api/model/row", params={"text": LONG, "layer": 4, "head": 7, "row": 30})
    t = cached_trace("minilm", LONG).head(4, 7)
    body = d.json()
    assert body["token"] == t.tokens[30] and body["visible"] == t.n
    assert unpack(body["weights"]) == pytest.approx(t.weights[30], abs=1e-7)
    bad = client.get("/api/model/row", params={"text": "a b", "row": 9})
    assert bad.status_code == 400 and bad.json()["field"] == "row"


def test_the_grid_carries_every_head_s_diagnostics(client) -> None:
    g = client.get("/api/model/trace", params={"text": "by the river bank"}).json()["grid"]
    mt = cached_trace("minilm", "by the river bank")
    want = head_stats(mt.attentions)
    for name in ("entropy_bits", "first", "previous", "itself", "top1"):
        assert np.array(g["stats"][name]) == pytest.approx(getattr(want, name), abs=2e-4), name


def test_a_head_switch_moves_under_a_megabyte_at_128_tokens(client) -> None:
    text = " ".join(["word"] * 126)
    sizes = [len(client.get(f"/api/model/{p}", params={"text": text, "head": 3, "grid": "none"}
                            if p == "trace" else {"text": text, "head": 3}).content)
             for p in ("trace", "matrix")]  # fmt: skip
    assert sum(sizes) < 1_000_000, sizes
