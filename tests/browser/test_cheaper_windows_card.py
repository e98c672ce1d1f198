"""The Sliding windows card on the page: for the focus row, the keys each scheme keeps and the
share of the full row's attention it throws away, each the Python core's number (issue 26, item
4), at 1280 × 800 and 390 × 844; screenshots in test-artifacts/cheaper-windows-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from attnlab.core.attention import attend
from attnlab.lesson.compute import compute
from attnlab.lesson.options import LessonOptions

pytestmark = pytest.mark.browser

SENTENCE = "by the river bank"
FOCUS = 3


def _expected() -> dict[str, tuple[list[str], float]]:
    """The focus row of the lesson's causal trace, masked by each scheme, from `attend` itself."""
    t = compute(SENTENCE, LessonOptions(causal=True)).trace
    full = attend(t.queries, t.keys, t.values, mask=np.tri(len(t.tokens), dtype=bool),
                  temperature=t.divisor).weights[FOCUS]  # fmt: skip
    out = {}
    for scheme, w, s in (("full", None, 0), ("window", 2, 0), ("sinks", 2, 1)):
        kept = [j for j in range(FOCUS + 1) if w is None or j > FOCUS - w or j < s]
        dropped = float(full[: FOCUS + 1].sum() - full[kept].sum())
        out[scheme] = ([t.tokens[j] for j in kept], dropped)
    return out


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_each_scheme_shows_its_kept_keys_and_the_mass_it_drops(
    new_page: Any, artifacts: Path, size: tuple[int, int]
) -> None:
    from playwright.sync_api import expect

    page = new_page(width=size[0], height=size[1])
    page.goto("/")
    page.locator("details.cheaper > summary").click()
    card = page.get_by_role("region", name="Sliding windows and attention sinks")
    card.scroll_into_view_if_needed()
    want = _expected()
    assert want["window"][1] > 0.01 and want["sinks"][1] < want["window"][1]  # a real loss
    for scheme, (kept, dropped) in want.items():
        box = card.locator(f"[data-scheme='{scheme}']")
        expect(box.locator(".kept")).to_have_text(kept)
        expect(box).to_contain_text(f"throws away {round(100 * dropped)} % of")
    n_dropped = card.locator("[data-scheme='window'] .dropped")
    expect(n_dropped.first).to_be_visible()
    card.screenshot(path=str(artifacts / f"cheaper-windows-{size[0]}x{size[1]}.png"))
