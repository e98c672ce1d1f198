"""The Real model's extra views in real Chromium, through accessible names: the readout after a
head change, the multi-line Text box, a word made of pieces, Compare's occurrence and A − B,
the head view (heads `head H`, tokens `query T (position i)`), and Mask a token."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_model_page import (
    api,
    api_error,
    button,
    expect,
    narration,
    open_model,
    trace,
    weights_table,
)

from attnlab.words.model_views import distance
from attnlab.words.numfmt import num

pytestmark = pytest.mark.browser

LONG = " ".join(
    "the old river bank by the mill was quiet while the savings bank in town was busy".split() * 6
)


@pytest.fixture(autouse=True, scope="module")
def _warm(base_url: str) -> None:
    """Load the weights once before the first page waits for them (a second or more here)."""
    api(base_url, "/api/model/info")
    trace(base_url)


def test_the_readout_follows_a_head_picked_in_the_grid(new_page, base_url) -> None:
    """It kept the old head's number after a click on another head."""
    page = open_model(new_page())
    weights_table(page).locator("td[data-i='4'][data-j='3']").hover()
    old = trace(base_url)["weights"][4][3]
    says = page.get_by_text(re.compile(r"^Row 5 \(query"))
    expect()(says).to_contain_text(f"with weight {num(old)}.")
    page.get_by_role("button", name="layer 3 head 7", exact=True).click()
    expect()(weights_table(page).locator("caption")).to_contain_text("layer 3, head 7")
    new = trace(base_url, layer=3, head=7)["weights"][4][3]
    assert num(new) != num(old)
    expect()(says).to_have_text(
        f"Row 5 (query “bank”) attends to column 4 (key “river”) with weight {num(new)}."
    )


def test_the_text_box_is_multi_line_and_enter_runs(new_page, base_url) -> None:
    page = open_model(new_page())
    box = page.get_by_role("textbox", name="Text", exact=True)
    assert box.evaluate("e => e.tagName") == "TEXTAREA"
    box.fill("at the savings")
    box.press("Shift+Enter")
    box.type("bank")
    assert box.input_value() == "at the savings\nbank"  # Shift+Enter: a new line, no run
    box.press("Enter")
    t = trace(base_url, text="at the savings\nbank")
    expect()(weights_table(page).locator("tbody tr")).to_have_count(len(t["tokens"]))
    expect()(page.get_by_role("button", name="savings", exact=True)).to_be_visible()


