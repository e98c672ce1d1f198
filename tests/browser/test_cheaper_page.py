"""The lab's Cheaper attention section in real Chromium: each card's badge and numbers are
/api/cheaper's for the lesson on screen, the online softmax steps tile by tile to the Softmax
and Blend steps' numbers, and screenshots of the cards land in test-artifacts/cheaper-*.png."""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright_expect import expect

pytestmark = pytest.mark.browser


def api(base_url: str, **params: Any) -> Any:
    query = urllib.parse.urlencode(params)
    with urllib.request.urlopen(f"{base_url}/api/cheaper?{query}") as response:
        return json.load(response)


def section(page: Any) -> Any:
    return page.get_by_role("region", name="FlashAttention: the softmax in tiles")


def open_cheaper(new_page: Any, query: str = "") -> Any:
    page = new_page(height=1000)
    page.goto(f"/{query}")
    page.locator("details.cheaper > summary").click()  # the section opens when asked for
    online = section(page)
    expect()(online.locator(".cheaper-badge")).to_be_visible()
    online.scroll_into_view_if_needed()
    return page


def test_every_card_shows_its_live_badge(new_page: Any, base_url: str, artifacts: Path) -> None:
    page = open_cheaper(new_page)
    want = api(base_url, sentence="by the river bank", focus="3", tile="2")
    online = section(page)
    expect()(online.locator(".cheaper-badge")).to_have_text(want["online"]["badge"]["text"])
    assert want["online"]["badge"]["text"].startswith("exact: max |Δ| = ")
    heads = page.get_by_role("region", name="Fewer keys and values to cache")
    expect()(heads.locator(".cheaper-badge").first).to_have_text(
        "MQA: " + want["heads"]["mqa"]["text"]
    )
    expect()(heads.locator(".cheaper-badge").nth(1)).to_have_text(
        "MLA: " + want["heads"]["mla"]["text"]
    )
    windows = page.get_by_role("region", name="Sliding windows and attention sinks")
    expect()(windows.locator("[data-scheme='window'] .kept")).to_have_text(["river", "bank"])
    expect()(windows.locator("[data-scheme='sinks'] .kept")).to_have_text(["by", "river", "bank"])
    linear = page.get_by_role("region", name="Linear attention")
    expect()(linear.locator(".cheaper-badge")).to_have_text(want["linear"]["badge"]["text"])
    assert want["linear"]["badge"]["text"].startswith("approximate: mean |Δ| = ")
    cards = page.locator(".cheaper")
    cards.scroll_into_view_if_needed()
    cards.screenshot(path=str(artifacts / "cheaper-cards.png"))


def test_the_online_card_steps_tile_by_tile_to_the_blend_output(
    new_page: Any, base_url: str, artifacts: Path
) -> None:
    page = open_cheaper(new_page, "?sentence=by+the+river+bank&focus=3")
    online = section(page)
    want = api(base_url, sentence="by the river bank", focus="3", tile="1")
    online.get_by_label("Keys per tile").select_option("1")
    text = online.locator(".lab-out")
    expect()(text).to_have_text(want["online"]["steps"][0]["text"])
    assert online.get_by_role("button", name="Previous tile").is_disabled()
    for k in range(1, 4):
        online.get_by_role("button", name="Next tile").click()
        expect()(text).to_have_text(want["online"]["steps"][k]["text"])
        if k == 2:  # river's tile: the maximum rises and what came before shrinks
            assert "shrink by exp(0.46 − 2.3)" in want["online"]["steps"][k]["text"]
            online.screenshot(path=str(artifacts / "cheaper-online-river.png"))
    online.get_by_role("button", name="Next tile").click()
    expect()(text).to_contain_text("O / ℓ = [1.43, 0.06, 0.14, 0]")
    assert online.get_by_role("button", name="Next tile").is_disabled()
    online.screenshot(path=str(artifacts / "cheaper-online-end.png"))


def test_a_lab_change_asks_again(new_page: Any, base_url: str) -> None:
    page = open_cheaper(new_page, "?sentence=at+the+savings+bank&causal=1")
    want = api(base_url, sentence="at the savings bank", focus="3", tile="2", causal="1")
    linear = page.get_by_role("region", name="Linear attention")
    expect()(linear.locator(".cheaper-badge")).to_have_text(want["linear"]["badge"]["text"])
    expect()(section(page).locator(".lab-out")).to_have_text(want["online"]["steps"][0]["text"])


@pytest.mark.slow  # the measurement: 3 s on a quiet machine, up to 20 s on a loaded one
def test_the_price_card_plots_each_form_against_n(new_page: Any, artifacts: Path) -> None:
    page = open_cheaper(new_page)
    price = page.get_by_role("region", name="The price against n")
    price.get_by_role("button", name="Measure the price").click()
    status = price.get_by_role("status")
    expect()(status).to_contain_text("At n = 4,096 the n × n form peaked at ", timeout=60_000)
    expect()(price.get_by_role("figure")).to_have_count(2)
    expect()(price.locator(".legend").first).to_contain_text("tiles (FlashAttention)")
    price.scroll_into_view_if_needed()
    price.screenshot(path=str(artifacts / "cheaper-price.png"))
