"""The lesson page in real Chromium: the six beats show the API's numbers, and the page is
driven through its accessible names (Context, Normalization, Previous step, Next step, Play,
the token buttons, the Narration region and the Attention weights table)."""

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

pytestmark = pytest.mark.browser

SENTENCES = ("by the river bank", "at the savings bank")
MODES = {"scaled": "Scaled", "unscaled": "No √dₖ", "uniform": "Uniform"}
BEATS = ("tokens", "project", "score", "softmax", "blend", "parallel")


def api(base_url: str, path: str = "/api/lesson", **params: Any) -> Any:
    query = urllib.parse.urlencode({k: v for k, v in params.items() if v is not None})
    with urllib.request.urlopen(f"{base_url}{path}?{query}") as response:
        return json.load(response)


def open_lesson(page: Any, query: str = "") -> Any:
    page.goto(f"/{query}")
    expect()(narration(page).locator(".beat-text")).not_to_be_empty()
    return page


def narration(page: Any) -> Any:
    return page.get_by_role("status", name="Narration")


def button(page: Any, name: str) -> Any:
    return page.get_by_role("button", name=name, exact=True)


def show_final_weights(page: Any) -> None:
    """The side table follows the beat; its button shows the final weights at any beat."""
    table = page.get_by_role("table", name="Attention weights")
    if table.get_attribute("data-stage") != "weights":
        page.get_by_role("button", name="Show the final weights").click()
    expect()(table).to_have_attribute("data-stage", "weights")


def table_numbers(page: Any) -> list[list[str]]:
    table = page.get_by_role("table", name="Attention weights")
    show_final_weights(page)
    return table.locator("tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.querySelectorAll('td')].map(td => td.textContent))"
    )


def table_headers(page: Any) -> tuple[list[str], list[str]]:
    table = page.get_by_role("table", name="Attention weights")
    cols = table.locator("thead th").all_text_contents()
    rows = table.locator("tbody th").evaluate_all("hs => hs.map(h => h.textContent)")
    return cols, rows


def api_table(lesson: dict[str, Any]) -> list[list[str]]:
    return [[num(float(w)) for w in row] for row in lesson["weights"]]


def argmax(row: list[float]) -> int:
    return max(range(len(row)), key=lambda j: (row[j], -j))


def check_beat(page: Any, lesson: dict[str, Any], b: int) -> None:
    told = lesson["narration"][b]
    expect()(narration(page).locator(".beat-text")).to_have_text(told["text"])
    expect()(narration(page).locator(".beat-title")).to_contain_text(told["title"])
    canvas = page.get_by_role("img")
    expect()(canvas).to_have_attribute("data-beat", BEATS[b])
    if BEATS[b] == "blend":
        target = argmax(lesson["weights"][lesson["focus"]])
        expect()(canvas).to_have_attribute("data-ray-to", str(target))
        expect()(canvas).to_have_attribute("data-ray-from", str(lesson["focus"]))
        assert lesson["tokens"][target] in canvas.get_attribute("aria-label")


def canvas_ink(page: Any) -> int:
    """How many pixels of the canvas are not white: never a blank picture."""
    return page.get_by_role("img").evaluate(
        """c => { const copy = document.createElement('canvas');
                 copy.width = c.width; copy.height = c.height;
                 const g = copy.getContext('2d', { willReadFrequently: true });
                 g.drawImage(c, 0, 0);
                 const d = g.getImageData(0, 0, c.width, c.height).data;
                 let n = 0;
                 for (let k = 0; k < d.length; k += 4) if (d[k] < 240) n++;
                 return n; }"""
    )


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("sentence", SENTENCES)
def test_six_beats_show_the_api_numbers(new_page, base_url, sentence, mode) -> None:
    lesson = api(base_url, sentence=sentence, mode=mode)
    q = urllib.parse.urlencode({"sentence": sentence, "mode": mode})
    page = open_lesson(new_page(), f"?{q}")
    expect()(page.get_by_label("Context")).to_have_value(sentence)
    expect()(page.get_by_label("Normalization")).to_have_value(mode)
    assert table_numbers(page) == api_table(lesson)
    cols, rows = table_headers(page)
    assert cols == ["query ↓ / key →", *lesson["tokens"]]
    assert rows == lesson["tokens"]
    expect()(button(page, "bank")).to_have_attribute("aria-pressed", "true")
    for b in range(len(BEATS)):
        check_beat(page, lesson, b)
        assert canvas_ink(page) > 500
        if b < len(BEATS) - 1:
            button(page, "Next step").click()
    expect()(button(page, "Next step")).to_be_disabled()
    for _ in BEATS[1:]:
        button(page, "Previous step").click()
    check_beat(page, lesson, 0)


