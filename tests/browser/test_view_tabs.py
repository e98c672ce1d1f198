"""The three view tabs answer the arrow keys as one tab list (tablist.js).

Before tablist.js, Real model's ArrowRight went back to Toy lesson (two tabs hard-wired in
model_app.js) and Head atlas answered only ArrowLeft and Home.
"""

from __future__ import annotations

import pytest
from playwright_expect import expect

pytestmark = pytest.mark.browser

ORDER = ("Toy lesson", "Real model", "Head atlas", "Watch it learn")


def test_arrows_walk_every_tab_and_wrap(new_page, tab_to, console) -> None:
    page = new_page()
    page.goto("/")
    tab_to(page, "Toy lesson")
    for name in (*ORDER[1:], ORDER[0]):  # → → → →: model, atlas, train, back to the lesson
        page.keyboard.press("ArrowRight")
        tab = page.get_by_role("tab", name=name)
        expect()(tab).to_be_focused()
        expect()(tab).to_have_attribute("aria-selected", "true")
        for other in (n for n in ORDER if n != name):
            other_tab = page.get_by_role("tab", name=other)
            expect()(other_tab).to_have_attribute("aria-selected", "false")
    page.keyboard.press("ArrowLeft")  # wraps backwards to the last tab
    expect()(page.get_by_role("tab", name="Watch it learn")).to_be_focused()
    expect()(page.locator("#train")).to_be_visible()
    page.keyboard.press("ArrowLeft")
    expect()(page.get_by_role("tab", name="Head atlas")).to_be_focused()
    expect()(page.locator("#atlas")).to_be_visible()
    expect()(page.locator("#lesson")).to_be_hidden()
    page.keyboard.press("Home")
    expect()(page.get_by_role("tab", name="Toy lesson")).to_be_focused()
    expect()(page.locator("#lesson")).to_be_visible()
    expect()(page.locator("#atlas")).to_be_hidden()
    page.keyboard.press("End")
    expect()(page.get_by_role("tab", name="Watch it learn")).to_have_attribute(
        "aria-selected", "true"
    )


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_watch_it_learn_is_a_tab_found_at_the_top(
    new_page, artifacts, console, width: int, height: int
) -> None:
    """Issue 25, item 2: the Train view was the Toy lesson's last section, 55 Tab presses and
    ~5,750 px down on a phone. Now it is the fourth tab: its panel shows the view's heading in
    the first screen, the lesson is hidden, and ?view=train opens it again."""
    from attnlab.words.training import PAGE

    console.allow("400")  # this server was given no atlas
    page = new_page(width=width, height=height)
    page.goto("/")
    tab = page.get_by_role("tab", name=PAGE["tab"])  # the page's name is the words' name
    tab.click()
    expect()(tab).to_have_attribute("aria-selected", "true")
    heading = page.get_by_role("heading", name=PAGE["heading"])
    expect()(heading).to_be_visible()
    top = heading.bounding_box()
    assert top is not None and top["y"] + top["height"] <= height  # in the first screen
    expect()(page.locator("#lesson")).to_be_hidden()
    expect()(page.locator("#lab")).to_be_hidden()
    assert "view=train" in page.url
    page.screenshot(path=str(artifacts / f"train-tab-{width}x{height}.png"))
    page.get_by_role("tab", name="Toy lesson").click()
    expect()(page.locator("#train")).to_be_hidden()
    expect()(page.locator("#lesson")).to_be_visible()
    page.goto("/?view=train")
    expect()(page.get_by_role("heading", name=PAGE["heading"])).to_be_visible()
    expect()(page.get_by_role("tab", name=PAGE["tab"])).to_have_attribute("aria-selected", "true")
