"""Presentation mode, in Chromium: the picture and the narration fill a 1280×800 projector and
one at 200 % zoom (640×400 CSS pixels at 2 device pixels each), the steps move by PageDown /
PageUp (a clicker) and the arrows, Play has a speed, and the state (with the cell) is in the URL."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright_expect import expect

from attnlab import explain_lesson

pytestmark = pytest.mark.browser


def beat_of(page: Any) -> Any:
    return page.locator("#lesson canvas")


def narration(page: Any) -> Any:
    return page.get_by_role("status", name="Narration")


def ready(page: Any, query: str) -> Any:
    page.goto(f"/{query}")
    expect()(narration(page).locator(".beat-text")).not_to_be_empty()
    return page


def inside(box: dict[str, float], width: int, height: int) -> bool:
    return (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= width + 0.5
        and box["y"] + box["height"] <= height + 0.5
    )


def test_present_at_1280_by_800_and_step_with_a_clicker(new_page, artifacts: Path) -> None:
    page = ready(new_page(1280, 800), "?beat=score")
    page.get_by_role("button", name="Present", exact=True).click()
    root = page.locator("#lesson .attnlab")
    expect()(root).to_have_class("attnlab presenting")
    expect()(page.get_by_label("Context")).to_be_hidden()  # the settings are out of the way
    expect()(page.get_by_role("table", name="Attention weights")).to_be_hidden()
    picture = beat_of(page).bounding_box()
    assert inside(picture, 1280, 800) and picture["width"] > 700 and picture["height"] > 500
    text = narration(page)
    assert inside(text.bounding_box(), 1280, 800)
    size = float(text.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
    assert size >= 24, f"narration at {size}px is too small for a projector"
    for name in ("Next step", "Previous step", "Play", "Leave presentation"):
        assert inside(page.get_by_role("button", name=name, exact=True).bounding_box(), 1280, 800)
    page.screenshot(path=str(artifacts / "present-1280x800.png"))
    ex = explain_lesson("by the river bank", focus="bank")
    page.keyboard.press("PageDown")
    expect()(beat_of(page)).to_have_attribute("data-beat", "softmax")
    expect()(text.locator(".beat-text")).to_have_text(ex.beats[3].text)
    page.keyboard.press("PageDown")
    expect()(beat_of(page)).to_have_attribute("data-beat", "blend")
    page.keyboard.press("PageUp")
    page.keyboard.press("ArrowLeft")
    expect()(beat_of(page)).to_have_attribute("data-beat", "score")
    assert "present=1" in page.url and "beat=score" in page.url
    page.keyboard.press("Escape")
    expect()(root).to_have_class("attnlab")
    assert "present=1" not in page.url
    expect()(page.get_by_label("Context")).to_be_visible()


def test_pagedown_scrolls_the_page_when_not_presenting(new_page) -> None:
    page = ready(new_page(1280, 800), "?beat=score")
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("PageDown")
    page.wait_for_timeout(200)
    expect()(beat_of(page)).to_have_attribute("data-beat", "score")


@pytest.fixture
def zoomed(browser: Any, base_url: str, console: Any) -> Iterator[Any]:
    """A page at 200 % zoom on a 1280×800 projector: 640×400 CSS pixels, 2 device pixels each."""
    context = browser.new_context(
        viewport={"width": 640, "height": 400},
        device_scale_factor=2,
        reduced_motion="reduce",
        base_url=base_url,
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    console.watch(page)
    yield page
    context.close()
    assert console.unexpected() == []


@pytest.mark.parametrize("beat", ["softmax", "blend"])
def test_present_at_200_percent_zoom(zoomed, artifacts: Path, beat: str) -> None:
    page = ready(zoomed, f"?sentence=at+the+savings+bank&focus=3&beat={beat}&present=1")
    expect()(page.locator("#lesson .attnlab")).to_have_class("attnlab presenting")
    picture = beat_of(page).bounding_box()
    assert inside(picture, 640, 400) and picture["height"] > 150
    assert inside(narration(page).bounding_box(), 640, 400)
    for name in ("Next step", "Previous step", "Play", "Leave presentation"):
        assert inside(page.get_by_role("button", name=name, exact=True).bounding_box(), 640, 400)
    assert inside(page.get_by_label("Play speed").bounding_box(), 640, 400)
    size = float(narration(page).evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
    assert size >= 13, f"narration at {size} CSS px"  # 26 device pixels on the projector
    page.screenshot(path=str(artifacts / f"present-200pct-{beat}.png"))
    page.keyboard.press("PageDown")
    after = "blend" if beat == "softmax" else "parallel"
    expect()(beat_of(page)).to_have_attribute("data-beat", after)


def test_the_play_speed_sets_the_time_per_step(new_page) -> None:
    page = ready(new_page(1280, 800), "?beat=tokens&present=1")
    page.get_by_label("Play speed").select_option("fast")
    page.get_by_role("button", name="Play", exact=True).click()
    # Normal waits 3.8 s per step; Fast 2 s, so two steps inside 5.5 s are the fast speed's
    expect()(beat_of(page)).to_have_attribute("data-beat", "score", timeout=5500)
    page.get_by_role("button", name="Pause", exact=True).click()


def test_the_cell_read_is_kept_in_the_url(new_page) -> None:
    page = ready(new_page(1280, 800), "?beat=parallel")
    cell_1_2 = "td[data-i='1'][data-j='2']"
    page.get_by_role("table", name="Attention weights").locator(cell_1_2).click()
    expect()(page).to_have_url(re.compile(r"cell=1%2C2"))
    again = ready(new_page(1280, 800), page.url.split("/", 3)[3])
    cell = again.get_by_role("table", name="Attention weights").locator(cell_1_2)
    expect()(cell).to_have_class(re.compile(r"\breading\b"))
