"""Issue 27's last newcomer findings, in real Chromium at 1280×800 and 390×844: the Real model page
with SmolLM2 fits a phone, Predict first gives no best-match hint before the guess, the
one-projection card is live, and the export menu says before the click that an offline page of
a long real-model text cannot be made. Screenshots in test-artifacts/newcomer27b-*.png."""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

DESK = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES = pytest.mark.parametrize("size", [DESK, PHONE], ids=["1280", "390"])


def expect() -> Any:
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect


def api(base_url: str, path: str, **params: Any) -> Any:
    query = urllib.parse.urlencode(params, doseq=True)
    with urllib.request.urlopen(f"{base_url}{path}?{query}") as response:
        return json.load(response)


def shot(page: Any, artifacts: Path, name: str, *, full: bool = False) -> None:
    page.screenshot(path=str(artifacts / f"newcomer27b-{name}.png"), full_page=full)


def open_model(new_page: Any, size: dict[str, int], **state: Any) -> Any:
    q = urllib.parse.urlencode({"view": "model", **state})
    page = new_page(**size)
    page.set_default_timeout(60_000)
    page.goto(f"/?{q}")
    table = page.get_by_role("table", name="Real attention weights")
    expect()(table).to_be_visible(timeout=60_000)
    expect()(page.get_by_role("status", name="Model status")).to_be_empty(timeout=60_000)
    return page


@pytest.mark.usefixtures("smollm2")
@SIZES
def test_smollm2_on_the_real_model_page_scrolls_no_sideways(new_page, artifacts, size):
    # the bug: at 390 px the RoPE plot (an SVG 620 wide, max-width 620px) widened the page to
    # 645 px and cut the cards off
    page = open_model(new_page, size, **{"model.name": "smollm2"})
    plot = page.locator(".rm-rope-plot")
    expect()(plot).to_be_visible()
    plot.scroll_into_view_if_needed()
    shot(page, artifacts, f"smollm2-rope-{size['width']}")
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"the page is {widths[0]} px wide in a {widths[1]} px window"
    rope = plot.bounding_box()
    assert rope is not None and rope["x"] >= 0 and rope["x"] + rope["width"] <= size["width"]