def test_a_word_made_of_pieces_is_followed_and_said(new_page, base_url) -> None:
    """ "riverbank" was refused: it splits into river ##bank."""
    page = open_model(new_page(), "?view=model&model.text=by+the+riverbank&model.focus=riverbank")
    t = trace(base_url, text="by the riverbank", focus="riverbank")
    assert t["tokens"][3:5] == ["river", "##bank"] and t["focus"] == 4
    expect()(page.get_by_role("button", name="##bank", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
    expect()(page.locator(".rm-pieces")).to_have_text(t["word"]["note"])
    assert "follows its last piece, “##bank”" in t["word"]["note"]
    page.get_by_role("button", name="the", exact=True).click()
    expect()(page.locator(".rm-pieces")).to_be_hidden()


@pytest.mark.usefixtures("smollm2")
def test_the_pieces_note_names_the_piece_the_steps_follow(new_page, base_url) -> None:
    """SmolLM2 reads "door." as " door" + ".": the steps, the table and the RoPE panel follow
    " door", and the note said "the page follows its last piece, ."."""
    text = "He shut the door."
    t = trace(base_url, model="smollm2", text=text)  # first: the weights load before the page
    page = open_model(new_page(), "?view=model&model.name=smollm2&model.text=He+shut+the+door.")
    assert t["tokens"][t["focus"]] == " door" and t["word"]["token"] == t["focus"]
    expect()(page.locator(".rm-pieces")).to_have_text(t["word"]["note"])
    expect()(page.locator(".rm-pieces")).to_contain_text("the page follows its piece “ door”")
    expect()(page.locator(".rm-pieces")).not_to_contain_text("its last piece, “.”")
    expect()(narration(page).locator(".beat-text")).to_contain_text("door")


def test_compare_picks_the_occurrence_and_shows_a_minus_b(new_page, base_url) -> None:
    page = open_model(new_page())
    region = page.get_by_role("region", name="Compare contexts")
    region.get_by_label("Sentence A", exact=True).fill("the bank by the bank")
    region.get_by_role("button", name="Compare").click()
    which = region.get_by_label("Which one in sentence A", exact=True)
    expect()(which).to_be_visible()
    expect()(which.locator("option")).to_have_text(
        ["bank number 1 (position 2)", "bank number 2 (position 5)"]
    )
    which.select_option(label="bank number 2 (position 5)")
    q = {"word": "bank", "a": "the bank by the bank", "b": "at the savings bank"}
    d = api(base_url, "/api/model/compare", **q, occurrence_a=2)
    row_a = region.get_by_role("table", name="Attention row of bank in sentence A")
    expect()(row_a.locator("td")).to_have_text([num(w) for w in d["a"]["rows"][0][0]])
    expect()(row_a.locator("th.rm-self")).to_have_text(["bank"])  # the second bank: one th
    assert row_a.locator("th").nth(5).get_attribute("class") == "rm-self"
    diff = region.get_by_role("table", name="Difference A − B on the keys both sentences share")
    s = d["shared"]
    expect()(diff.locator("tbody th")).to_have_text(s["tokens"])
    signed = [("+" if x > 0 else "") + num(x, places=4) for x in s["difference"][0][0]]
    expect()(diff.locator("tbody td:nth-of-type(3)")).to_have_text(signed)
    expect()(region.get_by_text(re.compile("^The sign: a positive difference"))).to_be_visible()
    assert region.get_by_label("Which one in sentence B", exact=True).is_hidden()  # only one


def test_compares_a_minus_b_agrees_with_a_and_b_as_shown(new_page, base_url) -> None:
    """Bug (issue 22): "light 0.02 0.02 -0.01": A − B was shown beside A and B that it did not
    match. Every head's row of the table: the A − B shown is the A shown minus the B shown."""
    page = open_model(new_page())
    region = page.get_by_role("region", name="Compare contexts")
    a, b = "Turn on the light in the kitchen", "The box was light enough to carry"
    region.get_by_label("Word", exact=True).fill("light")
    region.get_by_label("Sentence A", exact=True).fill(a)
    region.get_by_label("Sentence B", exact=True).fill(b)
    region.get_by_role("button", name="Compare").click()
    d = api(base_url, "/api/model/compare", word="light", a=a, b=b)
    diff = region.get_by_role("table", name="Difference A − B on the keys both sentences share")
    s = d["shared"]
    want = [("+" if x > 0 else "") + num(x, places=4) for x in s["difference"][0][0]]
    expect()(diff.locator("tbody td:nth-of-type(3)")).to_have_text(want)
    cells = diff.locator("tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.querySelectorAll('td')].map(td => td.textContent))"
    )
    for shown_a, shown_b, shown_d in cells:  # layer 0, head 0 on screen
        assert round(float(shown_a) - float(shown_b), 4) == float(shown_d), (shown_a, shown_b)
    for h in range(d["model"]["n_heads"]):  # and every head, as the page would write it
        for k, x in enumerate(s["difference"][0][h]):
            ra, rb = d["a"]["rows"][0][h][s["a"][k]], d["b"]["rows"][0][h][s["b"][k]]
            assert round(float(num(ra, places=4)) - float(num(rb, places=4)), 4) == float(
                num(x, places=4)
            )


Kept = list[list[tuple[int, int, float]]]
"""Per head (or the one mean): its (query, key, weight) lines the answer holds."""


def _kept(series: dict[str, Any]) -> Kept:
    """A TopKeys answer's lines per head (its arrays as `api` unpacked them): each row's
    strongest keys, as the page decodes them."""
    keys, weights = np.asarray(series["keys"]).astype(int), np.asarray(series["weights"])
    keys, weights = keys.reshape(-1, *keys.shape[-2:]), weights.reshape(-1, *weights.shape[-2:])
    return [
        [(i, int(keys[h, i, t]), float(weights[h, i, t])) for i, t in np.ndindex(keys.shape[1:])]
        for h in range(keys.shape[0])
    ]


def _whole(matrices: list[list[list[float]]]) -> Kept:
    return [[(i, j, w) for i, r in enumerate(m) for j, w in enumerate(r)] for m in matrices]


def _lines(kept: Kept, heads: list[int], row: int | None = None, col: int | None = None) -> int:
    return sum(
        1
        for h in heads
        for i, j, w in kept[h]
        if (row is None or i == row) and (col is None or j == col) and w >= 0.005
    )


def test_the_head_view_overlays_heads_and_isolates_a_token(new_page, base_url) -> None:
    page = open_model(new_page())
    region = page.get_by_role("region", name="Head view: every line is one weight")
    d = api(base_url, "/api/model/heads", text="by the river bank", layer=0)
    heads = _kept(d["heads"])
    canvas = region.get_by_role("img")
    expect()(region.get_by_role("checkbox", name="head 0", exact=True)).to_be_checked()
    expect()(canvas).to_have_attribute("data-lines", str(_lines(heads, [0])))
    region.get_by_role("checkbox", name="head 3", exact=True).check()
    expect()(canvas).to_have_attribute("data-lines", str(_lines(heads, [0, 3])))
    expect()(canvas).to_have_attribute(
        "aria-label", "Lines from each query to each key, head 0, head 3"
    )
    bank = region.get_by_role("button", name="query bank (position 4)", exact=True)
    bank.click()
    expect()(bank).to_have_attribute("aria-pressed", "true")
    expect()(canvas).to_have_attribute("data-lines", str(_lines(heads, [0, 3], row=4)))
    _, top, weight = heads[0][4 * 6]  # row 4's strongest key comes first
    expect()(region.locator(".hv-readout")).to_contain_text(
        f"head 0: {d['tokens'][top]} {num(weight)}"
    )
    bank.press("Enter")  # the keyboard: Enter on the same token shows every line again
    expect()(bank).to_have_attribute("aria-pressed", "false")
    river = region.get_by_role("button", name="key river (position 3)", exact=True)
    river.focus()
    river.press("Enter")
    expect()(river).to_have_attribute("aria-pressed", "true")
    expect()(canvas).to_have_attribute("data-lines", str(_lines(heads, [0, 3], col=3)))
    region.get_by_label("Show", exact=True).select_option("mean_layers")
    mean = _lines(_kept(d["mean_layers"]), [0], col=3)
    expect()(canvas).to_have_attribute("data-lines", str(mean))
    expect()(canvas).to_have_attribute(
        "aria-label", "Lines from each query to each key, mean of all 6 layers × 12 heads"
    )


def test_the_head_view_follows_the_grid_and_reads_a_long_text(
    new_page, base_url, artifacts: Path
) -> None:
    page = open_model(new_page())
    page.get_by_role("button", name="layer 2 head 5", exact=True).click()
    region = page.get_by_role("region", name="Head view: every line is one weight")
    expect()(region.get_by_role("checkbox", name="head 5", exact=True)).to_be_checked()
    expect()(region.get_by_role("checkbox", name="head 0", exact=True)).not_to_be_checked()
    d = api(base_url, "/api/model/heads", text="by the river bank", layer=2)
    expect()(region.get_by_role("img")).to_have_attribute(
        "data-lines", str(_lines(_kept(d["heads"]), [5]))
    )
    region.get_by_role("checkbox", name="head 9", exact=True).check()
    region.screenshot(path=str(artifacts / "model-head-view.png"))
    box = page.get_by_role("textbox", name="Text", exact=True)
    box.fill(LONG)
    box.press("Enter")
    tokens = trace(base_url, text=LONG)["window"]["all_tokens"]  # "tokens" is the shown window
    n, last_bank = len(tokens), max(i for i, t in enumerate(tokens) if t == "bank")
    assert n > 90
    queries = region.get_by_role("button", name=re.compile(r"^query "))
    expect()(queries).to_have_count(n, timeout=20_000)
    expect()(region.locator(".hv-note")).to_contain_text(f"{n} tokens: the columns scroll")
    long = api(base_url, "/api/model/heads", text=LONG, layer=2)
    assert f"Each query row draws only its 16 strongest of {n} keys" in long["note"]
    expect()(region.locator(".hv-note")).to_contain_text(long["note"])
    lines = _lines(_kept(long["heads"]), [5, 9])
    expect()(region.get_by_role("img")).to_have_attribute("data-lines", str(lines))
    region.get_by_role("button", name=f"query bank (position {last_bank})", exact=True).click()
    region.screenshot(path=str(artifacts / "model-head-view-100.png"))
    assert region.locator(".hv-wrap").evaluate("e => e.scrollHeight > e.clientHeight")


def test_masking_a_word_shows_the_api_distances_and_keeps_them_current(
    new_page, base_url, console, artifacts: Path
) -> None:
    console.allow("status of 400 (Bad Request)")
    page = open_model(new_page())
    title = "Mask a token: how much does the focus row depend on it?"
    region = page.get_by_role("region", name=title)
    region.get_by_label("Word to mask", exact=True).fill("river")
    region.get_by_role("button", name="Mask and compare").click()
    m = api(base_url, "/api/model/mask", text="by the river bank", focus=4, mask="river")
    table = region.get_by_role("table", name="Masking, layer by layer")
    expect()(table.locator("tbody tr").nth(6).locator("td")).to_have_text(
        [distance(m["tv"][5][0]), distance(m["tv_mean"][5]), distance(m["target_weight"][5][0]),
         distance(m["cosine_distance"][6]), distance(m["l2"][6])]
    )  # fmt: skip
    expect()(region.get_by_text(m["note"])).to_be_visible()
    plots = region.get_by_role("img")
    expect()(plots.nth(0)).to_have_attribute("aria-label", re.compile(r"^How far the focus row"))
    region.screenshot(path=str(artifacts / "model-mask.png"))
    page.get_by_role("button", name="layer 1 head 4", exact=True).click()  # another head
    expect()(table.locator("thead th").nth(1)).to_have_text("row change (head 4)")
    expect()(table.locator("tbody tr").nth(2).locator("td").nth(0)).to_have_text(
        distance(m["tv"][1][4])
    )
    page.get_by_role("button", name="the", exact=True).click()  # another focus: asked again
    m2 = api(base_url, "/api/model/mask", text="by the river bank", focus=2, mask="river")
    last = table.locator("tbody tr").nth(6).locator("td")
    expect()(last.nth(1)).to_have_text(distance(m2["tv_mean"][5]))
    page.get_by_role("button", name="river", exact=True).click()  # the focus is the word
    error = api_error(base_url, "/api/model/mask", text="by the river bank", focus=3, mask="river")
    alert = region.get_by_role("alert").filter(has_text="is the token masked")
    expect()(alert).to_have_text(error["error"])
    expect()(table.locator("tbody tr")).to_have_count(0)  # no numbers of another question
    page.get_by_role("button", name="bank", exact=True).click()
    expect()(table.locator("tbody tr")).to_have_count(7)  # the focus moved off the word
    region.get_by_label("How", exact=True).select_option("none")
    region.get_by_role("button", name="Mask and compare").click()
    expect()(region.get_by_text(re.compile("^Nothing was masked"))).to_be_visible()
    expect()(table.locator("tbody tr")).to_have_count(7)
    for k in range(7):
        expect()(table.locator("tbody tr").nth(k).locator("td").nth(4)).to_have_text("0")


def test_screenshots_of_the_panels(new_page, artifacts: Path) -> None:
    page = open_model(new_page(), "?view=model&model.text=by+the+riverbank&model.focus=riverbank")
    page.locator(".rm-top").screenshot(path=str(artifacts / "model-pieces.png"))
    region = page.get_by_role("region", name="Compare contexts")
    region.get_by_label("Sentence A", exact=True).fill("the bank by the bank")
    region.get_by_role("button", name="Compare").click()
    region.get_by_label("Which one in sentence A", exact=True).select_option(index=1)
    expect()(region.get_by_role("table", name=re.compile("^Difference A"))).to_be_visible()
    region.screenshot(path=str(artifacts / "model-compare-diff.png"))
    phone = open_model(new_page(390, 844))
    phone.get_by_role("region", name="Head view: every line is one weight").screenshot(
        path=str(artifacts / "model-head-view-390.png")
    )
    _ = button


@pytest.mark.parametrize(
    "name",
    ["head_view.js", "head_view_layout.js", "model_mask.js", "mask_layout.js", "model_views.css"],
)
def test_the_new_files_are_served_and_build_no_markup_from_strings(base_url, name) -> None:
    import urllib.request
    from importlib.resources import files

    text = (files("attnlab") / "static" / name).read_text(encoding="utf-8")
    with urllib.request.urlopen(f"{base_url}/static/{name}") as response:
        assert response.status == 200 and response.read().decode() == text
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
        assert sink not in text, f"{name} uses {sink}"
    assert not re.search(r"https?://", text.replace("http://www.w3.org/2000/svg", ""))


def test_the_toy_lessons_head_view_and_predict_first(new_page, base_url, artifacts: Path) -> None:
    page = new_page(height=900)
    page.goto("/")
    expect()(page.get_by_role("img")).to_have_count(1)  # closed: the lesson's picture is the one
    page.get_by_text("Head view of the toy head (every line is one weight)").click()
    region = page.get_by_role("region", name="Head view: every line is one weight")
    lesson = api(base_url, "/api/lesson")
    canvas = region.get_by_role("img")
    expect()(canvas).to_have_attribute("data-lines", str(_lines(_whole([lesson["weights"]]), [0])))
    assert region.get_by_label("Show", exact=True).is_hidden()  # one layer: no means to offer
    bank = region.get_by_role("button", name="query bank (position 3)", exact=True)
    bank.hover()
    expect()(region.locator(".hv-readout")).to_have_text(
        "bank (query, position 3) gives: head 0: river 0.69, bank 0.14, by 0.11"
    )
    region.screenshot(path=str(artifacts / "lesson-head-view.png"))
    page.get_by_role("combobox", name="Heads").select_option("2")
    two = api(base_url, "/api/lesson", heads=2)
    region.get_by_role("checkbox", name="head 1", exact=True).check()
    weights = [h["weights"] for h in two["heads"]]
    expect()(canvas).to_have_attribute("data-lines", str(_lines(_whole(weights), [0, 1])))
    page.get_by_role("switch", name="Predict first").check()  # the lines are the answer
    expect()(region).to_be_hidden()
