"""The Export menu's "Offline page (HTML)", in Chromium: chosen by keyboard alone in the lesson
and in the Real model view, its download (the server's GET /api/export/*.html, saved as a blob)
opened from file:// with every other request refused shows the numbers the page showed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright_expect import expect

pytestmark = pytest.mark.browser

MENU = "Export this view: pictures, numbers, a file that works offline"
ITEM = "Offline page (HTML)"


def on_screen(page: Any, table: str) -> dict[str, Any]:
    """What a learner reads: the step's narration, the step, the weights table's numbers."""
    text = page.get_by_role("status", name="Narration").locator(".beat-text")
    expect()(text).not_to_be_empty()
    rows = (
        page.get_by_role("table", name=table)
        .locator("tbody tr")
        .evaluate_all("rs => rs.map(r => [...r.querySelectorAll('td')].map(td => td.textContent))")
    )
    beat = page.locator("canvas[data-beat]").first.get_attribute("data-beat")
    return {"narration": text.text_content(), "beat": beat, "weights": rows}


def save_by_keyboard(page: Any, tab_to: Any, tmp_path: Path, artifacts: Path, shot: str) -> Path:
    """Tab to the Export menu, open it, End to the offline page's item, Enter: the download."""
    tab_to(page, MENU)
    page.keyboard.press("Enter")
    page.keyboard.press("End")
    assert page.evaluate("() => document.activeElement.textContent") == ITEM
    page.screenshot(path=str(artifacts / shot))
    with page.expect_download() as info:
        page.keyboard.press("Enter")
    download = info.value
    assert download.suggested_filename.endswith(".html")
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    return path


def open_offline(page: Any, path: Path) -> list[str]:
    """Open `path` from file://, every other request refused (and recorded)."""
    asked: list[str] = []
    page.route("**/*", lambda r: r.continue_() if r.request.url == path.as_uri() else r.abort())
    page.on("request", lambda req: asked.append(req.url))
    page.goto(path.as_uri())
    return asked


def test_the_lessons_offline_page_holds_the_state_on_screen(
    new_page, tab_to, tmp_path: Path, artifacts: Path
) -> None:
    page = new_page()
    page.goto("/?sentence=by+the+river+bank&mode=unscaled&focus=river&beat=softmax")
    expect()(page.locator("#lesson canvas")).to_have_attribute("data-beat", "softmax")
    seen = on_screen(page, "Attention weights")
    item = page.locator("#lesson").get_by_role("menuitem", name=ITEM, include_hidden=True)
    assert "every token to follow" in (item.get_attribute("title") or "")  # what the file holds
    path = save_by_keyboard(page, tab_to, tmp_path, artifacts, "export-offline-menu.png")
    assert path.name == "attnlab-by-the-river-bank-river-unscaled-softmax.html"

    offline = new_page()
    asked = open_offline(offline, path)
    assert on_screen(offline, "Attention weights") == seen
    expect()(offline.get_by_label("Normalization")).to_have_value("unscaled")
    offline.screenshot(path=str(artifacts / "export-offline-lesson.png"))
    assert asked == [path.as_uri()], asked


def test_the_models_offline_page_holds_the_head_token_and_step(
    new_page, tab_to, tmp_path: Path, artifacts: Path, minilm
) -> None:
    page = new_page()
    page.goto("/?view=model&model.text=by+the+river+bank&model.layer=2&model.head=5"
              "&model.focus=river&model.beat=score")  # fmt: skip
    table = page.get_by_role("table", name="Real attention weights")
    expect()(table.locator("caption")).to_contain_text("layer 2, head 5")
    expect()(page.get_by_role("status", name="Model status")).to_be_empty()
    expect()(page.locator("#real-model canvas[data-beat]").first).to_have_attribute(
        "data-beat", "score"
    )
    seen = on_screen(page.locator("#real-model"), "Real attention weights")
    path = save_by_keyboard(page, tab_to, tmp_path, artifacts, "export-offline-model-menu.png")

    offline = new_page()
    asked = open_offline(offline, path)
    caption = offline.get_by_role("table", name="Real attention weights").locator("caption")
    expect()(caption).to_contain_text("layer 2, head 5")
    assert on_screen(offline, "Real attention weights") == seen
    offline.screenshot(path=str(artifacts / "export-offline-model.png"))
    assert asked == [path.as_uri()], asked
