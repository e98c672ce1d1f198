"""The Export menu, in Chromium: reached and used by keyboard alone; the SVG is the canvas's
picture (rasterized, within 1 % of its pixels) with the numbers as text; PNGs are drawn again at
2× and 3×; the GIF has the six beats; the CSV and JSON are the Python exports' numbers."""

from __future__ import annotations

import csv
import io
import itertools
import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from playwright_expect import expect

from attnlab import LessonOptions, explain_lesson
from attnlab.export import lesson_json, long_table_csv, matrix_csv, svg_picture

pytestmark = pytest.mark.browser

MENU = "Export this view: pictures, numbers, a file that works offline"
SVG_NS = "{http://www.w3.org/2000/svg}"


def open_lesson(page: Any, query: str) -> Any:
    page.goto(f"/{query}")
    expect()(page.get_by_role("status", name="Narration").locator(".beat-text")).not_to_be_empty()
    return page


def canvas(page: Any) -> Any:
    return page.locator("#lesson canvas")


def export(page: Any, item: str, artifacts: Path | None = None) -> tuple[bytes, str]:
    """Open the lesson's Export menu, choose `item`, and return the file the browser saved."""
    page.locator("#lesson").get_by_role("button", name=MENU).click()
    with page.expect_download() as info:
        page.get_by_role("menuitem", name=item, exact=True).click()
    download = info.value
    data = Path(download.path()).read_bytes()
    if artifacts is not None:
        (artifacts / f"export-{download.suggested_filename}").write_bytes(data)
    return data, download.suggested_filename


def focused(page: Any) -> str:
    return page.evaluate(
        "() => (document.activeElement.getAttribute('aria-label')"
        " || document.activeElement.textContent || '').trim()"
    )


def test_the_menu_by_keyboard_only(new_page, tab_to) -> None:
    page = open_lesson(new_page(), "?beat=score")
    tab_to(page, MENU)
    page.keyboard.press("Enter")
    assert focused(page) == "Picture, PNG 1×"
    for _ in range(3):
        page.keyboard.press("ArrowDown")
    assert focused(page) == "Picture, SVG (vector, real text)"
    page.keyboard.press("End")
    assert focused(page) == "Offline page (HTML)"
    page.keyboard.press("ArrowDown")  # wraps around
    assert focused(page) == "Picture, PNG 1×"
    expect()(canvas(page)).to_have_attribute("data-beat", "score")  # the arrows did not step
    page.keyboard.press("Escape")
    assert focused(page) == MENU
    expect()(page.get_by_role("menu")).to_be_hidden()
    page.keyboard.press("ArrowUp")  # opens on the last item
    assert focused(page) == "Offline page (HTML)"
    page.keyboard.press("ArrowUp")
    assert focused(page) == "The whole trace, JSON"
    with page.expect_download() as info:
        page.keyboard.press("Enter")
    assert info.value.suggested_filename == "attnlab-by-the-river-bank-bank-scaled-score.json"
    assert focused(page) == MENU
    expect()(page.locator("#lesson .export-status")).to_have_text(
        "Saved attnlab-by-the-river-bank-bank-scaled-score.json."
    )


def test_the_menu_closes_on_tab_and_on_a_press_outside_it(new_page, tab_to) -> None:
    page = open_lesson(new_page(), "?beat=score")
    menu_button = page.locator("#lesson").get_by_role("button", name=MENU)
    menu = page.get_by_role("menu")
    in_menu = "() => Boolean(document.activeElement.closest('.export-list'))"
    tab_to(page, MENU)
    page.keyboard.press("Enter")
    page.keyboard.press("End")
    page.keyboard.press("Home")
    assert focused(page) == "Picture, PNG 1×"
    page.keyboard.press("Tab")  # leaves the menu, which closes behind it
    expect()(menu).to_be_hidden()
    expect()(menu_button).to_have_attribute("aria-expanded", "false")
    assert not page.evaluate(in_menu) and focused(page) != MENU
    menu_button.click()
    expect()(menu).to_be_visible()
    # a press inside the menu's box (its empty status line) leaves it open
    page.locator("#lesson .export-status").dispatch_event("pointerdown")
    expect()(menu).to_be_visible()
    page.get_by_role("heading", level=1).click()  # outside: it closes, nothing is saved
    expect()(menu).to_be_hidden()
    expect()(menu_button).to_have_attribute("aria-expanded", "false")
    expect()(page.locator("#lesson .export-status")).to_have_text("")


