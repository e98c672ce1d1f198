"""SmolLM2 on the Real model page, in Chromium: chosen by the `Model` select, the causal triangle
greyed with masked cells reading 0, the GQA line, RoPE's plot with its legend, the next tokens,
all the API's numbers; at 2,048 tokens (the text built once) head switches are timed in the page
with performance.now(), their p95 under 1 s while other work runs. The pages come from
`attnlab serve` itself in a child process (one uvicorn process and its executors' workers, as a
learner runs it), not from the in-thread test server."""

from __future__ import annotations

import json
import statistics
import urllib.parse
from pathlib import Path
from typing import Any

import pytest
from test_model_page import api, expect, weights_table

from attnlab.words.numfmt import num, percent

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("smollm2")]


@pytest.fixture(scope="module")
def base_url(served_url: str) -> str:
    return served_url


TEXT = "The river bank was muddy after the long rain today, so"


def open_smollm2(new_page: Any, text: str, timeout: int = 60_000, **state: Any) -> Any:
    expect().set_options(timeout=timeout)
    q = urllib.parse.urlencode(
        {"view": "model", "model.name": "smollm2", "model.text": text, **state}
    )
    page = new_page(1280, 800)
    page.set_default_timeout(timeout)
    page.goto(f"/?{q}")
    expect()(page.get_by_label("Model", exact=True)).to_have_value("smollm2")
    expect()(weights_table(page)).to_be_visible()
    expect()(page.get_by_role("status", name="Model status")).to_be_empty()
    return page


