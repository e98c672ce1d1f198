"""The Head atlas tab in real Chromium: every number on it is the atlas file's (file.py read
back), the table sorts from the keyboard with aria-sort saying how, a head's card shows its
exemplars, and one click opens the Real model view on an exemplar with that head and token.
Screenshots: test-artifacts/atlas-1280x800.png and atlas-390x844.png."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from playwright_expect import expect

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TEXTS = (
    "the river bank was muddy after the rain",
    "she paid the money into her savings account at the bank",
    "a large natural stream of water; the river was navigable for fifty miles",
    "the cat sat on the mat and the cat slept",
    "one two three one two three one two three",
    "boats carry wool, timber and apples down to the harbour",
)


@pytest.fixture(scope="module")
def atlas_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real MiniLM atlas of six texts, run in this process and written by file.py."""
    pytest.importorskip("pyarrow")
    from attnlab.atlas.corpus import Corpus
    from attnlab.atlas.file import Provenance, write_atlas
    from attnlab.atlas.run import VERSION, AtlasOptions, run_atlas

    corpus = Corpus(TEXTS, "six texts")
    options = AtlasOptions(model="minilm", scheduler="none", probes=2, probe_length=8)
    sums = run_atlas(corpus, options).sums
    path = tmp_path_factory.mktemp("atlas") / "minilm-six.parquet"
    prov = Provenance(
        model="minilm", corpus=corpus.source, corpus_sha256=corpus.digest,
        texts=sums.texts_read, pieces=sums.pieces, tokens=sums.tokens, split=sums.split,
        skipped=sums.skipped, epsilon=options.epsilon, top_k=options.top_k,
        probes=options.probes, version=VERSION, attnlab="test", causal=False,
    )  # fmt: skip
    write_atlas(path, sums, prov)
    return path


@pytest.fixture(scope="module")
def atlas_url(atlas_file: Path) -> Iterator[str]:
    """The app serving that atlas (`attnlab serve --atlas FILE`'s create_app), on 127.0.0.1."""
    import uvicorn

    from attnlab.web.app import create_app, uvicorn_config

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    app = create_app(atlases=(str(atlas_file),))
    config = uvicorn_config(app)
    config.lifespan = "off"
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    server.should_exit = True
    thread.join(timeout=5)
    app.state.executors.close()
    sock.close()


