"""Issue 27's remaining screens, in real Chromium at 1280×800 and 390×844: Predict first covers
nothing it asks the learner to read and keeps its answer out of the narration, the budget and
blend bars name their tokens, presentation fits a phone, an export error stays readable, and the
lab's one-projection card shows the core's numbers. Screenshots in test-artifacts/issue27-*.png."""

from __future__ import annotations

import json
import re
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright_expect import expect

from attnlab.words.numfmt import num
from attnlab.words.page_lab import LAB_WORDS

pytestmark = pytest.mark.browser

DESK = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES = pytest.mark.parametrize("size", [DESK, PHONE], ids=["1280", "390"])


def api(base_url: str, **params: Any) -> Any:
    query = urllib.parse.urlencode(params, doseq=True)
    with urllib.request.urlopen(f"{base_url}/api/lesson?{query}") as response:
        return json.load(response)


def open_page(new_page: Any, query: str, size: dict[str, int]) -> Any:
    page = new_page(**size)
    page.goto(f"/{query}")
    expect()(page.get_by_role("status", name="Narration").locator(".beat-text")).not_to_be_empty()
    expect()(page.get_by_role("table", name="Weights with sums")).to_be_visible()
    return page


def shot(page: Any, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"issue27-{name}.png"))


def box(locator: Any) -> dict[str, float]:
    found = locator.bounding_box()
    assert found is not None, f"{locator} is not on the page"
    return found


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def narration(page: Any) -> Any:
    return page.get_by_role("status", name="Narration").locator(".beat-text")


@SIZES
def test_predict_first_covers_nothing_it_asks_the_learner_to_read(new_page, artifacts, size):
    # the bug: a fixed bar at the window's foot lay over bank's score row in the picture and in
    # the table at 1280×800, and over Export and Present on a phone
    page = open_page(new_page, "?predict=1&beat=score", size)
    lesson = page.locator("#lesson")
    canvas = lesson.get_by_role("img")
    expect()(canvas).to_have_attribute("data-beat", "score")
    table = page.get_by_role("table", name="Attention weights")
    bank_row = table.locator("tbody tr").nth(3)
    expect()(bank_row.locator("th")).to_have_text("bank")
    must_read = {
        "the picture": canvas,
        "bank's row in the table": bank_row,
        "Export": lesson.get_by_role("button", name="Export this view"),
        "Present": lesson.get_by_role("button", name="Present", exact=True),
    }
    questions = page.get_by_text("Which token will bank attend to most?")
    assert questions.count() >= 1
    for where in ("top", *must_read):  # a bar fixed to the window would move with the scroll
        if where != "top":
            must_read[where].scroll_into_view_if_needed()
        for q in range(questions.count()):
            question = questions.nth(q)
            if not question.is_visible():
                continue
            holder = box(question.locator("xpath=.."))  # the question with its guess buttons
            for name, thing in must_read.items():
                assert not overlap(holder, box(thing)), f"the question covers {name} ({where})"
    if size is DESK:  # and at the Score step the question is in view beside the scores
        page.evaluate("() => window.scrollTo(0, 0)")
        held = box(page.locator("#lesson").get_by_text("Which token will bank attend to most?"))
        assert held["y"] + held["height"] <= size["height"], held
    page.evaluate("() => window.scrollTo(0, 0)")
    shot(page, artifacts, f"predict-ask-{size['width']}")