def test_the_seed_numbers_are_on_screen(new_page) -> None:
    page = open_lesson(new_page(), "?beat=score")
    text = narration(page).inner_text()
    for part in ("0.92 / 2 = 0.46", "4.6 / 2 = 2.3", "1.38 / 2 = 0.69"):
        assert part in text
    button(page, "Next step").click()
    expect()(narration(page)).to_contain_text("by 0.11, the 0.07, river 0.69, bank 0.14")
    button(page, "Next step").click()
    expect()(narration(page)).to_contain_text("[1.43, 0.06, 0.14, 0]")
    assert table_numbers(page)[3] == ["0.11", "0.07", "0.69", "0.14"]


def test_switching_context_and_mode_keeps_the_beat(new_page, base_url) -> None:
    page = open_lesson(new_page(), "?beat=blend")
    canvas = page.get_by_role("img")
    expect()(canvas).to_have_attribute("data-ray-to", "2")
    page.get_by_label("Context").select_option(label="at the savings bank")
    savings = api(base_url, sentence="at the savings bank")
    expect()(narration(page).locator(".beat-text")).to_have_text(savings["narration"][4]["text"])
    expect()(canvas).to_have_attribute("data-beat", "blend")
    expect()(canvas).to_have_attribute("data-ray-to", str(argmax(savings["weights"][3])))
    assert savings["tokens"][argmax(savings["weights"][3])] == "savings"
    page.get_by_label("Normalization").select_option(label="No √dₖ")
    sharp = api(base_url, sentence="at the savings bank", mode="unscaled")
    expect()(narration(page).locator(".beat-text")).to_have_text(sharp["narration"][4]["text"])
    assert table_numbers(page) == api_table(sharp)
    expect()(canvas).to_have_attribute("data-beat", "blend")


def test_choosing_a_focus_token(new_page, base_url) -> None:
    page = open_lesson(new_page(), "?beat=blend")
    button(page, "river").click()
    lesson = api(base_url, focus=2)
    expect()(button(page, "river")).to_have_attribute("aria-pressed", "true")
    expect()(button(page, "bank")).to_have_attribute("aria-pressed", "false")
    expect()(narration(page).locator(".beat-text")).to_have_text(lesson["narration"][4]["text"])
    expect()(page.get_by_role("img")).to_have_attribute("data-ray-from", "2")


def test_the_url_reproduces_the_state(new_page, base_url) -> None:
    page = open_lesson(new_page())
    page.get_by_label("Context").select_option(label="at the savings bank")
    page.get_by_label("Normalization").select_option(label="Uniform")
    expect()(page.get_by_label("Normalization")).to_have_value("uniform")
    button(page, "savings").click()
    expect()(button(page, "savings")).to_have_attribute("aria-pressed", "true")
    for _ in range(3):
        button(page, "Next step").click()
    expect()(page.get_by_role("img")).to_have_attribute("data-beat", "softmax")
    expect()(page).to_have_url(re.compile(r"beat=softmax"))
    url = page.url
    assert "mode=uniform" in url and "focus=2" in url and "savings" in url
    told = narration(page).locator(".beat-text").inner_text()

    again = open_lesson(new_page(), url[url.index("?") :])
    expect()(narration(again).locator(".beat-text")).to_have_text(told)
    expect()(again.get_by_label("Context")).to_have_value("at the savings bank")
    expect()(again.get_by_label("Normalization")).to_have_value("uniform")
    expect()(button(again, "savings")).to_have_attribute("aria-pressed", "true")
    expect()(again.get_by_role("img")).to_have_attribute("data-beat", "softmax")
    lesson = api(base_url, sentence="at the savings bank", mode="uniform", focus=2)
    assert table_numbers(again) == api_table(lesson)


def test_keyboard_only(new_page, base_url, tab_to) -> None:
    page = open_lesson(new_page())
    canvas = page.get_by_role("img")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect()(canvas).to_have_attribute("data-beat", "score")
    page.keyboard.press("ArrowLeft")
    expect()(canvas).to_have_attribute("data-beat", "project")
    tab_to(page, "Next step")
    page.keyboard.press("Enter")
    expect()(canvas).to_have_attribute("data-beat", "score")
    tab_to(page, "river")
    page.keyboard.press("Enter")
    expect()(button(page, "river")).to_have_attribute("aria-pressed", "true")
    # space plays and pauses when no control has the key
    page.evaluate("() => document.activeElement.blur()")
    page.keyboard.press(" ")
    expect()(button(page, "Pause")).to_be_visible()
    page.keyboard.press(" ")
    expect()(button(page, "Play")).to_be_visible()
    # the table's cells are reached with Tab and walked with the arrow keys; at the Score
    # step they hold the scores (the weights come at Softmax)
    scores = api(base_url, focus=2)["scores"]
    tab_to(page, num(scores[2][0]))
    page.keyboard.press("ArrowRight")
    readout = page.get_by_text(re.compile(r"^Row 3 \(query"))
    expect()(readout).to_have_text(
        f"Row 3 (query “river”) scores column 2 (key “the”): {num(scores[2][1])}, before the "
        "softmax."
    )
    expect()(canvas).to_have_attribute("data-beat", "score")  # arrows in the table do not step
    # the Normalization select works from the keyboard
    page.get_by_label("Normalization").focus()
    page.keyboard.press("ArrowDown")
    expect()(page.get_by_label("Normalization")).to_have_value("unscaled")
    lesson = api(base_url, mode="unscaled", focus=2)
    expect()(narration(page).locator(".beat-text")).to_have_text(lesson["narration"][2]["text"])


