"""The three view tabs answer the arrow keys as one tab list (tablist.js).

Before tablist.js, Real model's ArrowRight went back to Toy lesson (two tabs hard-wired in
model_app.js) and Head atlas answered only ArrowLeft and Home.
"""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

ORDER = ("Toy lesson", "Real model", "Head atlas")


def expect() -> Any:
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect


def test_arrows_walk_every_tab_and_wrap(new_page, tab_to, console) -> None:
    page = new_page()
    page.goto("/")
    tab_to(page, "Toy lesson")
    for name in (*ORDER[1:], ORDER[0]):  # → → → : model, atlas, back to the lesson
        page.keyboard.press("ArrowRight")
        tab = page.get_by_role("tab", name=name)
        expect()(tab).to_be_focused()
        expect()(tab).to_have_attribute("aria-selected", "true")
        for other in (n for n in ORDER if n != name):
            other_tab = page.get_by_role("tab", name=other)
            expect()(other_tab).to_have_attribute("aria-selected", "false")
    page.keyboard.press("ArrowLeft")  # wraps backwards to the last tab
    expect()(page.get_by_role("tab", name="Head atlas")).to_be_focused()
    expect()(page.locator("#atlas")).to_be_visible()
    expect()(page.locator("#lesson")).to_be_hidden()
    page.keyboard.press("Home")
    expect()(page.get_by_role("tab", name="Toy lesson")).to_be_focused()
    expect()(page.locator("#lesson")).to_be_visible()
    expect()(page.locator("#atlas")).to_be_hidden()
    page.keyboard.press("End")
    expect()(page.get_by_role("tab", name="Head atlas")).to_have_attribute("aria-selected", "true")
