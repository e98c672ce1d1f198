"""Issue 13 on the lesson and lab page, in real Chromium through accessible names: nothing shows
a weight before Predict first's guess, the side table follows the beat, readouts follow edits,
the lab's state has a line with undo buttons, and no text overflows its box at 1280 and 390 px
(DOM boxes and the canvas's labels, checked with layout.js's own text boxes). Screenshots in
test-artifacts/honest-*.png."""

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


def side_table(page: Any) -> Any:
    return page.get_by_role("table", name="Attention weights")


def cells(page: Any, name: str = "Attention weights") -> list[list[str]]:
    return (
        page.get_by_role("table", name=name)
        .locator("tbody tr")
        .evaluate_all(
            "rows => rows.map(r => [...r.querySelectorAll('td[data-i]')].map(td => td.textContent))"
        )
    )


def card(page: Any, heading: str) -> Any:
    return page.locator(".lab-card").filter(has=page.get_by_role("heading", name=heading))


def shot(page: Any, artifacts: Path, name: str, *, full: bool = True) -> None:
    page.screenshot(path=str(artifacts / f"honest-{name}.png"), full_page=full)


def weights_shown(page: Any, weights: list[list[float]]) -> list[str]:
    """Every place on the page (text, titles, labels, the readouts) that names one of `weights`
    as a weight: what Predict first must not show before the guess."""
    found = page.evaluate(
        """() => {
          const out = [];
          for (const el of document.querySelectorAll('[title], [aria-label]')) {
            for (const a of ['title', 'aria-label']) {
              const v = el.getAttribute(a);
              if (v && /weight/i.test(v) && /\\d/.test(v)) out.push(`${a}: ${v}`);
            }
          }
          const text = document.body.innerText;
          for (const m of text.matchAll(/[^\\n]*weight[^\\n]*\\d[^\\n]*/gi)) out.push(m[0]);
          return out;
        }"""
    )
    values = {num(float(w)) for row in weights for w in row} - {"0", "1"}
    named = [re.compile(rf"(?<![\d.]){re.escape(v)}(?!\d)") for v in values]
    return [f for f in found if any(p.search(f) for p in named)]


def test_predict_first_shows_no_weight_before_the_guess(new_page, base_url, artifacts):
    lesson = api(base_url)
    page = open_page(new_page, "?beat=score&predict=1")
    lab_table = page.get_by_role("table", name="Weights with sums")
    reading = card(page, "Read the matrix")
    expect()(reading.locator(".reading")).to_contain_text("hidden until you guess")
    # hovering hidden cells, in both tables, tells no weight
    side_table(page).locator("td[data-i='3'][data-j='2']").hover()
    lab_table.locator("td[data-i='3'][data-j='2']").hover()
    readout = page.locator(".readout")
    expect()(readout).to_have_text(
        f"Row 4 (query “bank”) scores column 3 (key “river”): "
        f"{num(float(lesson['scores'][3][2]))}, before the softmax."
    )
    assert cells(page, "Weights with sums") == [[""] * 4] * 4
    assert weights_shown(page, lesson["weights"]) == []
    shot(page, artifacts, "predict-hidden")
    # a link to a later step opens before the Softmax step, with nothing shown either
    later = open_page(new_page, "?beat=parallel&predict=1")
    expect()(later.get_by_role("img", name=re.compile("."))).to_have_attribute("data-beat", "score")
    assert weights_shown(later, lesson["weights"]) == []
    expect()(later.get_by_role("button", name="Show the final weights")).to_be_disabled()
    # the guess reveals them
    card(page, "Predict, then reveal").get_by_role("button", name="Guess river").click()
    expect()(reading.locator(".reading")).to_contain_text(num(float(lesson["weights"][3][2])))
    expect()(side_table(page).locator("td[data-i='3'][data-j='2']")).to_have_text(
        num(float(lesson["weights"][3][2]))
    )