@pytest.fixture
def atlas_page(browser: Any, atlas_url: str, console: Any) -> Iterator[Any]:
    contexts: list[Any] = []

    def make(width: int = 1280, height: int = 800) -> Any:
        context = browser.new_context(
            viewport={"width": width, "height": height}, base_url=atlas_url, reduced_motion="reduce"
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(20_000)
        console.watch(page)
        return page

    yield make
    for context in contexts:
        context.close()
    assert console.unexpected() == [], "the page reported errors"


def file_values(path: Path) -> tuple[Any, Any]:
    from attnlab.atlas.file import read_atlas

    return read_atlas(path)


def three(x: float) -> str:
    """format.js's num(x, 3): three decimals, trailing zeros dropped."""
    text = f"{x:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def open_atlas(page: Any, query: str = "") -> Any:
    page.goto(f"/{query}")
    page.get_by_role("tab", name="Head atlas").click()
    expect()(page.locator(".atlas-cell").first).to_be_visible()
    return page


def test_the_picture_the_table_and_the_card_show_the_files_numbers(
    atlas_page: Any, atlas_file: Path, artifacts: Path
) -> None:
    from attnlab.atlas.stats import SCALE, STATISTICS

    sums, prov = file_values(atlas_file)
    means = sums.means()
    page = open_atlas(atlas_page())
    page.get_by_label("Statistic", exact=True).select_option("previous")
    s = STATISTICS.index("previous")
    cells = page.locator(".atlas-cell")
    expect()(cells).to_have_count(sums.n_layers * sums.n_heads)
    shown = page.evaluate(
        "() => [...document.querySelectorAll('.atlas-cell')].map(c =>"
        " [Number(c.dataset.layer), Number(c.dataset.head), c.textContent])"
    )
    for layer, head, text in shown:
        assert text == three(means[s, layer, head]), (layer, head)
    finite = means[s][np.isfinite(means[s])]
    expect()(page.locator(".atlas-scale")).to_have_text(
        f"Colour scale: {three(finite.min())} to {three(finite.max())} share of a row's weight"
    )
    # the card of L3 H5: every statistic's value and its rank among the 72 heads
    page.get_by_role("button", name=f"Layer 3, head 5: {three(means[s, 3, 5])}").click()
    card = page.get_by_role("region", name="Layer 3, head 5")
    for i, stat in enumerate(STATISTICS):
        value = card.locator(f"[data-key='{stat}'] .atlas-value")
        expect()(value).to_have_text(three(means[i, 3, 5]))
    order = sorted(range(72), key=lambda k: (-means[s].flat[k], k))
    rank = order.index(3 * 12 + 5) + 1
    expect()(card.locator("[data-key='previous'] .atlas-rank")).to_have_text(f"rank {rank} of 72")
    items = card.locator(".atlas-exemplars li")
    k = int((sums.ex_value[s, 3, 5] >= 0).sum())
    expect()(items).to_have_count(k)
    best = sums.ex_value[s, 3, 5, 0] / SCALE
    text = sums.texts[int(sums.ex_uid[s, 3, 5, 0])]
    position = int(sums.ex_position[s, 3, 5, 0])
    said = f"{three(best)}, the mean over this text's rows; token {position} shows it most"
    expect()(items.first).to_contain_text(f"{said}: “{text}”")
    page.screenshot(path=str(artifacts / "atlas-1280x800.png"), full_page=False)
    assert prov.model == "minilm"


def test_the_table_sorts_from_the_keyboard_and_says_how(atlas_page: Any, atlas_file: Path) -> None:
    from attnlab.atlas.stats import STATISTICS

    sums, _ = file_values(atlas_file)
    means = sums.means()
    page = open_atlas(atlas_page())
    table = page.get_by_role("table", name="Heads, sortable")
    first_header = table.locator("th", has=page.get_by_role("button", name="Entropy (bits)"))
    expect()(first_header).to_have_attribute("aria-sort", "descending")  # the statistic shown
    header = table.locator("th", has=page.get_by_role("button", name="Self", exact=True))
    expect()(header).to_have_attribute("aria-sort", "none")
    table.get_by_role("button", name="Self", exact=True).focus()
    page.keyboard.press("Enter")
    expect()(header).to_have_attribute("aria-sort", "descending")
    expect()(first_header).to_have_attribute("aria-sort", "none")
    s = STATISTICS.index("self")
    order = sorted(range(72), key=lambda k: (-means[s].flat[k], k))
    first = table.locator("tbody tr").first
    expect()(first.locator("th")).to_have_text(f"L{order[0] // 12} H{order[0] % 12}")
    page.keyboard.press("Space")  # the focus stays on the header: pressed again, it reverses
    expect()(header).to_have_attribute("aria-sort", "ascending")
    expect()(first.locator("th")).to_have_text(f"L{order[-1] // 12} H{order[-1] % 12}")
    expect()(first.locator("td").nth(s)).to_have_text(three(means[s].flat[order[-1]]))


def test_the_picture_is_one_tab_stop_and_the_arrow_keys_move_between_heads(
    atlas_page: Any,
) -> None:
    page = open_atlas(atlas_page(), "?view=atlas&atlas.layer=2&atlas.head=11")
    expect()(page.locator(".atlas-cell[tabindex='0']")).to_have_count(1)
    page.locator(".atlas-cell[aria-pressed='true']").focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")  # the last head already: it stays
    expect()(page.get_by_role("region", name="Layer 3, head 11")).to_be_visible()
    page.keyboard.press("Home")
    expect()(page.get_by_role("region", name="Layer 3, head 0")).to_be_visible()
    focused = page.evaluate(
        "() => [document.activeElement.dataset.layer, document.activeElement.dataset.head]"
    )
    assert focused == ["3", "0"]
    assert "atlas.layer=3&atlas.head=0" in page.url


def test_one_click_opens_the_real_model_on_the_exemplar(atlas_page: Any, atlas_file: Path) -> None:
    from attnlab.atlas.stats import STATISTICS

    sums, _ = file_values(atlas_file)
    s = STATISTICS.index("self")
    page = open_atlas(atlas_page(), "?view=atlas&atlas.statistic=self&atlas.layer=1&atlas.head=4")
    card = page.get_by_role("region", name="Layer 1, head 4")
    text = sums.texts[int(sums.ex_uid[s, 1, 4, 0])]
    position = int(sums.ex_position[s, 1, 4, 0])
    card.get_by_role("link", name=f"Open layer 1, head 4 in the Real model on this text, "
                     f"following token {position}").first.click()  # fmt: skip
    expect()(page.get_by_role("tab", name="Real model")).to_have_attribute("aria-selected", "true")
    expect()(page.get_by_label("Layer", exact=True)).to_have_value("1", timeout=90_000)
    expect()(page.get_by_label("Head", exact=True)).to_have_value("4")
    assert text in page.evaluate("() => decodeURIComponent(location.search.replace(/\\+/g, ' '))")
    assert f"model.focus={position}" in page.url


def test_a_phone_screen(atlas_page: Any, artifacts: Path) -> None:
    page = open_atlas(atlas_page(390, 844), "?view=atlas&atlas.statistic=sink")
    page.screenshot(path=str(artifacts / "atlas-390x844.png"), full_page=False)
    page.get_by_role("region", name="Layer 0, head 0").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "atlas-390x844-card.png"), full_page=False)
    width = page.evaluate(
        "() => [document.documentElement.scrollWidth, [...document.querySelectorAll('#atlas *')]"
        ".filter(e => e.getBoundingClientRect().right > 391).map(e => e.className).slice(0, 5)]"
    )
    assert width[0] <= 390, f"the page scrolls sideways: {width}"


