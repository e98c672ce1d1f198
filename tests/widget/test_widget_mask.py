"""The notebook widget's Mask a token panel: the kernel answers what /api/model/mask answers on
the page, for the same trace, word and token (widget/mask_panel.py)."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

import attnlab
from attnlab.web.app import create_app

pytest.importorskip("anywidget")


@pytest.fixture(scope="module")
def page() -> TestClient:
    return TestClient(create_app(None, ()), base_url="http://127.0.0.1")


def _mask(page: TestClient, **params: Any) -> dict[str, Any]:
    answer = page.get("/api/model/mask", params=params)
    assert answer.status_code == 200, answer.text
    out: dict[str, Any] = answer.json()
    return out


@pytest.mark.parametrize(
    ("name", "text", "how"),
    [("minilm", "the boat drifted down the river to the bank", "mask"),
     ("smollm2", "the boat drifted down the river to the bank", "drop")],
)  # fmt: skip
def test_the_widget_holds_the_pages_masked_run(request, page, name, text, how) -> None:  # type: ignore[no-untyped-def]
    mt = request.getfixturevalue(name).trace(text)
    w = attnlab.show(mt, layer=3, head=5)
    assert w.mask is None and w.maskError is None  # nothing asked yet
    w.maskHow, w.maskWord = how, "river"  # as the panel's "Mask and compare" sets them
    focus = w.trace["window"]["focus"]
    assert w.maskError is None
    assert w.mask == _mask(page, model=name, text=text, focus=focus, mask="river", how=how)
    assert w.mask["target"]["text"].strip() == "river" and w.mask["focus"] == focus
    w.focus = 1  # another token followed: the run is of it, as the page asks again
    assert w.mask == _mask(page, model=name, text=text, focus=1, mask="river", how=how)


def test_a_word_not_in_the_text_is_refused_on_the_word(minilm) -> None:  # type: ignore[no-untyped-def]
    w = attnlab.show(minilm.trace("by the river bank"))
    w.maskWord = "ocean"
    assert w.mask is None and w.maskError is not None
    assert w.maskError["field"] == "mask" and "ocean" in w.maskError["message"]
    w.maskWord = "river"  # a good word again: the numbers, and the message gone
    assert w.maskError is None and w.mask is not None
