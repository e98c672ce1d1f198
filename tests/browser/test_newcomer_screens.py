"""Issue 27's screens that misled or hid, in real Chromium: each test names what a newcomer saw
and fails on the page that showed it. Screenshots at 1280×800 and 390×844 in
test-artifacts/newcomer-*.png."""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright_expect import expect

from attnlab.words.numfmt import num

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 800}


def api(base_url: str, **params: Any) -> Any:
    query = urllib.parse.urlencode(params, doseq=True)
    with urllib.request.urlopen(f"{base_url}/api/lesson?{query}") as response:
        return json.load(response)


def open_page(new_page: Any, query: str = "", *, width: int = 1280, height: int = 800) -> Any:
    page = new_page(width=width, height=height)
    page.goto(f"/{query}")
    expect()(page.get_by_role("status", name="Narration").locator(".beat-text")).not_to_be_empty()
    expect()(page.get_by_role("table", name="Weights with sums")).to_be_visible()
    return page


def shot(page: Any, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"newcomer-{name}.png"))


def card(page: Any, heading: str) -> Any:
    return page.locator(".lab-card").filter(has=page.get_by_role("heading", name=heading))


def lab_cells(page: Any) -> list[list[str]]:
    return (
        page.get_by_role("table", name="Weights with sums")
        .locator("tbody tr")
        .evaluate_all(
            "rows => rows.map(r => [...r.querySelectorAll('td[data-i]')].map(td => td.textContent))"
        )
    )


def test_the_weights_now_card_follows_the_lessons_table(new_page, base_url, artifacts):
    # the bug: at step 1 the lab's "The weights now" showed the final weights while the
    # lesson's table was empty until the Score step
    lesson = api(base_url)
    page = open_page(new_page, "?beat=tokens")
    assert lab_cells(page) == [[""] * 4] * 4
    now = page.locator(".lab-now")
    expect()(now).to_contain_text("they come at step 4, Softmax")
    now.scroll_into_view_if_needed()
    shot(page, artifacts, "weights-now-step1")
    now.get_by_role("button", name="Go to the Softmax step").click()
    expect()(page.locator("canvas[data-beat]")).to_have_attribute("data-beat", "softmax")
    assert lab_cells(page)[3] == [num(float(w)) for w in lesson["weights"][3]]
    expect()(now.get_by_role("button", name="Go to the Softmax step")).to_be_hidden()


@pytest.mark.parametrize("size", [DESK, PHONE], ids=["1280", "390"])
def test_a_shuffle_with_rope_marks_no_moved_output_as_wrong(new_page, base_url, artifacts, size):
    # the bug: the RoPE shuffle card marked every moved output with a red ✗, though moving is
    # what positions are for
    page = open_page(new_page, "?positions=rope&shuffle=1&beat=softmax", **size)
    shuffle = page.get_by_role("list", name="Each token's output after the shuffle")
    expect()(shuffle.locator("li")).to_have_count(4)
    assert "✗" not in shuffle.inner_text()
    assert shuffle.locator("li.moved").count() >= 1  # some outputs did move
    positions = card(page, "Word order: shuffle and positions")
    assert positions.locator("p.warn").count() == 0
    shuffle.scroll_into_view_if_needed()
    shot(page, artifacts, f"rope-shuffle-{size['width']}")
    # without positions a moved output would be a fault, and nothing moves
    plain = open_page(new_page, "?shuffle=1&beat=softmax", **size)
    plain_list = plain.get_by_role("list", name="Each token's output after the shuffle")
    expect()(plain_list.locator("li.unchanged")).to_have_count(4)
