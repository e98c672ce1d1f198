"""The Real model view in real Chromium: one head of all-MiniLM-L6-v2 told in the lesson's six
beats with /api/model/trace's numbers, the heads grid, the Compare contexts panel with
/api/model/compare's numbers, errors next to their controls, and keyboard operation. Driven
through the accessible names: the `Real model` tab, `Text`, `Model`, `Layer`, `Head`, the grid's
`layer L head H` buttons, the token buttons, `Previous step` / `Next step`, `Narration`,
`Real attention weights`, `Word`, `Sentence A`, `Sentence B`, `Compare`."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.parse
import urllib.request
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from playwright_expect import expect

from attnlab.encode.packed import unpack
from attnlab.words.numfmt import num

pytestmark = pytest.mark.browser

BEATS = ("tokens", "project", "score", "softmax", "blend", "parallel")
MODULES = (
    "model.js",
    "model_app.js",
    "model_layout.js",
    "model_compare.js",
    "model_dom.js",
    "model_grid.js",
    "model_matrix.js",
    "matrix_picture.js",
    "packed.js",
    "model_ranking.js",
    "model_decoder.js",
    "model_state.js",
    "model_settings.js",
    "model_tokens.js",
    "model_notes.js",
    "model_picture.js",
    "model_strips.js",
    "model_table.js",
    "model_requests.js",
    "model_host.js",
    "model_url.js",
    "model_timing.js",
    "model_view_asks.js",
)


def api(base_url: str, path: str, **params: Any) -> Any:
    """An answer with its packed arrays (encode/packed.py) decoded to nested lists."""
    query = urllib.parse.urlencode({k: v for k, v in params.items() if v is not None})
    with urllib.request.urlopen(f"{base_url}{path}?{query}") as response:
        return unpacked(json.load(response))


def unpacked(x: Any) -> Any:
    if isinstance(x, dict) and set(x) == {"dtype", "shape", "data", "scale"}:
        return unpack(x).tolist()
    if isinstance(x, dict):
        return {k: unpacked(v) for k, v in x.items()}
    return x


def api_error(base_url: str, path: str, **params: Any) -> Any:
    query = urllib.parse.urlencode(params)
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(f"{base_url}{path}?{query}")
    return json.load(info.value)


def trace(base_url: str, **params: Any) -> Any:
    return api(base_url, "/api/model/trace", grid="none", **params)


def narration(page: Any) -> Any:
    return page.get_by_role("status", name="Narration")


def button(page: Any, name: str) -> Any:
    return page.get_by_role("button", name=name, exact=True)


def weights_table(page: Any) -> Any:
    return page.get_by_role("table", name="Real attention weights")


def open_model(page: Any, query: str = "?view=model", *, text: str | None = None) -> Any:
    page.goto(f"/{query}")
    expect()(weights_table(page)).to_be_visible()
    if text is not None:
        expect()(narration(page).locator(".beat-text")).to_have_text(text)
    expect()(page.get_by_role("status", name="Model status")).to_be_empty()
    return page


def table_numbers(page: Any) -> list[list[str]]:
    return (
        weights_table(page)
        .locator("tbody tr")
        .evaluate_all(
            "rows => rows.map(r => [...r.querySelectorAll('td')].map(td => td.textContent))"
        )
    )


def api_table(t: dict[str, Any]) -> list[list[str]]:
    return [[num(float(w)) for w in row] for row in t["weights"]]


def check_head(page: Any, t: dict[str, Any]) -> None:
    """The table, the focus token and every beat's narration are the API's."""
    expect()(weights_table(page).locator("caption")).to_contain_text(
        f"layer {t['model']['layer']}, head {t['model']['head']}"
    )
    assert table_numbers(page) == api_table(t)
    header = weights_table(page).locator("thead th").all_text_contents()
    assert header == ["query ↓ / key →", *t["tokens"]]
    tokens = page.get_by_role("group", name="Follow the token:").get_by_role("button")
    expect()(tokens.nth(t["window"]["focus"])).to_have_attribute("aria-pressed", "true")
    canvas = page.locator("#real-model").get_by_role("img").first
    for b, told in enumerate(t["narration"]):
        button(page, f"Step {b + 1}: {told['title']}").click()
        expect()(narration(page).locator(".beat-text")).to_have_text(told["text"])
        expect()(narration(page).locator(".beat-title")).to_have_text(
            f"Step {b + 1} of 6: {told['title']}"
        )
        expect()(canvas).to_have_attribute("data-beat", BEATS[b])


def test_the_view_opens_from_its_tab_and_shows_the_api_head(new_page, base_url) -> None:
    page = new_page()
    page.goto("/")
    tab = page.get_by_role("tab", name="Real model")
    expect()(tab).to_have_attribute("aria-selected", "false")
    expect()(page.locator("#real-model")).to_be_hidden()
    tab.click()
    expect()(tab).to_have_attribute("aria-selected", "true")
    expect()(page.get_by_role("tab", name="Toy lesson")).to_have_attribute("aria-selected", "false")
    expect()(narration(page).locator(".beat-text")).to_contain_text("6 tokens come in")
    assert "view=model" in page.url
    t = trace(base_url)
    expect()(page.get_by_label("Text", exact=True)).to_have_value("by the river bank")
    expect()(page.get_by_label("Layer", exact=True)).to_have_value("0")
    expect()(page.get_by_label("Head", exact=True)).to_have_value("0")
    check_head(page, t)
    assert "√32 = 5.66" in t["narration"][2]["text"]
    # the toy lesson is one click away, its own numbers untouched
    page.get_by_role("tab", name="Toy lesson").click()
    expect()(page.get_by_role("table", name="Attention weights")).to_be_visible()
    expect()(page.locator("#real-model")).to_be_hidden()
    assert "view=model" not in page.url


def test_the_first_load_says_it_is_loading_the_model(new_page) -> None:
    page = new_page()
    held: list[Any] = []
    page.route(  # hold the first answer back, as a cold server would
        "**/api/model/trace?*",
        lambda route: route.continue_() if held else held.append(route),
    )
    page.goto("/?view=model")
    status = page.get_by_role("status", name="Model status")
    expect()(status).to_have_text("Loading all-MiniLM-L6-v2… (the first time takes about a second)")
    expect()(page.locator("#real-model").get_by_role("img").first).to_have_attribute(
        "aria-label", re.compile("head")
    )  # the picture is there, saying what it will show, never blank
    assert held, "the page asked for the head"
    held[0].continue_()
    expect()(status).to_be_empty()
    expect()(narration(page).locator(".beat-text")).to_contain_text("6 tokens come in")


def test_layer_head_and_focus_change_the_numbers(new_page, base_url) -> None:
    page = open_model(new_page())
    page.get_by_label("Layer", exact=True).select_option("2")
    page.get_by_label("Head", exact=True).select_option("5")
    t = trace(base_url, layer=2, head=5)
    expect()(weights_table(page).locator("caption")).to_contain_text("layer 2, head 5")
    assert table_numbers(page) == api_table(t)
    assert table_numbers(page) != api_table(trace(base_url))
    button(page, "river").click()
    t = trace(base_url, layer=2, head=5, focus=3)
    expect()(button(page, "river")).to_have_attribute("aria-pressed", "true")
    check_head(page, t)
    for part in ("model.layer=2", "model.head=5", "model.focus=3"):
        assert part in page.url
    expect()(page.get_by_role("button", name="layer 2 head 5", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )


def test_clicking_a_grid_cell_selects_that_head(new_page, base_url) -> None:
    page = open_model(new_page())
    cells = page.get_by_role("group", name="Heads: layers × heads").get_by_role("button")
    expect()(cells).to_have_count(72)
    cell = page.get_by_role("button", name="layer 3 head 7", exact=True)
    cell.click()
    expect()(cell).to_have_attribute("aria-pressed", "true")
    expect()(page.get_by_label("Layer", exact=True)).to_have_value("3")
    expect()(page.get_by_label("Head", exact=True)).to_have_value("7")
    expect()(page.get_by_role("button", name="layer 0 head 0", exact=True)).to_have_attribute(
        "aria-pressed", "false"
    )
    t = trace(base_url, layer=3, head=7)
    expect()(weights_table(page).locator("caption")).to_contain_text("layer 3, head 7")
    assert table_numbers(page) == api_table(t)
    button(page, "Step 4: Softmax").click()
    expect()(narration(page).locator(".beat-text")).to_have_text(t["narration"][3]["text"])


def test_pointing_at_a_cell_says_who_attends_to_whom(new_page, base_url) -> None:
    page = open_model(new_page(), "?view=model&model.layer=2&model.head=5")
    t = trace(base_url, layer=2, head=5)
    weights_table(page).locator("td[data-i='4'][data-j='3']").hover()
    expect()(page.get_by_text(re.compile(r"^Row 5 \(query"))).to_have_text(
        f"Row 5 (query “bank”) attends to column 4 (key “river”) with weight "
        f"{num(t['weights'][4][3])}."
    )


def test_a_state_in_the_url_comes_back(new_page, base_url) -> None:
    text = "the cat sat on the mat"
    t = trace(base_url, text=text, layer=4, head=9, focus=2)
    q = urllib.parse.urlencode(
        {"view": "model", "model.text": text, "model.layer": 4, "model.head": 9,
         "model.focus": 2, "model.beat": "score"}
    )  # fmt: skip
    page = open_model(new_page(), f"?{q}", text=t["narration"][2]["text"])
    expect()(page.get_by_label("Text", exact=True)).to_have_value(text)
    expect()(page.get_by_label("Layer", exact=True)).to_have_value("4")
    expect()(page.get_by_label("Head", exact=True)).to_have_value("9")
    assert table_numbers(page) == api_table(t)
    page.reload()
    expect()(narration(page).locator(".beat-text")).to_have_text(t["narration"][2]["text"])


def test_errors_stay_next_to_their_control_and_the_head_stays(new_page, base_url, console) -> None:
    console.allow("status of 400 (Bad Request)")
    page = open_model(new_page())
    before = table_numbers(page)
    box = page.get_by_label("Text", exact=True)
    too_long = " ".join(["word"] * 600)
    expected = api_error(base_url, "/api/model/trace", text=too_long)["error"]
    assert "limit is 512" in expected
    box.fill(too_long)
    box.press("Enter")
    alert = page.locator("#real-model").get_by_role("alert").filter(has_text="limit is 512")
    expect()(alert).to_have_text(expected)
    expect()(box).to_have_attribute("aria-invalid", "true")
    assert table_numbers(page) == before, "the last good head stays on screen"
    box.fill("")
    page.get_by_role("button", name="Run the model").click()
    expect()(
        page.locator("#real-model").get_by_role("alert").filter(has_text="empty")
    ).to_have_text(api_error(base_url, "/api/model/trace", text="")["error"])
    box.fill("by the river bank")
    box.press("Enter")
    expect()(box).to_have_attribute("aria-invalid", "false")
    expect()(
        page.locator("#real-model").get_by_role("alert").filter(has_text="empty")
    ).to_have_count(0)


def test_an_unknown_model_is_named_next_to_the_model_select(new_page, base_url, console) -> None:
    console.allow("status of 400 (Bad Request)")
    page = new_page()
    page.goto("/?view=model&model.name=gpt9")
    message = api_error(base_url, "/api/model/trace", model="gpt9")["error"]
    expect()(page.locator("#real-model").get_by_role("alert").filter(has_text="gpt9")).to_have_text(
        message
    )
    # never blank: the default model's head is shown beside the message
    expect()(narration(page).locator(".beat-text")).to_contain_text("6 tokens come in")
    expect()(page.get_by_label("Model", exact=True)).to_have_value("minilm")


def test_a_token_the_text_lacks_is_named_next_to_the_tokens(new_page, base_url, console) -> None:
    console.allow("status of 400 (Bad Request)")
    page = new_page()
    page.goto("/?view=model&model.focus=zebra")
    message = api_error(base_url, "/api/model/trace", focus="zebra")["error"]
    tokens = page.get_by_role("group", name="Follow the token:")
    expect()(tokens.get_by_role("alert")).to_have_text(message)
    expect()(button(page, "bank")).to_have_attribute("aria-pressed", "true")
    assert table_numbers(page) == api_table(trace(base_url))


def cosine_rows(page: Any) -> list[list[str]]:
    table = page.get_by_role("table", name="Cosine similarity by layer")
    return table.locator("tbody tr").evaluate_all(
        "rows => rows.map(r => [r.querySelector('th').textContent,"
        " r.querySelector('td').textContent])"
    )


def row_numbers(page: Any, which: str, word: str = "bank") -> list[str]:
    table = page.get_by_role("table", name=f"Attention row of {word} in sentence {which}")
    return table.locator("td").all_text_contents()


def test_compare_contexts_shows_the_api_numbers(new_page, base_url, console) -> None:
    console.allow("status of 400 (Bad Request)")
    page = open_model(new_page())
    cmp = api(base_url, "/api/model/compare")
    panel = page.get_by_role("region", name="Compare contexts")
    expect()(panel).to_be_visible()
    expect()(page.get_by_role("table", name="Cosine similarity by layer")).to_be_visible()
    assert [v for _, v in cosine_rows(page)] == [num(c) for c in cmp["cosine"]]
    assert [k for k, _ in cosine_rows(page)][1:] == [f"layer {i}" for i in range(6)]
    plot = panel.get_by_role("img")
    for k, c in enumerate(cmp["cosine"]):
        assert f"{cmp['cosine_labels'][k]} {num(c)}" in plot.get_attribute("aria-label")
    assert plot.locator("text.value").all_text_contents() == [num(c) for c in cmp["cosine"]]
    assert plot.locator("text.x-tick").all_text_contents() == ["in", "0", "1", "2", "3", "4", "5"]
    expect()(plot.locator("text.x-title")).to_contain_text("layer")
    expect()(plot.locator("text.y-title")).to_contain_text("cosine similarity (y axis 0 to 1")
    expect()(panel.get_by_text(cmp["note"])).to_be_visible()
    # the rows follow the head chosen above
    assert row_numbers(page, "A") == [num(w) for w in cmp["a"]["rows"][0][0]]
    page.get_by_role("button", name="layer 5 head 11", exact=True).click()
    expect()(panel.get_by_role("heading", level=3)).to_contain_text("layer 5, head 11")
    assert row_numbers(page, "B") == [num(w) for w in cmp["b"]["rows"][5][11]]
    # other sentences
    a, b = "she sat on the bank of the stream", "the bank approved my loan"
    panel.get_by_label("Sentence A", exact=True).fill(a)
    panel.get_by_label("Sentence B", exact=True).fill(b)
    panel.get_by_role("button", name="Compare").click()
    other = api(base_url, "/api/model/compare", a=a, b=b)
    expect()(page.get_by_role("table", name="Attention row of bank in sentence A")).to_contain_text(
        "stream"
    )
    assert [v for _, v in cosine_rows(page)] == [num(c) for c in other["cosine"]]
    assert row_numbers(page, "A") == [num(w) for w in other["a"]["rows"][5][11]]
    # a word one sentence lacks: the message next to Word, the last comparison stays
    panel.get_by_label("Word", exact=True).fill("river")
    panel.get_by_role("button", name="Compare").click()
    message = api_error(base_url, "/api/model/compare", word="river", a=a, b=b)["error"]
    expect()(panel.get_by_role("alert").filter(has_text="river")).to_have_text(message)
    expect()(panel.get_by_label("Word", exact=True)).to_have_attribute("aria-invalid", "true")
    assert [v for _, v in cosine_rows(page)] == [num(c) for c in other["cosine"]]


def test_keyboard_only(new_page, base_url, tab_to) -> None:
    page = new_page()
    page.goto("/")
    expect()(page.get_by_role("table", name="Attention weights")).to_be_visible()
    lesson_canvas = page.locator("#lesson canvas")
    lesson_beat = lesson_canvas.get_attribute("data-beat")
    tab_to(page, "Toy lesson")
    page.keyboard.press("ArrowRight")  # the tabs: arrows move between them
    expect()(page.get_by_role("tab", name="Real model")).to_be_focused()
    expect()(narration(page).locator(".beat-text")).to_contain_text("6 tokens come in")
    canvas = page.locator("#real-model").get_by_role("img").first
    page.evaluate("() => document.activeElement.blur()")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect()(canvas).to_have_attribute("data-beat", "score")
    page.keyboard.press("ArrowLeft")
    expect()(canvas).to_have_attribute("data-beat", "project")
    assert lesson_canvas.get_attribute("data-beat") == lesson_beat, "the hidden lesson kept still"
    # the grid: one Tab stop, arrows walk it, Enter picks a head
    tab_to(page, "layer 0 head 0")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect()(page.get_by_role("button", name="layer 1 head 2", exact=True)).to_be_focused()
    page.keyboard.press("Enter")
    expect()(page.get_by_label("Head", exact=True)).to_have_value("2")
    expect()(page.get_by_label("Layer", exact=True)).to_have_value("1")
    expect()(canvas).to_have_attribute("data-beat", "project")  # arrows in the grid do not step
    t = trace(base_url, layer=1, head=2)
    expect()(narration(page).locator(".beat-text")).to_have_text(t["narration"][1]["text"])
    # a token, then Next step, from the keyboard
    tab_to(page, "river")
    page.keyboard.press("Enter")
    expect()(button(page, "river")).to_have_attribute("aria-pressed", "true")
    tab_to(page, "Next step")
    page.keyboard.press("Enter")
    t = trace(base_url, layer=1, head=2, focus=3)
    expect()(narration(page).locator(".beat-text")).to_have_text(t["narration"][2]["text"])
    # the Head select from the keyboard
    page.get_by_label("Head", exact=True).focus()
    page.keyboard.press("ArrowDown")
    expect()(page.get_by_label("Head", exact=True)).to_have_value("3")
    t = trace(base_url, layer=1, head=3, focus=3)
    expect()(narration(page).locator(".beat-text")).to_have_text(t["narration"][2]["text"])
    # space plays and pauses the steps when no control has the key
    page.evaluate("() => document.activeElement.blur()")
    page.keyboard.press(" ")
    expect()(button(page, "Pause")).to_be_visible()
    page.keyboard.press(" ")
    expect()(button(page, "Play")).to_be_visible()
    # Compare contexts from the keyboard: type a sentence, Enter compares
    a = "the river bank was muddy"
    box = page.get_by_label("Sentence A", exact=True)
    box.focus()
    page.keyboard.press("Control+A")
    page.keyboard.type(a)
    page.keyboard.press("Enter")
    cmp = api(base_url, "/api/model/compare", a=a)
    assert page.get_by_label("Sentence A", exact=True).input_value() == a
    expect()(
        page.get_by_role("table", name="Cosine similarity by layer").locator("td")
    ).to_have_text([num(c) for c in cmp["cosine"]])


def test_a_long_text_stays_readable(new_page, base_url, artifacts: Path) -> None:
    words = ("the quick brown fox jumps over the lazy dog near the river bank " * 10).split()
    text = " ".join(words[:120])
    t = trace(base_url, text=text, layer=1, head=4)
    n = t["window"]["n"]
    assert 100 < n <= 128 and len(t["tokens"]) < 40
    q = urllib.parse.urlencode(
        {"view": "model", "model.text": text, "model.layer": 1, "model.head": 4}
    )
    page = open_model(new_page(), f"?{q}", text=t["narration"][0]["text"])
    assert table_numbers(page) == api_table(t)
    expect()(page.locator(".rm-window-note")).to_contain_text(
        f"{len(t['tokens'])} of its {n} tokens"
    )
    page.screenshot(path=str(artifacts / "model-long-tokens.png"), full_page=True)
    for b, beat in ((2, "score"), (5, "parallel")):
        button(page, f"Step {b + 1}: {beat.capitalize()}").click()
        expect()(narration(page).locator(".beat-text")).to_have_text(t["narration"][b]["text"])
        page.locator(".rm-stage").screenshot(path=str(artifacts / f"model-long-{beat}.png"))


def test_screenshots(new_page, artifacts: Path) -> None:
    page = open_model(new_page(1280, 900), "?view=model&model.layer=2&model.head=5")
    page.screenshot(path=str(artifacts / "model-full.png"), full_page=True)
    for b, beat in enumerate(BEATS):
        button(page, f"Step {b + 1}: {beat.capitalize()}").click()
        expect()(page.locator("#real-model").get_by_role("img").first).to_have_attribute(
            "data-beat", beat
        )
        page.locator(".rm-stage").screenshot(path=str(artifacts / f"model-{b + 1}-{beat}.png"))
    page.get_by_role("region", name="Compare contexts").screenshot(
        path=str(artifacts / "model-compare.png")
    )
    text = "The bank raised its rates, so we sat by the river bank and watched the boats go by."
    q = urllib.parse.urlencode({"view": "model", "model.text": text, "model.layer": 3})
    mid = open_model(new_page(1280, 900), f"?{q}")
    button(mid, "Step 3: Score").click()
    mid.screenshot(path=str(artifacts / "model-medium-score.png"), full_page=True)
    phone = open_model(new_page(390, 844), "?view=model&model.beat=blend")
    expect()(phone.get_by_role("table", name="Cosine similarity by layer")).to_be_visible()
    phone.screenshot(path=str(artifacts / "model-narrow-390.png"), full_page=True)


@pytest.mark.parametrize("name", MODULES)
def test_the_modules_are_served_and_build_no_markup_from_strings(base_url, name) -> None:
    text = (files("attnlab") / "static" / name).read_text(encoding="utf-8")
    with urllib.request.urlopen(f"{base_url}/static/{name}") as response:
        assert "javascript" in response.headers["content-type"]
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
        assert sink not in text, f"{name} uses {sink}"
    assert not re.search(
        r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}/", text.replace("http://www.w3.org/2000/svg", ""), re.I
    )
    if name == "model_layout.js":
        for word in ("document", "window", "getContext", "performance", "Date.now"):
            assert word not in text, f"{name} mentions {word}"