def test_hovering_a_cell_says_who_attends_to_whom(new_page) -> None:
    page = open_lesson(new_page())
    table = page.get_by_role("table", name="Attention weights")
    show_final_weights(page)
    table.locator("td[data-i='3'][data-j='2']").hover()
    expect()(page.get_by_text(re.compile(r"^Row 4"))).to_have_text(
        "Row 4 (query “bank”) attends to column 3 (key “river”) with weight 0.69."
    )
    table.locator("td[data-i='2'][data-j='3']").hover()
    expect()(page.get_by_text(re.compile(r"^Row 3"))).to_have_text(
        "Row 3 (query “river”) attends to column 4 (key “bank”) with weight 0.12."
    )


def test_markup_typed_as_a_sentence_stays_text(new_page, console) -> None:
    console.allow("status of 400 (Bad Request)")
    page = open_lesson(new_page())
    box = page.get_by_label("Your own sentence")
    box.fill("<img src=x onerror=alert(1)>")
    box.press("Enter")
    error = page.get_by_role("alert").filter(has_text="unknown word")
    expect()(error).to_contain_text("unknown word '<img'")
    expect()(box).to_have_attribute("aria-invalid", "true")
    assert page.locator("main img").count() == 0
    assert table_numbers(page)[3] == ["0.11", "0.07", "0.69", "0.14"], "the lesson stays"
    box.fill("near the water bank")
    box.press("Enter")
    expect()(error).to_have_count(0)
    expect()(button(page, "water")).to_be_visible()
    expect()(page.get_by_label("Context")).to_have_value("")


def test_the_widget_escapes_token_text(new_page, base_url) -> None:
    """lesson.js given a model whose tokens are markup (as a notebook could): text, no tag."""
    page = open_lesson(new_page())
    lesson = api(base_url)
    evil = "<img src=x onerror=alert(1)>"
    lesson["tokens"][0] = evil
    lesson["narration"][0]["text"] = f"{evil} is a token"
    count = page.evaluate(
        """async (lesson) => {
            const { default: widget } = await import('/static/lesson.js');
            const { createModel } = await import('/static/widget_model.js');
            const model = createModel({ lesson, beat: 0, presets: null, error: null }, () => {});
            const el = document.createElement('div');
            el.id = 'fake';
            document.body.append(el);
            window.fake = { model, cleanup: widget.render({ model, el }) };
            return el.querySelectorAll('img').length;
        }""",
        lesson,
    )
    assert count == 0
    fake = page.locator("#fake")
    expect()(fake.get_by_role("button", name=evil, exact=True)).to_be_visible()
    expect()(fake.get_by_role("status")).to_contain_text(f"{evil} is a token")
    expect()(fake.get_by_role("table").locator("tbody th").first).to_have_text(evil)
    # the cleanup runs (it calls the model's off) and the view no longer follows its model
    page.evaluate("() => { window.fake.cleanup(); window.fake.model.put('beat', 3); }")
    expect()(fake.get_by_role("status")).to_contain_text(f"{evil} is a token")


@pytest.mark.parametrize(
    ("query", "label", "message"),
    [
        ("?sentence=by+the+lake+bank", "Your own sentence", "unknown word 'lake'"),
        ("?mode=softer", "Normalization", "unknown mode 'softer'"),
    ],
)
def test_a_bad_link_shows_the_message_and_a_lesson(new_page, console, query, label, message):
    console.allow("status of 400 (Bad Request)")
    page = open_lesson(new_page(), query)
    expect()(page.get_by_role("alert").filter(has_text=message)).to_be_visible()
    assert table_numbers(page)[3] == ["0.11", "0.07", "0.69", "0.14"]
    assert canvas_ink(page) > 500
    described = page.get_by_label(label).get_attribute("aria-describedby") or ""
    ids = described.split()
    texts = [page.locator(f"[id='{i}']").text_content() for i in ids]
    assert any(message in (t or "") for t in texts), "the message is tied to its control"


