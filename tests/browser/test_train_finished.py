"""The Train view after a run, clicked as a newcomer would: a finished run says what Play or
Step will do next, Step then says it started a new run (it used to wipe the curves without a
word), and scrubbing back through the checkpoints moves the curves' legends to that step (they
stayed on the final step's values). Every number checked is the core's (train/). Screenshots in
test-artifacts/train-finished-*.png and train-legend-scrubbed-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright_expect import expect

from attnlab.train.catalog import start
from attnlab.words import training as words
from attnlab.words.numfmt import num

pytestmark = pytest.mark.browser
STEPS = 60  # lookup at the fast speed: three chunks of 20 steps, then the last one


def _finish(page: Any) -> Any:
    page.goto("/?view=train")
    view = page.get_by_role("region", name="Watch a head learn")
    view.locator("[data-train='experiment']").select_option("lookup")
    view.locator("[data-train='steps']").fill(str(STEPS))
    view.locator("[data-train='speed']").select_option("20")
    view.get_by_role("button", name="Play the training run").click()
    expect()(view.locator("[data-train='status']")).to_have_text(
        f"Finished: {STEPS} steps. Seed 0. {words.PAGE['finished_next']}", timeout=60_000
    )  # the first run starts the worker process
    return view


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_step_on_a_finished_run_says_it_starts_a_new_one(
    new_page: Any, artifacts: Path, width: int, height: int
) -> None:
    page = new_page(width=width, height=height)
    view = _finish(page)
    status = view.locator("[data-train='status']")
    loss = view.locator("figure[data-measure='loss'] canvas")
    assert loss.get_attribute("data-drawn") == str(STEPS + 1)  # steps 0 … 60 on the curve
    status.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"train-finished-{width}x{height}.png"))

    view.get_by_role("button", name="Step the training run by one chunk").click()
    said = words.PAGE["new_run"].format(step=19, steps=STEPS)
    expect()(status).to_have_text(f"{said} Seed 0.")  # one chunk of 20: steps 0 … 19
    expect()(view.locator("[data-train='at-step']")).to_have_text("19")
    assert loss.get_attribute("data-drawn") == "20"  # the finished run's curve is gone
    core = list(start("lookup", steps=STEPS, seed=0))
    shown = view.locator("figure[data-measure='loss'] [data-value='scaled.loss']")
    expect()(shown).to_have_text(num(core[19].values["scaled.loss"], places=3))
    status.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"train-new-run-{width}x{height}.png"))

    view.get_by_role("button", name="Play the training run").click()  # Play goes on as usual
    expect()(status).to_have_text(
        f"Finished: {STEPS} steps. Seed 0. {words.PAGE['finished_next']}", timeout=30_000
    )


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_the_legends_follow_the_scrubbed_checkpoint(
    new_page: Any, artifacts: Path, width: int, height: int
) -> None:
    page = new_page(width=width, height=height)
    view = _finish(page)
    core = list(start("lookup", steps=STEPS, seed=0))
    checkpoints = [s.step for s in core if s.checkpoint is not None]  # 0, 6, …, 60
    scrub = view.locator("[data-train='scrub']")
    measures = ("loss", "weight_river", "weight_savings")

    def legends_at(step: int) -> None:
        for measure in measures:
            panel = view.locator(f"figure[data-measure='{measure}']")
            expect()(panel.locator(".train-legend-at")).to_have_text(
                words.PAGE["legend_at"].format(step=step)
            )
            want = num(core[step].values[f"scaled.{measure}"], places=3)
            expect()(panel.locator(f"[data-value='scaled.{measure}']")).to_have_text(want)

    legends_at(STEPS)  # the run's end: the final step
    middle = len(checkpoints) // 2
    scrub.fill(str(middle))  # as dragging the slider there does
    expect()(view.locator("[data-train='scrub-at']")).to_have_text(
        f"step {checkpoints[middle]} of {STEPS}"
    )
    legends_at(checkpoints[middle])
    assert core[checkpoints[middle]].values["scaled.loss"] != core[STEPS].values["scaled.loss"]
    view.locator("figure[data-measure='loss']").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"train-legend-scrubbed-{width}x{height}.png"))
    scrub.fill("0")
    legends_at(0)
    scrub.fill(str(len(checkpoints) - 1))  # back to the end
    legends_at(STEPS)
