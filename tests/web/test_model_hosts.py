"""One head's answer, three hosts: the page's route, the notebook widget and the offline file
carry the same numbers and words for the same trace (models/head_view.py, encode/head_json.py),
and the widget's and the file's words and text are the traced model's and text's own."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

import attnlab
from attnlab.export.standalone import file_head, standalone_html

pytest.importorskip("anywidget")

CASES = [("minilm", "by the river bank", 2, 5, 3), ("smollm2", "it's 3.14 by the bank", 4, 7, 5)]


def _data(html: str) -> dict[str, Any]:
    m = re.search(r'<script type="application/json" id="attnlab-data">(.*?)</script>', html, re.S)
    assert m is not None
    out: dict[str, Any] = json.loads(m.group(1))
    return out


@pytest.mark.parametrize(("name", "text", "layer", "head", "focus"), CASES)
def test_the_page_the_widget_and_the_file_carry_the_same_head(  # type: ignore[no-untyped-def]
    request, client, name, text, layer, head, focus
) -> None:
    mt = request.getfixturevalue(name).trace(text)
    ask = {"model": name, "text": text, "layer": layer, "head": head, "focus": focus}
    page = client.get("/api/model/trace", params={**ask, "grid": "full"}).json()
    grid = page.pop("grid")
    widget = attnlab.show(mt, layer=layer, head=head, focus=focus)
    assert widget.trace == page and widget.grid == grid
    file = _data(standalone_html(mt, layer=layer, head=head, focus=focus))
    assert file_head(file, layer, head) == page and file["grid"] == grid
    info = client.get("/api/model/info", params={"model": name}).json()
    same = ("model", "description", "n_layers", "n_heads", "n_kv_heads", "d_model", "d_k",
            "max_tokens", "causal")  # fmt: skip
    for host in (widget.info, file["info"]):
        assert {k: host[k] for k in same} == {k: info[k] for k in same}


def test_the_widget_of_a_decoder_says_its_limit_and_its_causal_mask(smollm2) -> None:  # type: ignore[no-untyped-def]
    w = attnlab.show(smollm2.trace("it's 3.14"))
    assert w.info["max_tokens"] == 2048 and w.info["causal"] is True
    assert w.info["n_kv_heads"] == 3
    help_words = w.words["model.text_help"] + w.words["model.intro"]
    assert "[CLS]" not in help_words and "##" not in help_words and "decoder" in help_words


def test_the_text_box_holds_the_text_that_was_traced(minilm, smollm2) -> None:  # type: ignore[no-untyped-def]
    for model, text in ((smollm2, "it's 3.14"), (minilm, "Pneumonoultramicroscopic, it's 3.14")):
        mt = model.trace(text)
        assert attnlab.show(mt).text == text
        assert _data(standalone_html(mt))["state"]["text"] == text


def test_the_offline_file_of_a_decoder_has_no_encoders_words(smollm2) -> None:  # type: ignore[no-untyped-def]
    data = _data(standalone_html(smollm2.trace("it's 3.14")))
    said = json.dumps({k: data[k] for k in ("state", "info", "words", "note")})
    assert "[CLS]" not in said and "##" not in said
    assert data["info"]["causal"] is True and data["info"]["max_tokens"] == 2048


def test_weights_from_elsewhere_are_not_named_elsewhere_nor_offer_absent_specials() -> None:
    import numpy as np

    a = np.full((1, 3, 4, 4), 0.25)
    w = attnlab.show(a, ["the", "cat", "sat", "down"])
    which = w.words["maps.which"].format(layer=0, head=2, model=w.trace["model"]["name"], n=4)
    assert "of elsewhere" not in which and "head 2" in which
    assert "elsewhere" not in w.words["maps.intro"].format(
        model=w.trace["model"]["name"], n_layers=1, n_heads=3
    )
    offered = " ".join(v for k, v in w.words.items() if k.startswith("model.matrix.specials"))
    assert "[CLS]" not in offered and "[SEP]" not in offered
    named = attnlab.show(a, ["[CLS]", "cat", "sat", "[SEP]"], source="bert")
    assert "[CLS]" in named.words["model.matrix.specials"]
    assert "of bert" in named.words["maps.which"].format(layer=0, head=2, model="bert", n=4)