def test_the_offline_file_shows_the_same_numbers_from_file_url(
    browser: Any, atlas_file: Path, tmp_path: Path, artifacts: Path, console: Any
) -> None:
    """`attnlab atlas show ATLAS --html FILE`: the Atlas view alone, opened from file://."""
    from attnlab.atlas.stats import STATISTICS
    from attnlab.cli.main import main

    out = tmp_path / "atlas.html"
    assert main(["atlas", "show", str(atlas_file), "--html", str(out)]) == 0
    sums, _ = file_values(atlas_file)
    means = sums.means()
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    console.watch(page)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    page.goto(out.as_uri())
    page.get_by_label("Statistic", exact=True).select_option("sink")
    s = STATISTICS.index("sink")
    cell = page.get_by_role("button", name=f"Layer 2, head 3: {three(means[s, 2, 3])}")
    expect()(cell).to_have_text(three(means[s, 2, 3]))
    cell.click()
    card = page.get_by_role("region", name="Layer 2, head 3")
    expect()(card.locator("[data-key='sink'] .atlas-value")).to_have_text(three(means[s, 2, 3]))
    expect()(card.get_by_role("link")).to_have_count(0)  # no server here: no Real model link
    expect()(page.locator("#attnlab-note")).to_contain_text("needs attnlab serve")
    page.screenshot(path=str(artifacts / "atlas-offline-1280x800.png"))
    context.close()
    assert asked == [out.as_uri()]  # the file asked for nothing else
    assert console.unexpected() == []