SVG_AGAINST_CANVAS = """async ({ svgText, canvasPNG, w, h }) => {
  const load = (src) => new Promise((ok, bad) => {
    const img = new Image();
    img.onload = () => ok(img);
    img.onerror = bad;
    img.src = src;
  });
  const pixels = (source) => {
    const copy = document.createElement('canvas');
    copy.width = w; copy.height = h;
    const g = copy.getContext('2d', { willReadFrequently: true });
    g.drawImage(source, 0, 0, w, h);
    return g.getImageData(0, 0, w, h).data;
  };
  const svg = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml' }));
  const a = pixels(await load(svg)), b = pixels(await load(canvasPNG));
  let differ = 0, ink = 0;
  for (let k = 0; k < a.length; k += 4) {
    const d = Math.max(...[0, 1, 2].map((c) => Math.abs(a[k + c] - b[k + c])));
    if (d > 48) differ++;
    if (b[k] < 200 || b[k + 1] < 200 || b[k + 2] < 200) ink++;
  }
  return { differ, ink, total: w * h };
}"""
"""Rasterize the SVG and compare it with the canvas's own pixels (its PNG, taken from the page),
in a blank page of the same browser: the app's Content-Security-Policy has no say there."""


@pytest.mark.parametrize("beat", ["tokens", "score", "blend", "parallel"])
def test_svg_is_the_canvas_picture_with_its_numbers_as_text(new_page, artifacts, beat) -> None:
    page = open_lesson(new_page(), f"?sentence=at+the+savings+bank&focus=3&beat={beat}")
    data, name = export(page, "Picture, SVG (vector, real text)", artifacts)
    assert name == f"attnlab-at-the-savings-bank-bank-scaled-{beat}.svg"
    root = ET.fromstring(data)  # parses as XML
    assert root.tag == f"{SVG_NS}svg"
    box = canvas(page).bounding_box()
    assert (float(root.get("width")), float(root.get("height"))) == (box["width"], box["height"])
    texts = [t.text for t in root.iter(f"{SVG_NS}text")]
    ex = explain_lesson("at the savings bank", focus="bank")
    w = ex.trace.weights[3]
    if beat == "parallel":
        for shown in (f"{x:.2f}".rstrip("0").rstrip(".") for x in w):
            assert shown in texts, shown  # the focus row's weights, as the picture writes them
    if beat == "score":
        assert "= 2.3" in texts and "4.6 / 2" in texts  # savings' score, divided by √4
    if shutil.which("node"):  # the command line's SVG is the same layout, drawn the same way
        size = (round(box["width"]), round(box["height"]))
        beat_index = ["tokens", "project", "score", "softmax", "blend", "parallel"].index(beat)
        cli = ET.fromstring(svg_picture(ex, beat=beat_index, size=size))
        assert [t.text for t in cli.iter(f"{SVG_NS}text")] == texts
        assert len(list(cli.iter(f"{SVG_NS}rect"))) == len(list(root.iter(f"{SVG_NS}rect")))
    shot = canvas(page).evaluate("c => ({ png: c.toDataURL(), w: c.width, h: c.height })")
    blank = page.context.new_page()
    ask = {"svgText": data.decode(), "canvasPNG": shot["png"], "w": shot["w"], "h": shot["h"]}
    result = blank.evaluate(SVG_AGAINST_CANVAS, ask)
    blank.close()
    assert result["ink"] > 0.01 * result["total"], "the canvas has a picture to compare"
    assert result["differ"] <= 0.01 * result["total"], result