def test_smollm2_at_12_tokens(new_page, base_url, artifacts: Path) -> None:
    t = api(base_url, "/api/model/trace", model="smollm2", text=TEXT, layer=3, head=4, grid="none")
    assert t["window"]["n"] == 12
    page = open_smollm2(new_page, TEXT, **{"model.layer": 3, "model.head": 4})
    table = weights_table(page)
    masked = table.locator("td.masked")
    expect()(masked).to_have_count(12 * 11 // 2)
    expect()(masked.first).to_have_text("0")
    expect()(table.locator("caption")).to_contain_text(
        "each row sums to 1 over the keys it can see"
    )
    expect()(page.locator(".rm-gqa")).to_contain_text("query heads 3, 4, 5 share key/value head 1")
    expect()(page.locator(".rm-gqa")).to_contain_text("checked: identical")
    expect()(page.get_by_label("Head", exact=True).locator("option").nth(4)).to_have_text(
        "head 4 (K/V head 1)"
    )
    dec = t["decoder"]
    plot = page.get_by_role("img", name="Plot: the score of the query", exact=False)
    expect()(plot.locator("text.legend")).to_have_text(
        ["score at distance δ", f"this text (δ = {dec['distance']})"]
    )
    expect()(page.locator(".rm-decoder .rm-note")).to_contain_text(
        f"the score is {num(dec['score_used'])}"
    )
    # the focus is the last token here: one table, not the same prediction twice
    last_token = t["window"]["all_tokens"][-1]
    expect()(page.locator(".rm-next table")).to_have_count(1)
    last = page.get_by_role(
        "table", name=f"Next token after “{last_token}” (position 11, the last token)"
    )
    expect()(last.locator("tbody td")).to_have_text(
        [percent(x["probability"]) for x in dec["next_after_last"]]
    )
    expect()(page.locator(".rm-matrix-note")).to_contain_text("Grey cells are masked")
    expect()(page.get_by_role("img", name="Heat scale: weight, logarithmic")).to_be_visible()
    page.screenshot(path=str(artifacts / "smollm2-12-page.png"), full_page=True)
    page.locator(".rm-decoder").screenshot(path=str(artifacts / "smollm2-12-rope.png"))
    page.locator(".rm-matrix").screenshot(path=str(artifacts / "smollm2-12-matrix.png"))
    # following an earlier token: its prediction, then the last token's
    page.locator('.rm-tokens button[data-index="2"]').click()
    expect()(page.locator(".rm-next table")).to_have_count(2)
    focus_token = t["window"]["all_tokens"][2]
    for name in (f"“{focus_token}” (position 2)", f"“{last_token}” (position 11)"):
        expect()(page.get_by_role("table", name=f"Next token after {name}")).to_be_visible()


def test_smollm2_at_2048_tokens_head_switch_timed(
    new_page, base_url, artifacts: Path, smollm2_long_text: str
) -> None:
    text = smollm2_long_text
    page = open_smollm2(new_page, text, timeout=900_000)
    expect()(page.locator(".rm-window-note")).to_contain_text("of its 2048 tokens")
    expect()(page.get_by_role("img", name="Attention matrix", exact=False)).to_have_attribute(
        "data-cells", "512"
    )
    expect()(page.locator(".rm-matrix-note")).to_contain_text(
        "pooled to 512 × 512 cells of up to 4 × 4"
    )
    page.screenshot(path=str(artifacts / "smollm2-2048-page.png"), full_page=True)
    times, clicks = [], []
    # from the click event to the moment the page has the head on screen (its beats, table and
    # matrix drawn): what a learner waits. The button is found by CSS and the wait polls one
    # number: Playwright's role locators compute the accessible names of 2,000 buttons in the
    # page, on the same 2 cores as the page and the server (one run each: 410-774 ms with them
    # running, 366-513 ms without). "with locator" is Playwright's whole click and wait.
    page.evaluate(
        "() => document.addEventListener('click', (e) => { window.__click = e.timeStamp; }, true)"
    )
    for head in range(1, 7):
        button = page.locator(f'.rm-heads button[data-layer="0"][data-head="{head}"]')
        page.evaluate("() => { window.__click = null; window.__t0 = performance.now(); }")
        button.click()
        page.wait_for_function(
            "() => window.__click !== null && Number(document.getElementById('real-model')"
            ".dataset.shownAt) > window.__click",
            polling=50,
        )
        shown = page.locator("#real-model").evaluate("(el) => Number(el.dataset.shownAt)")
        clicks.append(shown - page.evaluate("() => window.__click"))
        times.append(page.evaluate("() => performance.now() - window.__t0"))
        expect()(button).to_have_accessible_name(f"layer 0 head {head}")
        expect()(weights_table(page).locator("caption")).to_contain_text(f"layer 0, head {head}")
        expect()(
            page.get_by_role("img", name=f"Attention matrix of layer 0, head {head}", exact=False)
        ).to_be_visible()
        expect()(page.get_by_role("status", name="Model status")).to_be_empty()
        page.wait_for_timeout(300)  # a learner looks before the next click: the page settles
    report = {
        "head_switch_ms": [round(x) for x in clicks],
        "median_ms": round(statistics.median(clicks)),
        "with_locator_ms": [round(x) for x in times],
    }
    (artifacts / "smollm2-2048-head-switch.json").write_text(json.dumps(report))
    print(
        f"head switch at 2,048 tokens in the page: {report['head_switch_ms']} ms from the click, "
        f"median {report['median_ms']} ms "
        f"({report['with_locator_ms']} ms with Playwright's locator)"
    )
    page.locator(".rm-matrix").screenshot(path=str(artifacts / "smollm2-2048-matrix.png"))
    page.locator(".rm-stage").screenshot(path=str(artifacts / "smollm2-2048-stage.png"))


def switch_ms(page: Any, layer: int, head: int) -> float:
    """Click the grid's cell of (layer, head) and wait until that head is on screen: the ms from
    the click event to the page's shownAt, as test_smollm2_at_2048_tokens_head_switch_timed."""
    cell = page.locator(f'.rm-heads button[data-layer="{layer}"][data-head="{head}"]')
    page.evaluate("() => { window.__click = null; }")
    cell.click()
    page.wait_for_function(
        "() => window.__click !== null && Number(document.getElementById('real-model')"
        ".dataset.shownAt) > window.__click",
        polling=50,
    )
    shown = page.locator("#real-model").evaluate("(el) => Number(el.dataset.shownAt)")
    return float(shown - page.evaluate("() => window.__click"))


@pytest.mark.slow
def test_switches_at_2048_tokens_are_shown_within_a_second_while_other_work_runs(
    new_page, base_url, artifacts: Path, smollm2_long_text: str
) -> None:
    """Quick switches across four layers and layer switches: each head on screen within 1 s
    (p95), timed from the click to the head on screen (the page no longer asks a 2,048-token
    head view by itself, nor waits for one); then, reported only, switches while a head view the
    learner asked for comes. Every request's start and duration is kept in the artifact."""
    page = open_smollm2(new_page, smollm2_long_text, timeout=900_000)
    page.evaluate(
        "() => document.addEventListener('click', (e) => { window.__click = e.timeStamp; }, true)"
    )
    times: list[float] = []
    for layer in (1, 2, 3, 4):
        times.append(switch_ms(page, layer, 0))  # a layer switch
        for head in (1, 2):  # at once: its head view is still computing
            times.append(switch_ms(page, layer, head))
            expect()(weights_table(page).locator("caption")).to_contain_text(
                f"layer {layer}, head {head}"
            )
    # at 2,048 tokens the head view is asked on demand (its answer is every head's n × n weights
    # as plain JSON, 38 million numbers): once the learner asks it, the switches made while it
    # comes wait for the server and then for the page to read it. Reported, not asserted: that
    # answer's size is the server's contract (another part of issue 22)
    asked_times: list[float] = []
    ask = page.get_by_role("button", name="Show the head view of this layer", exact=True)
    for layer in (5, 6):
        # layer 6 is asked while layer 5's head view comes
        (times if layer == 5 else asked_times).append(switch_ms(page, layer, 0))
        ask.click()
        page.wait_for_function(
            "() => performance.getEntriesByType('resource').some((e) =>"
            f" e.name.includes('/api/model/heads') && e.name.includes('layer={layer}'))",
            polling=50,
        )
        page.wait_for_timeout(200)  # the head view is computing now
        for head in (3, 4):
            asked_times.append(switch_ms(page, layer, head))
    expect()(
        page.get_by_role("img", name="Attention matrix of layer 6, head 4", exact=False)
    ).to_be_visible()
    asked = page.evaluate(
        """() => performance.getEntriesByType('resource')
             .filter((e) => e.name.includes('/api/model/'))
             .map((e) => [new URL(e.name).pathname.split('/').pop(),
                          Math.round(e.startTime), Math.round(e.duration)])"""
    )
    in_order = [round(x) for x in times]
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    report = {
        "switch_ms": in_order,
        "p95_ms": round(p95),
        "with_head_view_asked_ms": [round(x) for x in asked_times],
        "requests": asked,
    }
    (artifacts / "smollm2-2048-switch-under-load.json").write_text(json.dumps(report))
    print(
        f"switches at 2,048 tokens: {in_order} ms in click order, p95 {round(p95)} ms; "
        f"while an asked head view comes: {report['with_head_view_asked_ms']} ms"
    )
    expect()(page.get_by_role("status", name="Model status")).to_be_empty()
    assert p95 < 1000, report
