"""Issue 26's Cheaper attention findings in real Chromium, at 1280×800 and 390×844: the tiled card
runs on the lesson's own scores (Uniform, the wrong axis), the linear card follows the causal
mask, and the keyboard keeps its focus on a live control and its arrows inside the section.
Screenshots land in test-artifacts/cheaper26-*.png."""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright_expect import expect

pytestmark = pytest.mark.browser

SIZES = [(1280, 800), (390, 844)]


def api(base_url: str, **params: Any) -> Any:
    with urllib.request.urlopen(f"{base_url}/api/cheaper?{urllib.parse.urlencode(params)}") as r:
        return json.load(r)


def opened(new_page: Any, query: str, width: int, height: int) -> tuple[Any, Any]:
    page = new_page(width=width, height=height)
    page.goto(f"/{query}")
    page.locator("details.cheaper > summary").click()
    online = page.get_by_role("region", name="FlashAttention: the softmax in tiles")
    expect()(online.locator(".cheaper-badge")).to_be_visible()
    online.scroll_into_view_if_needed()
    return page, online


def to_the_end(online: Any) -> None:
    nxt = online.get_by_role("button", name="Next tile")
    while nxt.is_enabled():
        nxt.click()


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_under_uniform_the_tiles_end_on_the_lessons_equal_weights(
    new_page: Any, base_url: str, artifacts: Path, width: int, height: int
) -> None:
    want = api(base_url, sentence="by the river bank", focus="3", tile="2", mode="uniform")
    assert want["online"]["exact_weights"] == [0.25] * 4  # the lesson's Uniform row
    assert want["online"]["badge"]["kind"] == "exact"
    _, online = opened(new_page, "?mode=uniform", width, height)
    expect()(online.locator(".cheaper-badge")).to_have_text(want["online"]["badge"]["text"])
    to_the_end(online)
    expect()(online.locator(".lab-out")).to_have_text(want["online"]["end_text"])
    out = ", ".join(f"{x:.2f}".rstrip("0").rstrip(".") for x in want["online"]["output"])
    expect()(online.locator(".lab-out")).to_contain_text(f"O / ℓ = [{out}]")
    online.screenshot(path=str(artifacts / f"cheaper26-uniform-{width}.png"))


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_softmax_over_queries_says_there_is_no_tiled_form(
    new_page: Any, base_url: str, artifacts: Path, width: int, height: int
) -> None:
    want = api(base_url, sentence="by the river bank", focus="3", tile="2", axis="queries")
    _, online = opened(new_page, "?axis=queries", width, height)
    badge = online.locator(".cheaper-badge")
    expect()(badge).to_have_text(want["online"]["badge"]["text"])
    expect()(badge).to_contain_text("no tiled form")
    expect()(badge).to_have_attribute("data-kind", "unchecked")
    to_the_end(online)
    expect()(online.locator(".lab-out")).to_contain_text("wrong axis")
    online.screenshot(path=str(artifacts / f"cheaper26-axis-{width}.png"))


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_causal_linear_attention_sees_no_future_key(
    new_page: Any, base_url: str, artifacts: Path, width: int, height: int
) -> None:
    want = api(base_url, sentence="by the river bank", focus="0", tile="2", causal="1")
    assert want["linear"]["linear_row"] == [1, 0, 0, 0]
    page, _ = opened(new_page, "?causal=1&focus=0", width, height)
    linear = page.get_by_role("region", name="Linear attention")
    expect()(linear.locator(".cheaper-badge")).to_have_text(want["linear"]["badge"]["text"])
    expect()(linear.locator(".cheaper-badge")).to_contain_text("over all 4 rows")
    cells = linear.locator("tbody tr td:nth-child(3)")
    expect()(cells).to_have_text(["1", "0", "0", "0"])
    expect()(linear).to_contain_text(want["linear"]["sharpen_text"])
    assert "α = 1: 1 against 1" in want["linear"]["sharpen_text"]
    linear.scroll_into_view_if_needed()
    linear.screenshot(path=str(artifacts / f"cheaper26-linear-causal-{width}.png"))


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_keyboard_stays_on_the_tiles_and_off_the_lesson(
    new_page: Any, base_url: str, artifacts: Path, width: int, height: int
) -> None:
    want = api(base_url, sentence="by the river bank", focus="3", tile="2")
    page, online = opened(new_page, "", width, height)
    nxt = online.get_by_role("button", name="Next tile")
    nxt.focus()
    before = page.url
    for _ in want["online"]["steps"]:
        page.keyboard.press("Enter")
    expect()(nxt).to_be_disabled()
    prev = online.get_by_role("button", name="Previous tile")
    expect()(prev).to_be_focused()  # not <body>
    page.keyboard.press("ArrowRight")  # at the end: nothing, and not the lesson's next beat
    assert page.url == before
    page.keyboard.press("ArrowLeft")  # one tile back
    expect()(online.locator(".lab-out")).to_have_text(want["online"]["steps"][-1]["text"])
    page.keyboard.press("Enter")  # Previous tile again, from the keyboard
    expect()(online.locator(".lab-out")).to_have_text(want["online"]["steps"][-2]["text"])
    expect()(prev).to_be_disabled()
    expect()(nxt).to_be_focused()
    page.keyboard.press("ArrowLeft")
    assert page.url == before
    online.screenshot(path=str(artifacts / f"cheaper26-keyboard-{width}.png"))