def test_the_score_step_keeps_its_answer_until_the_guess(new_page, base_url, artifacts):
    # the bug: at the Score step the narration said "The best match is river." while the
    # Predict card still asked which token bank would attend to most
    lesson = api(base_url)
    told = next(b["text"] for b in lesson["narration"] if b["key"] == "score")
    withheld = lesson["predict"]["score_text"]
    assert "river" in told.split(".")[-2]  # the plain narration names the answer ...
    page = open_page(new_page, "?predict=1&beat=score", DESK)
    expect()(narration(page)).to_have_text(withheld)
    assert "best match is" not in withheld and "river 4.6 / 2 = 2.3" in withheld
    raw, scores = lesson["raw_scores"][3], lesson["scores"][3]
    for j, token in enumerate(lesson["tokens"]):  # ... the scores stay, as the trace has them
        assert f"{token} {num(raw[j])} / 2 = {num(scores[j])}" in withheld
    strip = page.locator("#lesson").get_by_role("group", name="Guess a token")
    strip.get_by_role("button", name="Guess river").click()
    expect()(page.locator("#lesson canvas[data-beat]")).to_have_attribute("data-beat", "softmax")
    verdict = page.locator("#lesson .lesson-guess .verdict")
    expect()(verdict).to_have_text(lesson["predict"]["notes"][lesson["predict"]["answer"]])
    shot(page, artifacts, "predict-verdict-1280")
    page.get_by_role("button", name="Previous step", exact=True).click()
    expect()(narration(page)).to_have_text(told)  # once guessed, the Score step says it
    expect()(page.locator("#lesson .lesson-guess")).to_be_hidden()


def test_presentation_fits_a_phone(new_page, artifacts):
    # the bug: presenting on a 390 px phone, the bar was 7 px wider than the screen and its
    # "Leave presentation" was cut off
    page = open_page(new_page, "?present=1&beat=softmax", PHONE)
    root = page.locator("#lesson .attnlab")
    expect()(root).to_have_class(re.compile(r"\bpresenting\b"))
    widths = page.evaluate(
        """() => { const r = document.querySelector('#lesson .attnlab');
                   return [document.documentElement.scrollWidth, innerWidth,
                           r.scrollWidth, r.clientWidth]; }"""
    )
    assert widths[0] <= widths[1] and widths[2] <= widths[3], widths
    for name in ("Previous step", "Next step", "Play", "Leave presentation"):
        button = box(root.get_by_role("button", name=name, exact=True))
        assert button["x"] >= 0 and button["x"] + button["width"] <= PHONE["width"], (name, button)
        assert button["y"] + button["height"] <= PHONE["height"], (name, button)
    shot(page, artifacts, "present-390")


LONG_TEXT = " ".join(["the river bank"] * 12)  # 36 words: past what a model's offline file holds


@SIZES
def test_an_export_error_is_readable_and_covers_nothing(new_page, console, artifacts, size):
    # "holds up to 32 tokens" was once drawn over "Follow the token" and cut at the left edge
    # (fixed in c718b8c at 1280 with a made-up error): the real reason, at both sizes, now
    # written under the disabled item while the menu is open
    console.allow("status of 400")
    page = new_page(**size)
    query = urllib.parse.urlencode({"view": "model", "model.text": LONG_TEXT})
    page.goto(f"/?{query}")
    view = page.locator("#real-model")
    expect()(view.get_by_role("table", name="Real attention weights")).to_be_visible(timeout=60_000)
    view.get_by_role("button", name="Export this view").click()
    # since issue 27's last items the reason is said before the click: the disabled item's
    # description (test_newcomer_27b.py), read here for where it is drawn
    item = view.get_by_role("menuitem", name="Offline page (HTML)", exact=True)
    expect()(item).to_have_attribute("aria-disabled", "true")
    status = view.locator(".export-why:not([hidden])")
    expect()(status).to_contain_text("32", timeout=30_000)
    said = box(status)
    assert said["x"] >= 0 and said["x"] + said["width"] <= size["width"], said
    # an open menu lies over the page as any menu does; closed, it and its reason cover nothing
    status.scroll_into_view_if_needed()
    shot(page, artifacts, f"export-error-{size['width']}")
    page.keyboard.press("Escape")
    expect()(view.get_by_role("menu")).to_be_hidden()


