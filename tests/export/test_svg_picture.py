"""SVG without a browser: the page's layout and drawer under Node.js, parsed back as XML."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET

import pytest

from attnlab import explain_lesson
from attnlab.errors import ExportError
from attnlab.export import svg_picture

SVG = "{http://www.w3.org/2000/svg}"
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")


def _texts(svg: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter(f"{SVG}text")]


@needs_node
def test_a_lesson_beat_holds_its_numbers_as_text() -> None:
    ex = explain_lesson("by the river bank", focus="bank")
    svg = svg_picture(ex, beat=2, size=(820, 540))
    root = ET.fromstring(svg)
    assert (root.get("width"), root.get("height")) == ("820", "540")
    texts = _texts(svg)
    for shown in ("0.92 / 2", "= 0.46", "4.6 / 2", "= 2.3", "1.38 / 2", "= 0.69"):
        assert shown in texts, shown
    assert texts[0].startswith("Score: the query of “bank”")


@needs_node
def test_a_real_head_is_drawn_by_the_model_layout(minilm_trace) -> None:
    svg = svg_picture(minilm_trace, beat=3, layer=2, head=5, focus="bank")
    texts = " ".join(_texts(svg))
    row = minilm_trace.head(2, 5).weights[minilm_trace.focus_index("bank")]
    assert f"{row.max():.2f}".rstrip("0").rstrip(".") in texts


def test_without_node_the_error_says_where_to_save_it(monkeypatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.delenv("ATTNLAB_NODE", raising=False)
    with pytest.raises(ExportError, match="Export menu of the page"):
        svg_picture(explain_lesson())