@pytest.mark.slow  # SmolLM2 decodes 12 tokens on its cache, then the whole pass: 10 to 30 s
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_real_models_card_shows_each_cache_and_checks_smollm2(
    new_page: Any, base_url: str, artifacts: Path, width: int, height: int
) -> None:
    with urllib.request.urlopen(f"{base_url}/api/cheaper/models") as r:
        want = json.load(r)["models"]
    page, _ = opened(new_page, "", width, height)
    card = page.get_by_role("region", name="Real models: the key/value cache")
    card.scroll_into_view_if_needed()
    for m in want:
        rows = card.locator(f"tr[data-model='{m['name']}']")
        if m["missing"]:
            expect()(rows).to_have_class("missing")
            expect()(rows).to_contain_text("pip install")
            continue
        cells = rows.locator("td:nth-child(4)")
        expect()(cells).to_have_text([f"{f['bytes']:,} B" for f in m["forms"]])
    expect()(card).to_contain_text("attnlab cheaper windows")
    card.get_by_role("button", name="Check the KV cache on SmolLM2").click()
    expect()(card.get_by_role("status")).to_contain_text(" s")  # the seconds so far
    badge = card.locator(".cheaper-badge")
    expect()(badge).to_contain_text("exact: max |Δ| = ", timeout=120_000)
    with urllib.request.urlopen(f"{base_url}/api/cheaper/kv?model=smollm2") as r:
        kv = json.load(r)
    expect()(badge).to_have_text(kv["badge"]["text"])  # the same run's numbers (deterministic)
    card.screenshot(path=str(artifacts / f"cheaper26-models-{width}.png"))