def test_with_no_atlas_served_the_tab_says_how_to_make_one(new_page: Any) -> None:
    from attnlab.words.atlas_words import ATLAS_VIEW_WORDS as W

    page = new_page()  # no 400 in the console: GET /api/atlas/names answers [] (see conftest)
    page.goto("/")
    page.get_by_role("tab", name="Head atlas").click()
    card = page.get_by_role("status").filter(has_text=W["atlas.none_title"])
    expect()(card.locator("code").first).to_have_text(W["atlas.none_make"])
    expect()(page.locator("#lesson")).to_be_hidden()
    page.get_by_role("tab", name="Toy lesson").click()
    expect()(page.locator("#atlas")).to_be_hidden()
    expect()(page.get_by_role("tab", name="Head atlas")).to_have_attribute("aria-selected", "false")


def test_a_stale_atlas_name_falls_back_to_the_served_one_with_a_note(
    atlas_page: Any, atlas_file: Path
) -> None:
    from attnlab.words.atlas_words import ATLAS_VIEW_WORDS as W

    page = atlas_page()
    page.goto("/?view=atlas&atlas.name=nope")
    expect()(page.locator(".atlas-cell").first).to_be_visible()
    note = W["atlas.fallback"].format(name="nope", shown=atlas_file.stem)
    expect()(page.locator(".atlas-note")).to_have_text(note)
    expect()(page.locator(".atlas-about")).to_contain_text("minilm on six texts")


def test_at_390_a_picked_row_brings_its_card_into_sight(atlas_page: Any, artifacts: Path) -> None:
    page = open_atlas(atlas_page(390, 844))
    table = page.get_by_role("table", name="Heads, sortable")
    row = table.locator("tbody tr").nth(20)
    layer, head = row.get_attribute("data-layer"), row.get_attribute("data-head")
    row.get_by_role("button").click()
    card = page.get_by_role("region", name=f"Layer {layer}, head {head}")
    expect()(card.get_by_role("heading", name=f"Layer {layer}, head {head}")).to_be_in_viewport()
    expect()(card.locator("[data-key='entropy'] .atlas-value")).to_be_in_viewport()
    page.screenshot(path=str(artifacts / "atlas-row-pick-390x844.png"))


def test_at_390_the_sorted_column_is_in_sight_beside_the_heads(
    atlas_page: Any, artifacts: Path
) -> None:
    page = open_atlas(atlas_page(390, 844))
    table = page.get_by_role("table", name="Heads, sortable")
    scroll = page.get_by_role("region", name="Heads, sortable")
    scroll.scroll_into_view_if_needed()
    for name in ("Earlier copy", "Previous (probe)"):  # columns 9 and 11 of 11
        table.get_by_role("button", name=name, exact=True).click()
        th = table.locator("th", has=page.get_by_role("button", name=name, exact=True))
        expect()(th).to_have_attribute("aria-sort", "descending")
        box, cell = scroll.bounding_box(), th.bounding_box()
        assert box is not None and cell is not None
        assert box["x"] <= cell["x"] and cell["x"] + cell["width"] <= box["x"] + box["width"] + 1
        pick = table.locator("tbody tr").first.get_by_role("button")  # the sticky heads column
        first = pick.bounding_box()
        assert first is not None and box["x"] <= first["x"] < cell["x"]
    page.screenshot(path=str(artifacts / "atlas-sorted-390x844.png"))


def test_the_table_scroll_box_takes_keyboard_focus(atlas_page: Any) -> None:
    page = open_atlas(atlas_page())
    scroll = page.get_by_role("region", name="Heads, sortable")
    expect()(scroll).to_have_attribute("tabindex", "0")
    scroll.focus()
    expect()(scroll).to_be_focused()
    # at 1280 the last column is clipped inside the box: the keyboard scrolls it into sight
    assert scroll.evaluate("(el) => el.scrollWidth > el.clientWidth")
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("(el) => el.scrollLeft > 0", arg=scroll.element_handle())