def test_the_side_table_follows_the_beat(new_page, base_url, artifacts):
    lesson = api(base_url)
    page = open_page(new_page)
    table = side_table(page)
    expect()(table).to_have_attribute("data-stage", "pending")
    assert cells(page) == [[""] * 4] * 4, "no weights at the Tokens step"
    expect()(table.locator("caption")).to_contain_text("empty until step 3")
    shot(page, artifacts, "table-pending", full=False)
    page.get_by_role("button", name="Step 3: Score").click()
    expect()(table).to_have_attribute("data-stage", "scores")
    assert cells(page) == [[num(float(x)) for x in row] for row in lesson["scores"]]
    expect()(table.locator("caption")).to_contain_text("Scores before the softmax")
    page.get_by_role("button", name="Step 4: Softmax").click()
    expect()(table).to_have_attribute("data-stage", "weights")
    assert cells(page) == [[num(float(x)) for x in row] for row in lesson["weights"]]
    legend = page.locator("#lesson").get_by_role("figure", name=re.compile("^Heat scale"))
    shown = [float(w) for row in lesson["weights"] for w in row]
    expect()(legend).to_have_attribute(
        "aria-label", re.compile(f"from {num(min(shown))} to {num(max(shown))}$")
    )
    # the full form stays one button away at every step
    page.get_by_role("button", name="Step 1: Tokens").click()
    expect()(table).to_have_attribute("data-stage", "pending")
    show = page.get_by_role("button", name="Show the final weights")
    show.click()
    expect()(show).to_have_attribute("aria-pressed", "true")
    assert cells(page) == [[num(float(x)) for x in row] for row in lesson["weights"]]
    shot(page, artifacts, "table-weights", full=False)


def test_the_readout_follows_an_edit(new_page, base_url, artifacts):
    page = open_page(new_page, "?beat=softmax")
    cell = side_table(page).locator("td[data-i='2'][data-j='3']")
    cell.hover()
    before = api(base_url)
    readout = page.locator(".readout")
    expect()(readout).to_contain_text(f"with weight {num(float(before['weights'][2][3]))}.")
    field = page.get_by_role("group", name="Edit vectors").get_by_role(
        "textbox", name="river embedding, geographic"
    )
    field.fill("0")
    field.press("Enter")
    page.wait_for_function("() => location.search.includes('set=river')")
    after = api(base_url, set="river=0,0,0,0")
    expect()(cell).to_have_text(num(float(after["weights"][2][3])))
    expect()(readout).to_have_text(
        f"Row 3 (query “river”) attends to column 4 (key “bank”) with weight "
        f"{num(float(after['weights'][2][3]))}."
    )
    assert num(float(after["weights"][2][3])) != num(float(before["weights"][2][3]))
    shot(page, artifacts, "readout-after-edit", full=False)


def test_the_lab_state_line_lists_each_change_with_its_undo(new_page, base_url, artifacts):
    query = "?temperature=9.23&causal=1&heads=2&shuffle=3&positions=rope&set=river=0,0,0,0"
    page = open_page(new_page, query)
    line = page.get_by_role("group", name="Active lab changes")
    for text in ("T = 9.23", "causal mask", "Rotary (RoPE)", "2 heads", "shuffle", "river"):
        expect()(line).to_contain_text(text)
    expect()(page.locator(".controls")).to_contain_text("T = 9.23")
    expect()(page.locator(".controls")).not_to_contain_text("the real formula")
    shot(page, artifacts, "state-line", full=False)
    undo = {
        "Undo temperature": "temperature=",
        "Undo causal mask": "causal=",
        "Undo heads": "heads=",
        "Undo shuffle": "shuffle=",
        "Undo positions": "positions=",
        "Undo edits": "set=",
    }
    for name, param in undo.items():
        line.get_by_role("button", name=name).click()
        page.wait_for_function("p => !location.search.includes(p)", arg=param)
        expect()(line.get_by_role("button", name=name)).to_have_count(0)
    expect()(line).to_be_hidden()
    expect()(page.locator(".controls")).to_contain_text("the real formula")
    lab_intro = page.locator('.lab-intro[data-words="lab.intro"]')
    expect()(lab_intro).to_contain_text("Word order card")
    expect()(lab_intro).to_contain_text("Two heads card")