@SIZES
def test_the_one_projection_card_shows_the_cores_numbers(new_page, artifacts, size):
    # the seed's first common mistake had an experiment in the core, the CLI and the API but no
    # card on the page: bank's row with one matrix for Q, K and V beside the real head's
    from attnlab.lesson.one_projection import one_projection

    page = open_page(new_page, "", size)
    found = page.get_by_role("region", name="One matrix for Q, K and V")
    found.scroll_into_view_if_needed()  # the card asks for its numbers once it is on screen
    for sentence in ("by the river bank", "at the savings bank"):
        found.get_by_label("Sentence").select_option(label=sentence)
        core = one_projection(sentence)
        f = core.focus
        real_self, one_self = core.self_scores
        table = found.get_by_role("table", name=f"{sentence}: one matrix against three")
        rows = table.locator("tbody tr")
        expect()(rows).to_have_count(len(core.tokens) + 1)  # a row per key, then the own score
        real = [num(float(w)) for w in core.real.weights[f]] + [num(float(real_self[f]))]
        one = [num(float(w)) for w in core.one.weights[f]] + [num(float(one_self[f]))]
        cells = [rows.nth(j).locator("td").all_inner_texts() for j in range(len(real))]
        assert [c[0] for c in cells] == real
        assert [c[1] for c in cells] == one
        assert int(core.one.weights[f].argmax()) == f  # the diagonal wins with Q = K = V ...
        assert int(core.real.weights[f].argmax()) != f  # ... and not in the real head
        note = table.locator("xpath=ancestor::figure[1]").locator("figcaption")
        expect()(note).to_have_text(core.finding)
        assert "the diagonal tends to win" in core.note
    found.scroll_into_view_if_needed()
    found.screenshot(path=str(artifacts / f"issue27-one-projection-{size['width']}.png"))


def test_the_one_projection_card_holds_back_its_weights_before_the_guess(new_page):
    page = open_page(new_page, "?predict=1&beat=score", DESK)
    found = page.get_by_role("region", name="One matrix for Q, K and V")
    found.scroll_into_view_if_needed()
    expect()(found.get_by_role("status")).to_have_text(LAB_WORDS["lab.one.hidden"])
    expect()(found.get_by_role("table")).to_have_count(0)
    page.locator("#lesson").get_by_role("button", name="Guess river").click()
    expect()(found.get_by_role("table")).to_have_count(1)  # the Sentence select picks which


PICTURE_TEXTS = """async (beat) => {
  const { layout } = await import('/static/layout.js');
  const { decodeLesson } = await import('/static/format.js');
  const canvas = document.querySelector('#lesson canvas[data-beat]');
  const lesson = await (await fetch('/api/lesson')).json();
  const words = (await (await fetch('/api/presets')).json()).words;
  const size = { width: canvas.clientWidth, height: canvas.clientHeight };
  const out = layout(decodeLesson(lesson), size, beat, lesson.focus, words);
  return out.shapes.filter((s) => s.kind === 'text' && s.text).map((s) => s.text);
}"""


@SIZES
def test_the_bars_name_their_tokens_at_the_pages_sizes(new_page, base_url, artifacts, size):
    # the bugs: budget labels "7%" with no word (1280 and phone); Blend's bar columns headed
    # "ge… fi… fu… am…" on a phone. The page's own layout at its canvas's size, read as text.
    from attnlab.words.numfmt import percent

    lesson = api(base_url)
    page = open_page(new_page, "?beat=softmax", size)
    texts = page.evaluate(PICTURE_TEXTS, "softmax")
    assert not [t for t in texts if re.fullmatch(r"\d+%", t)], texts
    for token, w in zip(lesson["tokens"], lesson["weights"][3], strict=True):
        assert f"{token} {percent(w)}" in texts, (token, texts)
    page.locator("#lesson canvas[data-beat]").screenshot(
        path=str(artifacts / f"issue27-budget-{size['width']}.png")
    )
    page.get_by_role("button", name="Next step", exact=True).click()
    expect()(page.locator("#lesson canvas[data-beat]")).to_have_attribute("data-beat", "blend")
    blend = page.evaluate(PICTURE_TEXTS, "blend")
    assert not [t for t in blend if t.endswith("…")], blend
    joined = " ".join(blend)
    for dim in lesson["dim_names"]:
        assert dim in joined, (dim, blend)
    page.locator("#lesson canvas[data-beat]").screenshot(
        path=str(artifacts / f"issue27-blend-{size['width']}.png")
    )
