"""The Real model view's Mask a token and Compare contexts panels on a decoder, in Chromium, the
way a newcomer reaches them: open the view on MiniLM, pick SmolLM2 in the `Model` menu. Mask a
token offers only what the model can do (SmolLM2 has no mask token: its `How` starts on dropping
the word, MiniLM's on the mask token), and Compare's captions name each sentence's whole tokens
(no slice that takes a decoder's first and last word for [CLS] and [SEP])."""

from __future__ import annotations

from typing import Any

import pytest
from test_model_page import api, api_error, expect, open_model, trace

from attnlab.words.model_views import distance

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("smollm2")]

MASK_TITLE = "Mask a token: how much does the focus row depend on it?"


def settle(page: Any) -> None:
    """The model's answer is on screen: no status, no error anywhere."""
    expect()(page.get_by_role("status", name="Model status")).to_be_empty()
    expect()(page.locator("#real-model .field-error:not(:empty)")).to_have_count(0)
    expect()(page.locator("#real-model .banner:not([hidden])")).to_have_count(0)


def how_options(page: Any) -> Any:
    return page.get_by_role("region", name=MASK_TITLE).get_by_label("How", exact=True)


def check_captions(page: Any, base_url: str, name: str) -> None:
    """Both rows' captions name every token of their sentence but the tokenizer's own."""
    cmp = api(base_url, "/api/model/compare", model=name)
    special = set(api(base_url, "/api/model/info", model=name)["special"])
    for which, side in (("A", cmp["a"]), ("B", cmp["b"])):
        shown = " ".join(t.strip() for t in side["tokens"] if t not in special)
        row = page.get_by_role("table", name=f"Attention row of {cmp['word']} in sentence {which}")
        expect()(row.locator("caption")).to_have_text(f"Sentence {which}: “{shown}”")
        expect()(row.locator("thead th")).to_have_text(side["tokens"])


def test_minilm_offers_the_mask_token_and_names_whole_sentences(new_page, base_url) -> None:
    expect().set_options(timeout=60_000)
    page = open_model(new_page())
    settle(page)
    expect()(how_options(page)).to_have_value("mask")
    expect()(how_options(page).locator("option")).to_have_count(3)
    check_captions(page, base_url, "minilm")


def test_smollm2_masks_by_its_default_and_names_whole_sentences(new_page, base_url) -> None:
    expect().set_options(timeout=60_000)
    page = open_model(new_page())
    page.get_by_label("Model", exact=True).select_option("smollm2")
    settle(page)
    expect()(how_options(page).locator("option[value='mask']")).to_have_count(0)
    expect()(how_options(page)).to_have_value("drop")
    region = page.get_by_role("region", name=MASK_TITLE)
    region.get_by_label("Word to mask", exact=True).fill("river")
    region.get_by_role("button", name="Mask and compare").click()
    n_layers = api(base_url, "/api/model/info", model="smollm2")["n_layers"]
    table = region.get_by_role("table", name="Masking, layer by layer")
    expect()(table.locator("tbody tr")).to_have_count(n_layers + 1)  # "in", then each layer
    expect()(region.get_by_role("alert")).to_be_hidden()
    check_captions(page, base_url, "smollm2")


NEWCOMER = "The bank of the river flooded, so the bank downtown closed early."


def test_smollm2_drops_a_word_and_shows_the_text_and_every_small_distance(
    new_page, base_url, console
) -> None:
    """Issue 22, the newcomer's clicks: SmolLM2, their text, drop river. Bugs: the edited text
    was the tokens joined by spaces ("the flooded , so"), the 1 − cosine column read 0 for layers
    0-16 while the plot rose, and zebra was refused with a Python list of words."""
    expect().set_options(timeout=60_000)
    console.allow("status of 400 (Bad Request)")
    page = open_model(new_page())
    page.get_by_label("Model", exact=True).select_option("smollm2")
    settle(page)
    box = page.get_by_role("textbox", name="Text", exact=True)
    box.fill(NEWCOMER)
    box.press("Enter")
    settle(page)
    focus = trace(base_url, model="smollm2", text=NEWCOMER)["focus"]
    region = page.get_by_role("region", name=MASK_TITLE)
    region.get_by_label("Word to mask", exact=True).fill("river")
    region.get_by_role("button", name="Mask and compare").click()
    q = {"model": "smollm2", "text": NEWCOMER, "focus": focus, "mask": "river", "how": "drop"}
    m = api(base_url, "/api/model/mask", **q)
    edited = "The bank of the flooded, so the bank downtown closed early."
    assert m["edited_text"] == edited
    expect()(region.locator(".rm-mask-edited")).to_have_text(f"Edited text: {edited}")
    table = region.get_by_role("table", name="Masking, layer by layer")
    expect()(table.locator("tbody tr")).to_have_count(len(m["labels"]))
    cosine = table.locator("tbody tr td:nth-of-type(4)")
    expect()(cosine).to_have_text([distance(x) for x in m["cosine_distance"]])
    moved = [k for k, x in enumerate(m["cosine_distance"]) if x > 0]
    assert len(moved) == len(m["labels"]) - 1  # every layer moved (not "in": the word is later)
    assert all(cosine.nth(k).text_content() != "0" for k in moved)
    l2 = table.locator("tbody tr td:nth-of-type(5)")
    expect()(l2).to_have_text([distance(x) for x in m["l2"]])
    readout = ", ".join(
        f"{lab} {distance(x)}" for lab, x in zip(m["labels"], m["cosine_distance"], strict=True)
    )
    vector = region.get_by_role("img").nth(1)
    expect()(vector).to_have_attribute(
        "aria-label", f"How far the focus vector moved: 1 − cosine: {readout}"
    )
    region.get_by_label("Word to mask", exact=True).fill("zebra")
    region.get_by_role("button", name="Mask and compare").click()
    error = api_error(base_url, "/api/model/mask", **{**q, "mask": "zebra"})["error"]
    assert error == (
        "“zebra” is not a word of the text: type one of its words: The, bank, of, river, "
        "flooded, so, downtown, closed, early"
    )
    expect()(region.get_by_role("alert").filter(has_text="zebra")).to_have_text(error)