def test_png_is_drawn_again_at_each_scale(new_page, artifacts) -> None:
    import numpy as np
    from PIL import Image

    page = open_lesson(new_page(), "?beat=softmax")
    box = canvas(page).bounding_box()
    images = {}
    for scale in (1, 2, 3):
        data, name = export(page, f"Picture, PNG {scale}×", artifacts)
        assert name.endswith(f"-softmax-{scale}x.png")
        image = Image.open(io.BytesIO(data)).convert("RGB")
        assert image.size == (round(box["width"] * scale), round(box["height"] * scale))
        a = np.asarray(image, dtype=np.int16)  # (h, w, 3)
        assert (a.min(axis=-1) < 200).mean() > 0.02, "not blank"
        images[scale] = image
    upscaled = np.asarray(images[1].resize(images[2].size, Image.Resampling.NEAREST), np.int16)
    changed = np.abs(upscaled - np.asarray(images[2], np.int16)).max(axis=-1) > 40
    assert changed.mean() > 0.002, "the 2× picture is its own drawing, not the 1× pixels enlarged"


def test_gif_holds_the_six_beats(new_page, artifacts) -> None:
    from PIL import Image, ImageChops

    page = open_lesson(new_page(), "?beat=score")
    data, name = export(page, "Animation of the six steps, GIF", artifacts)
    assert name == "attnlab-by-the-river-bank-bank-scaled.gif"
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF" and gif.n_frames == 6
    box = canvas(page).bounding_box()
    assert gif.size == (round(box["width"]), round(box["height"]))
    frames = []
    for k in range(6):
        gif.seek(k)
        frames.append(gif.convert("RGB"))
        assert gif.info["duration"] in (2500, 5000)
    for a, b in itertools.pairwise(frames):
        assert ImageChops.difference(a, b).getbbox() is not None, "each beat is its own picture"


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def _same(a: list[list[str]], b: list[list[str]]) -> None:
    """Two CSVs with the same cells: words equal, numbers equal as floats (exactly)."""
    assert len(a) == len(b)
    for ra, rb in zip(a, b, strict=True):
        for x, y in zip(ra, rb, strict=True):
            try:
                assert float(x) == float(y) or (x == y)
            except ValueError:
                assert x == y


def test_csv_and_json_are_the_python_exports(new_page) -> None:
    page = open_lesson(new_page(), "?sentence=at+the+savings+bank&focus=3&causal=1&heads=2")
    ex = explain_lesson("at the savings bank", LessonOptions(causal=True, heads=2), focus=3)
    data, _ = export(page, "Every score and weight, CSV (long form)")
    _same(_rows(data.decode("utf-8")), _rows(long_table_csv(ex)))
    data, _ = export(page, "Weights matrix, CSV")
    _same(_rows(data.decode("utf-8")), _rows(matrix_csv(ex.trace)))
    data, _ = export(page, "The whole trace, JSON")
    assert json.loads(data) == json.loads(json.dumps(lesson_json(ex)))


MODEL_STATE = "?view=model&model.layer=2&model.head=5&model.focus=4"


def export_model(page: Any, item: str) -> bytes:
    """Open the Real model view's Export menu, choose `item`, and return the file saved."""
    view = page.locator("#real-model")
    view.get_by_role("button", name=MENU).click()
    with page.expect_download() as info:
        view.get_by_role("menuitem", name=item, exact=True).click()
    return Path(info.value.path()).read_bytes()


def test_the_model_view_s_csv_files_hold_the_trace_s_numbers(new_page, base_url) -> None:
    from test_model_page import api, open_model

    t = api(base_url, "/api/model/trace", layer=2, head=5, focus=4, grid="none")
    page = open_model(new_page(), MODEL_STATE)
    header, *body = _rows(export_model(page, "Weights matrix, CSV").decode("utf-8"))
    assert header == ["query \\ key", *t["tokens"]]
    assert [r[0] for r in body] == t["tokens"]
    nine = lambda x: float(f"{x:.9g}")  # noqa: E731  the CSV's 9 significant digits
    assert [[float(x) for x in r[1:]] for r in body] == [[nine(w) for w in r] for r in t["weights"]]
    header, *body = _rows(export_model(page, "Every score and weight, CSV (long form)").decode())
    assert header[6:] == ["raw_score", "score", "weight"]
    n = len(t["tokens"])
    assert len(body) == n * n
    for layer, head, i, q, j, k, raw, score, w in body:
        a, b = int(i), int(j)
        assert (layer, head, q, k) == ("2", "5", t["tokens"][a], t["tokens"][b])
        got = [float(raw), float(score), float(w)]
        assert got == [nine(t[k][a][b]) for k in ("raw_scores", "scores", "weights")]


