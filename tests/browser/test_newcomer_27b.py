"""Issue 27's last newcomer findings, in real Chromium at 1280×800 and 390×844: the Real model page
with SmolLM2 fits a phone, Predict first gives no best-match hint before the guess, the
one-projection card is live, and the export menu says before the click that an offline page of
a long real-model text cannot be made. Screenshots in test-artifacts/newcomer27b-*.png."""

from __future__ import annotations

import json
import re
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright_expect import expect

pytestmark = pytest.mark.browser

DESK = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
MENU = "Export this view: pictures, numbers, a file that works offline"
SIZES = pytest.mark.parametrize("size", [DESK, PHONE], ids=["1280", "390"])


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


def open_lesson(new_page: Any, query: str, size: dict[str, int]) -> Any:
    page = new_page(**size)
    page.goto(f"/{query}")
    expect()(page.get_by_role("status", name="Narration").locator(".beat-text")).not_to_be_empty()
    return page


@SIZES
def test_predict_first_gives_no_best_match_before_the_guess(new_page, base_url, artifacts, size):
    # the bug: at the Score step, while the card asked which token bank attends to most, the
    # canvas's accessible name said "the best match is river" and the read cell (bank→river)
    # stood out bold with a thick border in the table beside the picture
    lesson = api(base_url, "/api/lesson")
    answer = lesson["predict"]["answer_token"]
    page = open_lesson(new_page, "?predict=1&beat=score", size)
    canvas = page.locator("canvas[data-beat]")
    expect()(canvas).to_have_attribute("data-beat", "score")
    label = canvas.get_attribute("aria-label") or ""
    assert label and "best match" not in label and answer not in label, label
    page.get_by_role("table", name="Attention weights").scroll_into_view_if_needed()
    shot(page, artifacts, f"predict-score-{size['width']}")
    assert marked_cells(page) == [], "a cell stands out before the guess"
    # the guess given, the hints come back: the best match named, the answer's cell outlined
    page.locator(".lesson-guess button.guess").first.click()
    expect()(canvas).to_have_attribute("aria-label", re.compile(answer))
    cell = f"{lesson['focus']},{lesson['predict']['answer']}"
    assert any(f": {cell} " in m for m in marked_cells(page)), marked_cells(page)


def marked_cells(page: Any) -> list[str]:
    """The visible table cells that stand out: outlined, bold or with a thick border."""
    return page.evaluate(
        """() => [...document.querySelectorAll('td')].filter(c => {
             const s = getComputedStyle(c);
             return c.offsetParent !== null && (Number(s.fontWeight) >= 600
               || s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0
               || parseFloat(s.borderTopWidth) >= 2);
           }).map(c => (c.closest('table')?.getAttribute('aria-label') ?? '') + ': '
                       + c.dataset.i + ',' + c.dataset.j + ' ' + c.textContent)"""
    )


@SIZES
def test_the_one_projection_card_is_live_and_short(new_page, artifacts, size):
    # the bugs: on a phone the card was a long wall of text nearly the same for both contexts,
    # and "|q|²" broke between "|q|" and "²". Now a Sentence select shows one sentence's row,
    # three matrices beside one, as bars with the core's numbers, and the finding once, short.
    from attnlab.lesson.one_projection import one_projection
    from attnlab.words.numfmt import num

    page = open_lesson(new_page, "", size)
    found = page.get_by_role("region", name="One matrix for Q, K and V")
    found.scroll_into_view_if_needed()
    pick = found.get_by_label("Sentence")
    for sentence in ("at the savings bank", "by the river bank"):
        pick.select_option(label=sentence)
        core = one_projection(sentence)
        f = core.focus
        table = found.get_by_role("table", name=f"{sentence}: one matrix against three")
        expect()(table).to_be_visible()
        expect()(found.get_by_role("table")).to_have_count(1)
        rows = table.locator("tbody tr")
        expect()(rows).to_have_count(len(core.tokens) + 1)
        for j in range(len(core.tokens)):
            cells = rows.nth(j).locator("td").all_inner_texts()
            assert cells == [
                num(float(core.real.weights[f, j])),
                num(float(core.one.weights[f, j])),
            ]
            widths = (
                rows.nth(j)
                .locator(".fill")
                .evaluate_all("els => els.map(e => e.getBoundingClientRect().width)")
            )
            font = rows.nth(j).evaluate("r => parseFloat(getComputedStyle(r).fontSize)")
            expected = [
                5 * font * float(core.real.weights[f, j]),
                5 * font * float(core.one.weights[f, j]),
            ]
            assert all(abs(a - b) <= 1.5 for a, b in zip(widths, expected, strict=True)), widths
        real_self, one_self = core.self_scores
        assert rows.nth(len(core.tokens)).locator("td").all_inner_texts() == [
            num(float(real_self[f])),
            num(float(one_self[f])),
        ]
        finding = found.locator("figcaption")
        expect()(finding).to_have_text(core.finding)
        assert len(core.finding) < len(core.note) / 2
        # "|q|²" on one line wherever the finding wraps
        lines = finding.evaluate(
            """el => { const t = el.firstChild, r = document.createRange(), tops = [];
                 const at = t.data.indexOf('|');
                 for (let k = at; k < at + 5; k++) { r.setStart(t, k); r.setEnd(t, k + 1);
                   const b = r.getClientRects()[0];
                   if (b && b.width > 0) tops.push(Math.round(b.top)); }
                 return tops; }"""
        )
        assert len(set(lines)) == 1, lines
    shot_el = found
    shot_el.screenshot(path=str(artifacts / f"newcomer27b-one-projection-{size['width']}.png"))


LONG = " ".join(["the farmers walked along the muddy river bank"] * 6)


@SIZES
def test_the_offline_page_item_says_before_the_click_that_the_text_is_too_long(
    new_page, base_url, artifacts, size
):
    # the bug: for a 48-token Real model text "Offline page (HTML)" looked usable and failed
    # only after the click ("holds up to 32 tokens")
    from attnlab.export.standalone import MODEL_TOKENS_AT_MOST
    from attnlab.words.page_export import EXPORT_WORDS

    n = api(base_url, "/api/model/trace", text=LONG, grid="none")["window"]["n"]
    assert n > MODEL_TOKENS_AT_MOST
    page = open_model(new_page, size, **{"model.text": LONG})
    page.locator("#real-model").get_by_role("button", name=MENU).click()
    item = page.get_by_role("menuitem", name="Offline page (HTML)")
    expect()(item).to_be_visible()
    expect()(item).to_have_attribute("aria-disabled", "true")
    reason = EXPORT_WORDS["export.html_too_long"].format(n=n, limit=MODEL_TOKENS_AT_MOST)
    expect()(item).to_have_accessible_description(reason)
    shot(page, artifacts, f"offline-refused-{size['width']}")
    item.dispatch_event("click")  # a click anyway (Playwright refuses a disabled item)
    status = page.locator("#real-model .export-status")
    expect()(status).to_be_empty()  # nothing asked, nothing failed
    # a short text: the item is usable again
    page.keyboard.press("Escape")
    box = page.get_by_label("Text", exact=True)
    box.fill("The river bank")
    box.press("Enter")
    expect()(
        page.get_by_role("table", name="Real attention weights").locator("tbody tr")
    ).to_have_count(
        api(base_url, "/api/model/trace", text="The river bank", grid="none")["window"]["n"]
    )
    page.locator("#real-model").get_by_role("button", name=MENU).click()
    expect()(item).not_to_have_attribute("aria-disabled", "true")