CHECK_BOXES = """(allowScroll) => {
  const bad = [];
  const roots = document.querySelectorAll('#lesson, #lab');
  for (const root of roots) {
    for (const el of root.querySelectorAll('*')) {
      if (el.closest('svg') || el.tagName === 'CANVAS' || el.tagName === 'OPTION') continue;
      const style = getComputedStyle(el);
      if (style.display === 'inline' || style.display === 'none' || el.clientWidth === 0) continue;
      if (el.matches('.sr-only, input[type=range]')) continue;
      // on a phone, the lab's wide number tables scroll sideways in their own marked boxes
      if (allowScroll && el.matches('.scroll-x, .edit-grid, .now-table')) continue;
      if (el.scrollWidth > el.clientWidth + 1) {
        const what = `${el.tagName.toLowerCase()}.${el.className}`;
        const text = (el.textContent || '').trim().slice(0, 40);
        bad.push(`${what}: ${el.scrollWidth} > ${el.clientWidth}: ${text}`);
      }
    }
  }
  return bad;
}"""

CHECK_CANVAS = """async () => {
  const { layout, textProblems } = await import('/static/layout.js');
  const { decodeLesson } = await import('/static/format.js');
  const canvas = document.querySelector('#lesson canvas');
  const q = new URLSearchParams(location.search);
  // the page's own state, not the lesson's
  for (const k of ['beat', 'predict', 'cell', 'view']) q.delete(k);
  const [lesson, presets] = await Promise.all([
    fetch('/api/lesson?' + q).then(r => r.json()), fetch('/api/presets').then(r => r.json())]);
  const trace = decodeLesson(lesson);
  const size = { width: parseFloat(canvas.style.width), height: parseFloat(canvas.style.height) };
  const out = layout(trace, size, canvas.dataset.beat, trace.focus, presets.words);
  return textProblems(out.shapes, size).map(p => `${p.problem}: ${p.text}`);
}"""

STATES = [
    "?sentence=a+cash+deposit+at+the+bank&beat=softmax&axis=queries&heads=2",
    "?sentence=a+cash+deposit+at+the+bank&beat=parallel",
    "?beat=project",
    "?beat=blend&temperature=9.23&causal=1&positions=rope&shuffle=2",
    "?beat=score&predict=1",
]


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_no_text_overflows_its_box(new_page, artifacts, width, height):
    for k, query in enumerate(STATES):
        page = open_page(new_page, query, width=width, height=height)
        page.wait_for_timeout(150)  # the canvas settles its height for the beat
        boxes = page.evaluate(CHECK_BOXES, width < 600)
        assert boxes == [], f"{query} at {width} px"
        assert page.evaluate(CHECK_CANVAS) == [], f"canvas of {query} at {width} px"
        shot(page, artifacts, f"fit-{width}-{k}")
        page.close()


def test_a_repeated_word_is_named_by_its_place_everywhere(new_page, base_url, artifacts):
    lesson = api(base_url, sentence="the bank by the bank")
    page = open_page(new_page, "?sentence=the+bank+by+the+bank&beat=parallel")
    told = page.get_by_role("status", name="Narration").locator(".beat-text")
    expect()(told).to_have_text(lesson["narration"][5]["text"])
    text = told.text_content() or ""
    assert "bank₁ → bank₂" in text and not re.search(r"\bbank → bank\b", text)
    heads = side_table(page).locator("thead th").all_text_contents()[1:]
    assert heads == ["the₁", "bank₁", "by", "the₂", "bank₂"]
    focus = page.get_by_role("group", name="Follow the token:")
    expect()(focus.get_by_role("button", name="bank₂")).to_have_attribute("aria-pressed", "false")
    lab_heads = page.get_by_role("table", name="Weights with sums").locator("thead th")
    assert lab_heads.all_text_contents()[1:6] == heads
    shot(page, artifacts, "repeated-words", full=False)


def test_every_weights_table_has_its_heat_key(new_page, base_url, artifacts):
    lesson = api(base_url, heads=2)
    page = open_page(new_page, "?heads=2&beat=softmax")
    key = re.compile("^Heat scale")
    expect()(page.locator("#lesson").get_by_role("figure", name=key)).to_have_count(1)
    lab = page.locator("#lab").get_by_role("figure", name=key)
    expect()(lab).to_have_count(2)  # the weights now, and the second head's
    second = [float(w) for row in lesson["heads"][1]["weights"] for w in row]
    expect()(card(page, "Two heads").get_by_role("figure", name=key)).to_have_attribute(
        "aria-label", re.compile(f"from {num(min(second))} to {num(max(second))}$")
    )
    card(page, "Two heads").screenshot(path=str(artifacts / "honest-heads-key.png"))