def test_the_json_export_carries_the_cheaper_numbers_and_the_offline_file_says_live_only(
    new_page: Any, base_url: str, artifacts: Path, tmp_path: Path
) -> None:
    from attnlab.export import lesson_json
    from attnlab.lesson.explain import explain_lesson
    from attnlab.lesson.options import LessonOptions

    page = new_page()
    page.goto("/?sentence=at+the+savings+bank&mode=uniform&causal=1&focus=2")
    expect()(page.get_by_role("status", name="Narration").locator(".beat-text")).not_to_be_empty()
    menu = "Export this view: pictures, numbers, a file that works offline"
    page.locator("#lesson").get_by_role("button", name=menu).click()
    with page.expect_download() as info:
        page.get_by_role("menuitem", name="The whole trace, JSON", exact=True).click()
    saved = json.loads(Path(info.value.path()).read_bytes())
    want = api(base_url, sentence="at the savings bank", focus="2", tile="2", mode="uniform",
               causal="1")  # fmt: skip
    assert saved["cheaper"] == want
    assert want["online"]["exact_weights"] == [pytest.approx(1 / 3)] * 3 + [0]
    ex = explain_lesson("at the savings bank", LessonOptions(mode="uniform", causal=True), focus=2)
    assert saved == json.loads(json.dumps(lesson_json(ex)))  # as `attnlab export` writes it

    page.locator("#lesson").get_by_role("button", name=menu).click()
    with page.expect_download() as info:
        page.get_by_role("menuitem", name="Offline page (HTML)", exact=True).click()
    path = tmp_path / info.value.suggested_filename
    info.value.save_as(path)
    uri = path.as_uri()
    for width, height in SIZES:
        offline = new_page(width=width, height=height)
        offline.route("**/*", lambda r: r.continue_() if r.request.url == uri else r.abort())
        offline.goto(path.as_uri())
        note = offline.get_by_text("Cheaper attention section are live only", exact=False)
        expect()(note).to_be_visible()
        offline.screenshot(path=str(artifacts / f"cheaper26-offline-{width}.png"))


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_over_queries_the_linear_and_windows_cards_use_the_keys_axis_and_say_so(
    new_page: Any, base_url: str, artifacts: Path, width: int, height: int
) -> None:
    """Issue 26c A and B: the linear card's column, badge and α text from one keys-axis row;
    the windows card's live badge and the same axis note."""
    want = api(base_url, sentence="by the river bank", focus="3", tile="2", axis="queries")
    keys = api(base_url, sentence="by the river bank", focus="3", tile="2")
    assert want["linear"]["exact_row"] == keys["linear"]["exact_row"]  # not the lesson's column
    assert want["linear"]["note"] == "axis"
    page, _ = opened(new_page, "?axis=queries", width, height)
    linear = page.get_by_role("region", name="Linear attention")
    expect()(linear.locator(".cheaper-badge")).to_have_text(want["linear"]["badge"]["text"])
    expect()(linear.locator(".cheaper-badge")).to_contain_text("against the softmax over the keys")
    expect()(linear.locator("thead th").nth(1)).to_have_text("Softmax over keys (exact)")
    shown = [f"{x:.2f}".rstrip("0").rstrip(".") for x in want["linear"]["exact_row"]]
    expect()(linear.locator("tbody tr td:nth-child(2)")).to_have_text(shown)
    expect()(linear.locator(".cheaper-axis-note")).to_have_text(want["linear"]["note_text"])
    expect()(linear).to_contain_text(want["linear"]["sharpen_text"])
    top = f"{max(want['linear']['exact_row']):.4f}".rstrip("0")
    assert f"α = 1: {top} against" in want["linear"]["sharpen_text"]
    linear.scroll_into_view_if_needed()
    linear.screenshot(path=str(artifacts / f"cheaper26c-linear-axis-{width}.png"))
    windows = page.get_by_role("region", name="Sliding windows and attention sinks")
    badge = windows.locator(".cheaper-badge")
    expect()(badge).to_have_text(want["windows_badge"]["text"])
    expect()(badge).to_have_attribute("data-kind", "approximate")
    expect()(windows.locator(".cheaper-axis-note")).to_have_text(want["windows_note"])
    windows.scroll_into_view_if_needed()
    windows.screenshot(path=str(artifacts / f"cheaper26c-windows-axis-{width}.png"))


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_under_uniform_the_linear_badge_has_no_top1_and_an_early_window_is_exact(
    new_page: Any, base_url: str, artifacts: Path, width: int, height: int
) -> None:
    """Issue 26c C and B: Uniform's tied rows have no top-1; a window keeping every key is exact."""
    want = api(base_url, sentence="by the river bank", focus="1", tile="2", mode="uniform")
    page, _ = opened(new_page, "?mode=uniform&focus=1", width, height)
    linear = page.get_by_role("region", name="Linear attention")
    expect()(linear.locator(".cheaper-badge")).to_have_text(want["linear"]["badge"]["text"])
    expect()(linear.locator(".cheaper-badge")).to_contain_text("no top-1 to keep")
    expect()(linear.locator(".cheaper-badge")).not_to_contain_text("% of rows")
    windows = page.get_by_role("region", name="Sliding windows and attention sinks")
    expect()(windows.locator(".cheaper-badge")).to_have_text(want["windows_badge"]["text"])
    expect()(windows.locator(".cheaper-badge")).to_have_attribute("data-kind", "exact")
    expect()(windows.locator(".cheaper-axis-note")).to_have_count(0)
    windows.scroll_into_view_if_needed()
    windows.screenshot(path=str(artifacts / f"cheaper26c-windows-exact-{width}.png"))


@pytest.mark.parametrize(("width", "height"), SIZES)
@pytest.mark.parametrize("query", ["?axis=queries", "?causal=1&focus=0"])
def test_the_end_of_the_tiles_draws_its_whole_caption(
    new_page: Any, base_url: str, artifacts: Path, width: int, height: int, query: str
) -> None:
    """Issue 26c E: the end caption wraps on the canvas (judged on the screenshot), and the
    canvas names the same caption the answer sends."""
    params = dict(urllib.parse.parse_qsl(query[1:]))
    want = api(base_url, sentence="by the river bank", tile="2", **{"focus": "3", **params})
    _, online = opened(new_page, query, width, height)
    to_the_end(online)
    canvas = online.locator("canvas")
    assert canvas.get_attribute("aria-label").endswith(want["online"]["end_caption"])
    name = "axis" if "axis" in query else "causal0"
    online.screenshot(path=str(artifacts / f"cheaper26c-end-{name}-{width}.png"))
