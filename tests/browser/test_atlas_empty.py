"""The Head atlas tab on a server given no atlas: a card that says how to make one and serve it,
the commands the words package holds, and no 400 in the console (GET /api/atlas/names is 200
with no names; before it, the tab asked /api/atlas and showed its refusal as one grey line)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright_expect import expect

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_no_atlas_served_says_how_to_make_one(
    new_page: Any, artifacts: Path, width: int, height: int
) -> None:
    from attnlab.words.atlas_words import ATLAS_VIEW_WORDS as W

    page = new_page(width=width, height=height)
    page.goto("/?view=atlas")
    card = page.get_by_role("status").filter(has_text=W["atlas.none_title"])
    expect()(card).to_be_visible()
    expect()(card.get_by_role("heading", name=W["atlas.none_title"])).to_be_visible()
    codes = card.locator("pre code")
    expect()(codes).to_have_text([W["atlas.none_make"], W["atlas.none_serve"]])
    box = card.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    page.screenshot(path=str(artifacts / f"atlas-none-{width}x{height}.png"))
