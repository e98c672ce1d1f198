"""The self-contained HTML file in Chromium, from file:// with every other request refused: it
loads, steps through the six beats with the Python API's numbers, follows another token, changes
the normalization, and a real model's file switches heads; the only request is the file itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright_expect import expect

from attnlab import LessonOptions, explain_lesson
from attnlab.export import standalone_html
from attnlab.models.heads import explain_head
from attnlab.words.numfmt import num

pytestmark = pytest.mark.browser


def open_file(page: Any, path: Path) -> list[str]:
    """Open `path` from file://, refusing (and recording) every request; returns the record."""
    asked: list[str] = []

    page.route("**/*", lambda r: r.continue_() if r.request.url == path.as_uri() else r.abort())
    page.on("request", lambda req: asked.append(req.url))  # every request, refused or not
    page.goto(path.as_uri())
    expect()(page.get_by_role("status", name="Narration").locator(".beat-text")).not_to_be_empty()
    return asked


def table(page: Any, name: str) -> list[list[str]]:
    return (
        page.get_by_role("table", name=name)
        .locator("tbody tr")
        .evaluate_all("rs => rs.map(r => [...r.querySelectorAll('td')].map(td => td.textContent))")
    )


def shown(weights: Any) -> list[list[str]]:
    return [[num(float(w)) for w in row] for row in weights]


def test_a_lesson_file_works_offline(new_page, tmp_path: Path, artifacts: Path) -> None:
    ex = explain_lesson("by the river bank", focus="bank")
    path = tmp_path / "lesson.html"
    path.write_text(standalone_html(ex), encoding="utf-8")
    page = new_page()
    asked = open_file(page, path)
    text = page.get_by_role("status", name="Narration").locator(".beat-text")
    for b, told in enumerate(ex.beats):
        expect()(text).to_have_text(told.text)
        expect()(page.locator("canvas")).to_have_attribute("data-beat", told.key)
        if b < len(ex.beats) - 1:
            page.get_by_role("button", name="Next step", exact=True).click()
    assert table(page, "Attention weights") == shown(ex.trace.weights)
    page.screenshot(path=str(artifacts / "standalone-lesson.png"))

    page.get_by_role("button", name="river", exact=True).click()  # follow another token
    river = explain_lesson("by the river bank", focus="river")
    expect()(text).to_have_text(river.beats[5].text)
    page.get_by_label("Normalization").select_option("unscaled")
    sharp = explain_lesson("by the river bank", LessonOptions(mode="unscaled"), focus="river")
    expect()(text).to_have_text(sharp.beats[5].text)
    assert table(page, "Attention weights") == shown(sharp.trace.weights)

    page.get_by_label("Your own sentence").fill("at the savings bank")
    page.get_by_role("button", name="Show", exact=True).click()
    refusal = page.get_by_role("alert").filter(has_text="numbers for this sentence only")
    expect()(refusal).to_be_visible()
    expect()(text).to_have_text(sharp.beats[5].text)  # the lesson shown stays
    assert asked == [path.as_uri()], asked


def test_a_model_file_switches_heads_offline(new_page, tmp_path: Path, minilm, artifacts) -> None:
    mt = minilm.trace("by the river bank")
    path = tmp_path / "model.html"
    path.write_text(standalone_html(mt, layer=2, head=5, focus="bank"), encoding="utf-8")
    page = new_page()
    asked = open_file(page, path)
    name = "Real attention weights"
    caption = page.get_by_role("table", name=name).locator("caption")
    expect()(caption).to_contain_text("layer 2, head 5")
    assert table(page, name) == shown(mt.head(2, 5).weights)
    page.get_by_label("Head", exact=True).select_option("7")
    expect()(caption).to_contain_text("layer 2, head 7")
    assert table(page, name) == shown(mt.head(2, 7).weights)
    page.get_by_role("button", name="Next step", exact=True).click()
    page.get_by_role("button", name="Next step", exact=True).click()
    told = explain_head(mt, layer=2, head=7, focus=mt.focus_index("bank")).beats[2].text
    expect()(page.get_by_role("status", name="Narration").locator(".beat-text")).to_have_text(told)
    page.screenshot(path=str(artifacts / "standalone-model.png"))
    assert asked == [path.as_uri()], asked


def test_a_model_files_mask_says_the_file_holds_this_text_only(  # type: ignore[no-untyped-def]
    new_page, tmp_path: Path, minilm
) -> None:
    # Mask and compare runs the model again: the file cannot, and said nothing when clicked
    path = tmp_path / "model.html"
    path.write_text(standalone_html(minilm.trace("by the river bank")), encoding="utf-8")
    page = new_page()
    asked = open_file(page, path)
    panel = page.get_by_role("region", name="Mask a token: how much")
    panel.get_by_label("Word to mask").fill("river")
    panel.get_by_role("button", name="Mask and compare").click()
    said = panel.get_by_role("alert")
    expect()(said).to_be_visible()
    expect()(said).to_contain_text("numbers for this text and token only")
    border = panel.evaluate("el => getComputedStyle(el).borderTopStyle")
    assert border == "solid"  # the page's card (model_views.css), not a bare section
    assert asked == [path.as_uri()], asked
