"""The self-contained HTML file: it holds every number it offers and refers to nothing outside."""

from __future__ import annotations

import json
import re

import pytest

from attnlab import LessonOptions, explain_lesson
from attnlab.encode.lesson_json import encode_lesson
from attnlab.errors import ExportError
from attnlab.export.standalone import MODEL_TOKENS_AT_MOST, standalone_html


def _data(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="attnlab-data">(.*?)</script>', html, re.S)
    assert m is not None
    return json.loads(m.group(1))


def test_lesson_file_holds_every_mode_and_focus() -> None:
    ex = explain_lesson("by the river bank", LessonOptions(causal=True), focus="bank")
    data = _data(standalone_html(ex, beat=2))
    assert data["state"] == {"sentence": "by the river bank", "mode": "scaled", "axis": "keys",
                             "focus": 3, "beat": 2}  # fmt: skip
    assert len(data["lessons"]) == 3 * 4
    other = explain_lesson(
        "by the river bank", LessonOptions(causal=True, mode="unscaled"), focus=1
    )
    assert data["lessons"]["unscaled|1"] == json.loads(json.dumps(encode_lesson(other)))


def test_a_temperature_keeps_only_the_modes_it_combines_with() -> None:
    ex = explain_lesson("by the river bank", LessonOptions(temperature=0.5))
    assert sorted(_data(standalone_html(ex))["lessons"]) == [f"scaled|{f}" for f in range(4)]


def test_the_file_refers_to_nothing_outside_itself() -> None:
    html = standalone_html(explain_lesson())
    assert "<!--attnlab:" not in html  # every marker filled
    assert not re.search(r"""(?:src|href)\s*=\s*["'](?!data:)""", html)
    styles = "".join(re.findall(r"<style[^>]*>(.*?)</style>", html, re.S))
    assert styles and not re.search(r"url\(\s*['\"]?(?!data:)", styles)  # no font or image fetched
    requests = r"\bfetch\(|XMLHttpRequest|WebSocket|EventSource|sendBeacon"
    assert not re.search(requests, html)  # the script asks the network for nothing
    assert html.count("</script>") == 2  # the data and the one script, neither cut short


def test_a_long_model_text_is_refused(minilm_trace) -> None:
    from attnlab import load_model

    long = load_model("minilm").trace(" ".join(["bank"] * MODEL_TOKENS_AT_MOST))
    with pytest.raises(ExportError, match=f"up to {MODEL_TOKENS_AT_MOST} tokens"):
        standalone_html(long)


def test_a_lesson_files_text_box_holds_the_sentence_as_typed() -> None:
    data = _data(standalone_html(explain_lesson("By the river bank")))
    assert data["state"]["sentence"] == "By the river bank"
    assert data["presets"]["presets"][0]["sentence"] == "By the river bank"