def test_a_server_error_is_a_message_not_a_blank_canvas(new_page, console) -> None:
    console.allow("status of 500 (Internal Server Error)")
    page = new_page()
    page.route("**/api/lesson*", lambda route: route.fulfill(status=500, body="boom"))
    page.goto("/")
    expect()(page.get_by_role("alert").filter(has_text="500")).to_be_visible()
    assert canvas_ink(page) > 100


def test_play_steps_through_the_beats(new_page) -> None:
    page = open_lesson(new_page(), "?beat=softmax")
    button(page, "Play").click()
    expect()(button(page, "Pause")).to_be_visible()
    expect()(page.get_by_role("img")).to_have_attribute("data-beat", "blend", timeout=8000)
    button(page, "Pause").click()
    expect()(button(page, "Play")).to_be_visible()


def test_the_animation_runs_and_ends_on_the_full_picture(new_page) -> None:
    page = open_lesson(new_page(motion="no-preference"), "?beat=softmax")
    button(page, "Next step").click()
    page.wait_for_timeout(300)
    early = canvas_ink(page)
    page.wait_for_timeout(2200)
    assert canvas_ink(page) > early, "the blend beat builds up over time"
    expect()(page.get_by_role("img")).to_have_attribute("data-ray-to", "2")


def test_reduced_motion_paints_each_beat_at_once(new_page) -> None:
    page = open_lesson(new_page(motion="reduce"), "?beat=softmax")
    button(page, "Next step").click()
    expect()(page.get_by_role("img")).to_have_attribute("data-beat", "blend")
    at_once = canvas_ink(page)
    page.wait_for_timeout(600)
    assert canvas_ink(page) == at_once, "nothing moves after the step is drawn"


def test_narrow_screen_has_no_sideways_scroll(new_page, artifacts: Path) -> None:
    page = open_lesson(new_page(390, 844))
    for b, beat in enumerate(BEATS):
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 390, f"{beat}: the page is {width}px wide"
        page.screenshot(path=str(artifacts / f"narrow-390-{b + 1}-{beat}.png"), full_page=True)
        if b < len(BEATS) - 1:
            button(page, "Next step").click()


LONGEST = "a cash deposit at the bank near the river by my boat"  # the 12-word limit


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_the_longest_sentence_fits(new_page, artifacts: Path, width, height) -> None:
    query = "?" + urllib.parse.urlencode({"sentence": LONGEST})
    page = open_lesson(new_page(width, height), query)
    for beat in ("project", "blend", "parallel"):
        button(page, f"Step {BEATS.index(beat) + 1}: {beat.title()}").click()
        expect()(page.get_by_role("img")).to_have_attribute("data-beat", beat)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        assert canvas_ink(page) > 500
        page.screenshot(path=str(artifacts / f"long-{width}-{beat}.png"), full_page=True)


@pytest.mark.parametrize("sentence", SENTENCES)
def test_screenshots_of_each_beat(new_page, artifacts: Path, sentence) -> None:
    page = open_lesson(new_page(), "?" + urllib.parse.urlencode({"sentence": sentence}))
    slug = sentence.split()[-2]
    for b, beat in enumerate(BEATS):
        expect()(page.get_by_role("img")).to_have_attribute("data-beat", beat)
        page.screenshot(path=str(artifacts / f"beat-{slug}-{b + 1}-{beat}.png"))
        if b < len(BEATS) - 1:
            button(page, "Next step").click()
    for mode, label in (("unscaled", "No √dₖ"), ("uniform", "Uniform")):
        page.get_by_label("Normalization").select_option(label=label)
        expect()(page).to_have_url(re.compile(f"mode={mode}"))
        for b in (3, 4, 5, 6):
            beat = BEATS[b - 1]
            button(page, f"Step {b}: {beat.title()}").click()
            expect()(page.get_by_role("img")).to_have_attribute("data-beat", beat)
            page.screenshot(path=str(artifacts / f"beat-{slug}-{mode}-{b}-{beat}.png"))


def test_stepping_asks_the_api_nothing(new_page) -> None:
    """The bug: the host set() the focus from the answer, so the first Next step saved it as the
    learner's change and asked /api/lesson again for the same lesson."""
    page = new_page()
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/lesson" in r.url else None)
    open_lesson(page)
    expect()(page.get_by_role("img")).to_have_attribute("data-beat", "tokens")
    page.wait_for_load_state("networkidle")
    before = len(asked)
    assert before == 1, asked
    for beat in ("project", "score"):
        button(page, "Next step").click()
        expect()(page.get_by_role("img")).to_have_attribute("data-beat", beat)
    page.keyboard.press("ArrowRight")
    expect()(page.get_by_role("img")).to_have_attribute("data-beat", "softmax")
    page.wait_for_load_state("networkidle")
    assert asked[before:] == [], "a step asked the API again"
