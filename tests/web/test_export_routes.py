"""GET /api/export/lesson.html and /api/export/model.html: the same bytes as
export.standalone for the same state, sent as an HTML attachment; refusals name the field."""

from __future__ import annotations

import pytest

from attnlab import LessonOptions, explain_lesson
from attnlab.export.standalone import standalone_html
from attnlab.lesson.edits import Edits
from attnlab.lesson.toy import DIM_NAMES
from attnlab.models.kept import cached_trace
from attnlab.web.export_routes import file_name


def _is_html_file(r, name: str) -> None:
    assert r.status_code == 200
    assert r.headers["content-type"] == "text/html; charset=utf-8"
    assert r.headers["content-disposition"] == f'attachment; filename="{name}"'


def test_a_lesson_file_is_the_standalone_text_of_the_same_state(client) -> None:
    r = client.get(
        "/api/export/lesson.html",
        params={"sentence": "by the river bank", "focus": "river", "mode": "unscaled",
                "positions": "rope", "causal": "1", "set": "bank=1,0,0,1", "beat": "4"},
    )  # fmt: skip
    _is_html_file(r, "attnlab-by-the-river-bank-river-unscaled.html")
    edits = Edits.parse({"embeddings": ["bank=1,0,0,1"]}, dim_names=DIM_NAMES)
    options = LessonOptions(mode="unscaled", positions="rope", causal=True, edits=edits)
    ex = explain_lesson("by the river bank", options, focus="river")
    assert r.content == standalone_html(ex, beat=4).encode("utf-8")
    # the state is the asked one, not the default's
    assert r.content != standalone_html(explain_lesson("by the river bank"), beat=4).encode()


@pytest.mark.parametrize(
    ("params", "field"),
    [({"beat": "6"}, "beat"), ({"beat": "-1"}, "beat"), ({"sentence": "by the zebra"}, "sentence"),
     ({"focus": "zebra"}, "focus"), ({"mode": "softer"}, "mode")],
)  # fmt: skip
def test_a_lesson_file_refuses_by_field(client, params, field) -> None:
    r = client.get("/api/export/lesson.html", params=params)
    assert r.status_code == 400 and r.json()["field"] == field


@pytest.mark.usefixtures("minilm")
def test_a_model_file_is_the_standalone_text_of_the_same_state(client) -> None:
    params = {"text": "by the river bank", "layer": "2", "head": "5", "focus": "river", "beat": "3"}
    r = client.get("/api/export/model.html", params=params)
    _is_html_file(r, "attnlab-minilm-layer-2-head-5-river.html")
    mt = cached_trace("minilm", "by the river bank")
    assert r.content == standalone_html(mt, beat=3, layer=2, head=5, focus="river").encode()
    assert r.content != standalone_html(mt, beat=3, layer=2, head=4, focus="river").encode()


@pytest.mark.usefixtures("minilm")
@pytest.mark.parametrize(
    ("params", "field", "words"),
    [({"text": " ".join(["river"] * 40)}, "text", "a model's HTML file holds every head for "
      "texts of up to 32 tokens; this text has 42: save a shorter one, or its .json"),
     ({"layer": "6"}, "layer", "layer must be between 0 and 5, got 6"),
     ({"head": "12"}, "head", "head must be between 0 and 11, got 12"),
     ({"focus": "zebra"}, "focus", "zebra"), ({"beat": "7"}, "beat", "beat"),
     ({"model": "gpt5"}, "model", "gpt5")],
)  # fmt: skip
def test_a_model_file_refuses_by_field(client, params, field, words) -> None:
    r = client.get("/api/export/model.html", params={"text": "by the river bank", **params})
    assert r.status_code == 400 and r.json()["field"] == field
    assert words in r.json()["error"]


def test_file_names_are_slugs_like_the_pages() -> None:
    assert (
        file_name("by the river bank", "bank", "scaled")
        == "attnlab-by-the-river-bank-bank-scaled.html"
    )
    assert file_name("", "!!") == "attnlab-export.html"
