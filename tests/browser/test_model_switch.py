"""Switching models on the Real model page the way a newcomer does, in Chromium: open the tab on
MiniLM, pick SmolLM2 in the `Model` menu, a layer, a head, a longer text, Run, a layer and a head
again. After every step the readouts are the chosen model's, layer's and head's (the title, the
tokens, the table, the grid, Compare), and the page reports no error. A long SmolLM2 run's
`Colour the grid by` shows what the grid is coloured by."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlparse

import pytest
from test_model_page import (
    api,
    api_error,
    api_table,
    expect,
    open_model,
    table_numbers,
    weights_table,
)

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("smollm2")]

SENTENCE = "The farmers walked home along the muddy river bank after the long rain of spring. "


def status(page: Any) -> Any:
    return page.get_by_role("status", name="Model status")


def settle(page: Any) -> None:
    """The model's answer is on screen: no status, no error anywhere."""
    expect()(status(page)).to_be_empty()
    expect()(page.locator("#real-model .field-error:not(:empty)")).to_have_count(0)
    expect()(page.locator("#real-model .banner:not([hidden])")).to_have_count(0)


def check_readouts(page: Any, base_url: str, text: str, layer: int, head: int) -> None:
    """Every readout on screen is SmolLM2's, for this text, layer and head."""
    t = api(base_url, "/api/model/trace", model="smollm2", text=text, layer=layer, head=head)
    expect()(page.get_by_label("Model", exact=True)).to_have_value("smollm2")
    expect()(page.get_by_label("Layer", exact=True)).to_have_value(str(layer))
    expect()(page.get_by_label("Head", exact=True)).to_have_value(str(head))
    expect()(page.locator(".rm-which")).to_contain_text(
        f"Layer {layer}, head {head} of SmolLM2-135M-Instruct"
    )
    tokens = page.get_by_role("group", name="Follow the token:").get_by_role("button")
    expect()(tokens).to_have_text(t["window"]["all_tokens"])
    expect()(weights_table(page).locator("caption")).to_contain_text(f"layer {layer}, head {head}")
    assert table_numbers(page) == api_table(t)
    cells = page.get_by_role("group", name="Heads: layers × heads").get_by_role("button")
    expect()(cells).to_have_count(30 * 9)
    pressed = page.locator(".rm-cell[aria-pressed='true']")
    expect()(pressed).to_have_count(1)
    expect()(pressed).to_have_accessible_name(f"layer {layer} head {head}")
    # every cell of every layer holds a picture or a colour (none left blank)
    blank = page.evaluate(
        """() => [...document.querySelectorAll('.rm-cell canvas')].filter((c) => {
             const px = c.getContext('2d').getImageData(c.width / 2, c.height / 2, 1, 1).data;
             return px[0] === 0xf3 && px[1] === 0xf3 && px[2] === 0xf7;
           }).length"""
    )
    assert blank == 0
    cmp = api(base_url, "/api/model/compare", model="smollm2")
    row_a = page.get_by_role("table", name="Attention row of bank in sentence A")
    expect()(row_a.locator("thead th")).to_have_text(cmp["a"]["tokens"])
    expect()(page.locator(".rm-compare h3")).to_contain_text(f"layer {layer}, head {head}")


def pick(page: Any, label: str, value: str) -> None:
    page.get_by_label(label, exact=True).select_option(value)
    settle(page)


def test_the_model_menu_switches_the_whole_view(
    new_page, base_url, console, artifacts: Path
) -> None:
    console.allow("willReadFrequently")  # the test reads the grid's pixels, many times
    expect().set_options(timeout=60_000)
    page = open_model(new_page(1280, 800))
    pick(page, "Model", "smollm2")
    check_readouts(page, base_url, "by the river bank", 0, 0)
    pick(page, "Layer", "3")
    pick(page, "Head", "4")
    check_readouts(page, base_url, "by the river bank", 3, 4)
    text = (SENTENCE * 4).strip()
    page.get_by_label("Text", exact=True).fill(text)
    page.get_by_role("button", name="Run the model", exact=True).click()
    settle(page)
    check_readouts(page, base_url, text, 3, 4)
    pick(page, "Layer", "7")
    pick(page, "Head", "2")
    check_readouts(page, base_url, text, 7, 2)
    page.get_by_role("button", name="layer 12 head 5", exact=True).click()
    settle(page)
    check_readouts(page, base_url, text, 12, 5)
    page.screenshot(path=str(artifacts / "model-switch-smollm2.png"), full_page=True)


