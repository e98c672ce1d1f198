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