def test_an_export_error_wraps_inside_its_own_box(new_page, console, artifacts) -> None:
    from test_model_page import open_model

    console.allow("status of 400")
    long_error = "the server refused this file: " + "x" * 300
    page = open_model(new_page(1280, 800), MODEL_STATE)
    page.route(
        "**/api/export/model.html*",
        lambda route: route.fulfill(
            status=400, content_type="application/json", body=json.dumps({"error": long_error})
        ),
    )
    view = page.locator("#real-model")
    view.get_by_role("button", name=MENU).click()
    view.get_by_role("menuitem", name="Offline page (HTML)", exact=True).click()
    status = view.locator(".export-status")
    expect()(status).to_contain_text(long_error)
    box = status.bounding_box()
    assert box is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= 1280, box
    follow = view.get_by_role("group", name="Follow the token:").bounding_box()
    assert follow is not None
    overlap = (
        box["x"] < follow["x"] + follow["width"]
        and follow["x"] < box["x"] + box["width"]
        and box["y"] < follow["y"] + follow["height"]
        and follow["y"] < box["y"] + box["height"]
    )
    assert not overlap, (box, follow)
    view.locator(".rm-left").screenshot(path=str(artifacts / "model-export-error.png"))


def test_a_long_text_s_head_line_and_csv_say_the_whole_text_and_the_window(
    new_page, base_url
) -> None:
    """A long text shows a window of its tokens. Its long-form CSV held the shown rows renumbered
    0..14, the followed row summing to 0.195, and nothing said so: the indices are the tokens'
    places in the text, and the menu says, beside both CSVs, what they hold."""
    from urllib.parse import quote

    from test_model_page import api, open_model

    from attnlab.words.page_export import EXPORT_WORDS

    text = " ".join(["the river bank was quiet and the water was cold"] * 30)
    t = api(base_url, "/api/model/trace", text=text, layer=1, head=2, grid="none")
    w = t["window"]
    assert not w["whole"] and len(w["rows"]) < w["n"]
    page = open_model(
        new_page(), f"?view=model&model.text={quote(text)}&model.layer=1&model.head=2"
    )
    view = page.locator("#real-model")
    # the head's line counts the text's tokens, as the window's note does: it said "13 tokens"
    # right above "the steps show 13 of its 302 tokens"
    expect()(view.locator(".rm-which")).to_contain_text(f": {w['n']} tokens, queries and keys")
    expect()(view.locator(".rm-window-note")).to_contain_text(f"of its {w['n']} tokens")
    # a cell's readout names the tokens by their places and the table's numbers as the table's
    # ("Row 8 (query “provided #1770”)" read as if row 8 were a place too)
    view.get_by_role("table", name="Real attention weights").locator(
        "td[data-i='1'][data-j='0']"
    ).hover()
    shown = len(w["rows"])
    expect()(view.get_by_text(re.compile(r"^The query “"))).to_contain_text(
        f"(row 2 and column 1 of the {shown} shown)"
    )
    view.get_by_role("button", name=MENU).click()
    note = EXPORT_WORDS["export.csv_window"].format(shown=len(w["rows"]), n=w["n"])
    for item in ("Weights matrix, CSV", "Every score and weight, CSV (long form)"):
        expect()(
            view.get_by_role("menuitem", name=item, exact=True)
        ).to_have_accessible_description(note)
    page.keyboard.press("Escape")
    _, *body = _rows(export_model(page, "Every score and weight, CSV (long form)").decode())
    assert len(body) == len(w["rows"]) ** 2
    places = sorted({int(r[2]) for r in body})
    assert places == sorted(w["rows"])  # the text's own indices, not 0..len-1
    assert max(places) == w["n"] - 1 or w["n"] - 1 not in w["rows"]
    tokens = {int(r[2]): r[3] for r in body}
    assert all(tokens[i] == w["all_tokens"][i] for i in places)