def test_the_colour_select_says_what_a_long_run_draws(new_page, base_url, artifacts) -> None:
    expect().set_options(timeout=120_000)
    page = open_model(new_page(1280, 800), "?view=model&model.name=smollm2")
    text = (SENTENCE * 40).strip()  # beyond 512 tokens the grid has no rows
    t = api(base_url, "/api/model/trace", model="smollm2", text=text, grid="focus")
    assert t["grid"]["stats"]
    assert t["window"]["n"] > 512 and t["grid"]["rows"] is None
    page.get_by_label("Text", exact=True).fill(text)
    page.get_by_role("button", name="Run the model", exact=True).click()
    settle(page)
    expect()(page.locator(".rm-window-note")).to_contain_text(f"of its {t['window']['n']} tokens")
    grid = page.locator(".rm-grid")
    drawn = grid.get_attribute("data-color")
    select = page.get_by_label("Colour the grid by", exact=True)
    expect()(select).to_have_value(drawn)
    help_text = page.locator(".rm-grid-help").text_content() or ""
    shown = select.locator("option:checked").text_content() or ""
    assert shown in help_text
    page.locator(".rm-top").screenshot(path=str(artifacts / "model-long-grid-colour.png"))


def test_an_emoji_after_the_last_word_leaves_the_page_following_the_word(
    new_page: Any, base_url: str
) -> None:
    """SmolLM2 cuts ✅ into escaped bytes (' \\xe2', '\\x9c', '\\x85'). The page had a rule of
    its own for the default token, which took the x and 85 of '\\x85' for a word and asked again
    for it; it follows the API's default focus, " works"."""
    text = "It works ✅"
    t = api(base_url, "/api/model/trace", model="smollm2", text=text, layer=0, head=0)
    focus = t["window"]["focus"]
    assert t["window"]["all_tokens"][focus] == " works"
    page = open_model(
        new_page(1280, 800), f"?view=model&model.name=smollm2&model.text={quote(text)}"
    )
    settle(page)
    tokens = page.get_by_role("group", name="Follow the token:").get_by_role("button")
    expect()(tokens.nth(focus)).to_have_attribute("aria-pressed", "true")
    expect()(page.locator("[aria-pressed='true']", has_text="x85")).to_have_count(0)
    assert f"model.focus={focus}" in page.url or "model.focus" not in page.url


def test_a_model_too_small_for_the_text_shows_the_text_or_nothing(
    new_page: Any, base_url: str, console: Any, artifacts: Path
) -> None:
    """SmolLM2 on a text over MiniLM's 512 tokens, Run, then MiniLM in the `Model` menu: the
    error named the limit, while the steps, the tokens and the table silently showed MiniLM's
    default text ("[CLS] by the river bank [SEP]") and the address bar said
    model.text=by+the+river+bank, the text box still holding the long text. The box, the address
    bar and the view agree: the view shows the text in the box, or nothing."""
    console.allow("status of 400 (Bad Request)")
    expect().set_options(timeout=60_000)
    text = " ".join(["word"] * 600)
    expected = api_error(base_url, "/api/model/trace", model="minilm", text=text)["error"]
    assert "limit is 512" in expected
    page = open_model(new_page(1280, 800))
    pick(page, "Model", "smollm2")
    box = page.get_by_label("Text", exact=True)
    box.fill(text)
    page.get_by_role("button", name="Run the model", exact=True).click()
    settle(page)
    page.get_by_label("Model", exact=True).select_option("minilm")
    alert = page.locator("#real-model").get_by_role("alert").filter(has_text="limit is 512")
    expect()(alert).to_have_text(expected)
    expect()(status(page)).to_be_empty()
    page.wait_for_timeout(500)  # an answer the page would still draw has come by now
    expect()(page.get_by_label("Model", exact=True)).to_have_value("minilm")
    expect()(box).to_have_value(text)
    query = parse_qs(urlparse(page.url).query)
    assert query.get("model.text", [text]) == [text]
    tokens = page.get_by_role("group", name="Follow the token:").get_by_role("button")
    expect()(tokens).to_have_count(0)  # MiniLM cannot trace the text in the box: nothing shown
    assert table_numbers(page) == []
    expect()(page.locator(".rm-which")).not_to_contain_text("SmolLM2")
    expect()(page.locator(".rm-matrix")).to_be_hidden()  # SmolLM2's causal matrix stayed
    expect()(alert).to_have_text(expected)
    page.screenshot(path=str(artifacts / "model-switch-too-long.png"), full_page=True)


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_the_model_menu_stays_where_it_was_picked(
    new_page: Any, base_url: str, width: int, height: int
) -> None:
    """Picking SmolLM2 narrows the heads grid (9 heads, not 12), which widened the settings
    column: the Model menu jumped from below the Text box to beside it, away from the pointer
    that had just picked it. The Text box keeps a row of its own, so Model, Layer and Head stay
    in one row below it, for either model."""
    expect().set_options(timeout=60_000)
    page = open_model(new_page(width, height))
    menu = page.get_by_label("Model", exact=True)
    text_form = page.locator("#real-model .rm-text")

    def place() -> tuple[float, float]:
        box, form = menu.bounding_box(), text_form.bounding_box()
        assert box is not None and form is not None
        assert box["y"] >= form["y"] + form["height"]  # below the Text box, not beside it
        return box["x"], box["y"] - form["y"]

    before = place()
    pick(page, "Model", "smollm2")
    expect()(page.locator(".rm-which")).to_contain_text("SmolLM2")
    after = place()
    assert after[0] == pytest.approx(before[0], abs=1)
