"""The Real model view's Mask a token and Compare contexts panels on a decoder, in Chromium, the
way a newcomer reaches them: open the view on MiniLM, pick SmolLM2 in the `Model` menu. Mask a
token offers only what the model can do (SmolLM2 has no mask token: its `How` starts on dropping
the word, MiniLM's on the mask token), and Compare's captions name each sentence's whole tokens
(no slice that takes a decoder's first and last word for [CLS] and [SEP])."""

from __future__ import annotations

from typing import Any

import pytest
from test_model_page import api, expect, open_model

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
