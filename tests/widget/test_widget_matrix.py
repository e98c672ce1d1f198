"""The notebook widget's matrix panel: the kernel answers what /api/model/matrix and
/api/model/row answer on the page, for the same trace (widget/matrix_panel.py)."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

import attnlab
from attnlab.errors import UnknownHeadError
from attnlab.web.app import create_app

pytest.importorskip("anywidget")

CASES = [("minilm", "by the river bank", 2, 5), ("smollm2", "it's 3.14 by the bank", 4, 7)]


@pytest.fixture(scope="module")
def page() -> TestClient:
    return TestClient(create_app(None, ()), base_url="http://127.0.0.1")


def _page(page: TestClient, route: str, **params: Any) -> dict[str, Any]:
    answer = page.get(f"/api/model/{route}", params=params)
    assert answer.status_code == 200, answer.text
    out: dict[str, Any] = answer.json()
    return out


@pytest.mark.parametrize(("name", "text", "layer", "head"), CASES)
def test_the_widget_holds_the_pages_matrix_and_row(  # type: ignore[no-untyped-def]
    request, page, name, text, layer, head
) -> None:
    mt = request.getfixturevalue(name).trace(text)
    w = attnlab.show(mt, layer=layer, head=head)
    ask = {"model": name, "text": text, "layer": layer, "head": head}
    assert w.matrix == _page(page, "matrix", **ask, pool="max", specials="show")
    focus = w.trace["window"]["focus"]
    assert w.row_index == focus  # the followed token's row, as the page's host asks it
    assert w.row == _page(page, "row", **ask, row=focus)
    # the panel's choices, as the view sets them: another pooling, the specials, a row
    w.specials, w.pool, w.row_index = "renormalise", "mean", 1
    assert w.matrix == _page(page, "matrix", **ask, pool="mean", specials="renormalise")
    assert w.row == _page(page, "row", **ask, row=1)
    w.layer, w.head = 0, 1  # another head: its matrix, and the followed token's row again
    ask |= {"layer": 0, "head": 1}
    assert w.matrix == _page(page, "matrix", **ask, pool="mean", specials="renormalise")
    assert w.row_index == focus and w.row == _page(page, "row", **ask, row=focus)


def test_a_row_outside_the_text_is_refused_by_name(minilm) -> None:  # type: ignore[no-untyped-def]
    w = attnlab.show(minilm.trace("by the river bank"))
    with pytest.raises(UnknownHeadError, match="row must be between 0 and 5, got 6"):
        w.row_index = 6
    w.text = "the bank"  # a new text: the matrix and the row are of it
    assert w.matrix is not None and w.matrix["n"] == 4 and w.row is not None
    assert w.row["token"] == w.trace["window"]["all_tokens"][w.row_index]


def test_weights_handed_in_have_the_models_matrix_panel(minilm) -> None:  # type: ignore[no-untyped-def]
    # attnlab.show(weights[None, None], tokens) had no matrix: the panel stayed empty
    mt = minilm.trace("by the river bank")
    model, maps = attnlab.show(mt, layer=2, head=5), attnlab.show(mt.maps(), layer=2, head=5)
    assert maps.matrix is not None and maps.matrix == model.matrix  # the same weights, one path
    assert maps.row_index == model.row_index and maps.row == model.row
    for w in (model, maps):
        w.specials, w.pool, w.row_index = "renormalise", "mean", 1
    assert maps.matrix == model.matrix and maps.matrix["kept"] == [1, 2, 3, 4]  # [CLS], [SEP]
    assert maps.row == model.row


def test_one_head_of_numpy_weights_is_drawn_and_counted_in_the_singular() -> None:
    import numpy as np

    from attnlab.encode.packed import unpack

    weights = np.array([[0.5, 0.5, 0.0], [0.25, 0.25, 0.5], [0.0, 1.0, 0.0]])
    w = attnlab.show(weights[None, None], ["the", "cat", "sat"])
    assert w.matrix is not None and w.matrix["n"] == 3 and w.matrix["pooled"] is False
    assert np.allclose(unpack(w.matrix["weights"]), weights, atol=1 / 65535)
    assert w.row is not None and np.allclose(unpack(w.row["weights"]), weights[w.row_index])
    intro = w.words["maps.intro"]
    assert "1 layer × 1 head," in intro and "1 layers" not in intro and "1 heads" not in intro
    two = attnlab.show(np.stack([weights, weights])[None], ["the", "cat", "sat"])
    assert "1 layer × 2 heads," in two.words["maps.intro"]


def test_queries_and_keys_of_their_own_have_no_square_picture() -> None:
    import numpy as np

    from attnlab.core.attention_maps import AttentionMaps
    from attnlab.errors import MapShapeError
    from attnlab.models.maps_view import maps_matrix_view

    maps = AttentionMaps.of(np.full((2, 3), 1 / 3), ["a", "b"], key_tokens=["x", "y", "z"])
    with pytest.raises(MapShapeError, match="got 2 queries and 3 keys"):
        maps_matrix_view(maps, layer=0, head=0, how="max", specials="show")
    w = attnlab.show(maps)
    assert w.matrix is None and w.row is not None and w.row["visible"] == 3
