"""The Train view in real Chromium against the real server: pick lookup, Play, the loss curve
grows and the step count rises, Pause holds it, Step adds one chunk, the scrubber goes back to
step 0 where bank's row equals the core's numbers (computed here with train/), Stop frees the
run. At 1280×800 and 390×844, with screenshots in test-artifacts/train-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright_expect import expect

from attnlab.train.catalog import start
from attnlab.words import training as words
from attnlab.words.numfmt import num

pytestmark = pytest.mark.browser


AT_STEP = "Number(document.querySelector(\"[data-train='at-step']\").textContent)"


def at_step(page: Any) -> int:
    text = page.locator("[data-train='at-step']").inner_text()
    return -1 if text == "–" else int(text)


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_play_pause_step_scrub_stop(
    new_page: Any, artifacts: Path, width: int, height: int
) -> None:
    page = new_page(width=width, height=height)
    page.goto("/?view=train")
    view = page.get_by_role("region", name="Watch a head learn")
    expect()(view.get_by_role("heading", name="Watch a head learn")).to_be_visible()
    view.locator("[data-train='experiment']").select_option("lookup")
    view.locator("[data-train='seed']").fill("0")
    view.locator("[data-train='steps']").fill("400")
    view.locator("[data-train='speed']").select_option("1")  # one step a request: slow to watch
    view.scroll_into_view_if_needed()

    view.get_by_role("button", name="Play the training run").click()
    view.get_by_role("heading", name="Watch a head learn").scroll_into_view_if_needed()
    loss = view.locator("figure[data-measure='loss']")
    expect()(loss).to_be_visible(timeout=30_000)  # the first run starts the worker process
    page.wait_for_function(
        "() => Number(document.querySelector(\"[data-train='at-step']\").textContent) >= 3"
    )
    drawn = "Number(document.querySelector(\"figure[data-measure='loss'] canvas\").dataset.drawn)"
    state = page.evaluate(f"() => [{AT_STEP}, {drawn}]")
    page.wait_for_function(f"() => {AT_STEP} > {state[0]} && {drawn} > {state[1]}")
    # the run goes on: the step count rises as chunks arrive, and the curve grows with it
    now = page.evaluate(f"() => [{AT_STEP}, {drawn}]")
    assert now[0] > state[0] and now[1] > state[1] and now[1] == now[0] + 1  # a point a step
    page.screenshot(path=str(artifacts / f"train-playing-{width}x{height}.png"))

    view.get_by_role("button", name="Pause the training run").click()
    expect()(view.get_by_role("button", name="Play the training run")).to_be_visible()
    page.wait_for_timeout(400)  # a chunk already asked for may still land
    paused = at_step(page)
    page.wait_for_timeout(800)
    assert at_step(page) == paused  # paused: no more steps
    expect()(view.locator("[data-train='status']")).to_have_text(
        f"Paused at step {paused} of 400. Seed 0."
    )

    view.get_by_role("button", name="Step the training run by one chunk").click()
    page.wait_for_function(f"() => {AT_STEP} === {paused + 1}")  # one chunk of one step

    # the loss shown is the core's at that step, and bank's row at step 0 is the core's row
    core = list(start("lookup", steps=400, seed=0))
    shown = loss.locator("[data-value='scaled.loss']").inner_text()
    assert shown == num(core[paused + 1].values["scaled.loss"], places=3)
    # issue 25, item 3: bank's output moves too, a panel per dimension, the core's numbers
    for dim in ("river_geographic", "river_financial", "savings_geographic", "savings_financial"):
        panel = view.locator(f"figure[data-measure='{dim}']")
        expect()(panel.locator("figcaption")).to_have_text(words.MEASURES[dim])
        value = panel.locator(f"[data-value='scaled.{dim}']").inner_text()
        assert value == num(core[paused + 1].values[f"scaled.{dim}"], places=3)
    view.locator("[data-train='scrub']").fill("0")
    expect()(view.locator("[data-train='scrub-at']")).to_have_text("step 0 of 400")
    first_ck = core[0].checkpoint
    assert first_ck is not None
    for m in first_ck.maps:
        row = view.locator(f"[data-row-of='{m.name}'] .train-cell")
        want = [f"{t} {num(float(w))}" for t, w in zip(m.tokens, m.weights[3], strict=True)]
        expect()(row).to_have_text(want)
    view.locator("figure.train-map").first.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"train-lookup-{width}x{height}.png"), full_page=False)

    view.get_by_role("button", name="Stop the training run").click()
    expect()(view.locator("[data-train='status']")).to_have_text(
        f"Stopped at step {paused + 1}: the worker is free for the next run. Press Play or Step "
        "to start a new one. Seed 0."
    )
    expect()(view.get_by_role("button", name="Stop the training run")).to_be_disabled()
    stopped = at_step(page)
    page.wait_for_timeout(500)
    assert at_step(page) == stopped


@pytest.mark.slow
def test_an_induction_run_shows_its_heads_maps_and_scores(new_page: Any, artifacts: Path) -> None:
    """Fast speed, 60 steps of the induction run: the four heads' 20 × 20 maps at the last
    checkpoint, and its best scores in words, as the core computes them."""
    page = new_page(width=1280, height=900)
    page.goto("/?view=train")
    view = page.get_by_role("region", name="Watch a head learn")
    view.locator("[data-train='experiment']").select_option("induction")
    view.locator("[data-train='steps']").fill("60")
    view.locator("[data-train='speed']").select_option("20")
    view.get_by_role("button", name="Play the training run").click()
    expect()(view.locator("[data-train='status']")).to_have_text(
        f"Finished: 60 steps. Seed 0. {words.PAGE['finished_next']}", timeout=120_000
    )
    expect()(view.locator("figure.train-map")).to_have_count(4)
    last = [s for s in start("induction", steps=60, seed=0) if s.checkpoint is not None][-1]
    from attnlab.train.narrate import checkpoint_line

    expect()(view.locator("[data-train='ck-line']")).to_have_text(checkpoint_line(last.checkpoint))
    expect()(view.locator("[data-train='scrub-at']")).to_have_text("step 60 of 60")
    view.locator("[data-train='scrub']").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "train-induction-1280x900.png"))


def test_sqrt_dk_draws_every_divisor_with_the_cores_numbers(new_page: Any, artifacts: Path) -> None:
    page = new_page(width=1280, height=1100)
    page.goto("/?view=train")
    view = page.get_by_role("region", name="Watch a head learn")
    view.locator("[data-train='experiment']").select_option("sqrt-dk")
    view.locator("[data-train='steps']").fill("60")
    view.locator("[data-train='speed']").select_option("20")
    view.get_by_role("button", name="Play the training run").click()
    expect()(view.locator("[data-train='status']")).to_have_text(
        f"Finished: 60 steps. Seed 0. {words.PAGE['finished_next']}"
    )
    last = list(start("sqrt-dk", steps=60, seed=0))[-1]
    for measure in ("loss", "entropy", "grad_norm", "hit"):
        panel = view.locator(f"figure[data-measure='{measure}']")
        for variant in ("scaled", "unscaled", "T=2", "T=32"):
            v = last.values[f"{variant}.{measure}"]
            # issue 25: the gradient norm's legend rounded 2e-106 to "0"; it is written as :.2g
            want = f"{v:.2g}" if measure == "grad_norm" else num(v, places=3)
            expect()(panel.locator(f"[data-value='{variant}.{measure}']")).to_have_text(want)
    from attnlab.train.narrate import summary_lines

    run = list(start("sqrt-dk", steps=60, seed=0))
    expect()(view.locator("[data-train='summary'] li")).to_have_text(summary_lines("sqrt-dk", run))
    expect()(view.locator(".train-watch")).to_contain_text("√dₖ = √64 = 8")
    expect()(view.locator("figure.train-map")).to_have_count(4)  # a 16 × 16 map per divisor
    view.locator("figure[data-measure='loss']").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "train-sqrt-dk-1280x1100.png"))


def test_stop_keeps_the_keyboard_and_step_the_fields_checked(
    new_page: Any, artifacts: Path, console: Any
) -> None:
    """Issue 25, items 7-11 and 16: a blank seed ran seed 0 silently; Stop dropped the focus to
    the page and disabled Step; the fields could be edited mid-run to no effect; scrubbing left
    the curves unmarked and the watch line on the latest step; the chunk in flight at a Stop
    logged a 400."""
    page = new_page(width=1280, height=1000)
    page.goto("/?view=train")
    view = page.get_by_role("region", name="Watch a head learn")
    status = view.locator("[data-train='status']")
    error = view.locator(".train-error")
    view.locator("[data-train='seed']").fill("")
    view.get_by_role("button", name="Play the training run").click()
    expect()(error).to_have_text(words.SEED_RANGE.format(got="nothing"))
    assert at_step(page) == -1  # nothing ran
    view.locator("[data-train='seed']").fill("3")
    view.locator("[data-train='steps']").fill("2001")  # lookup's largest is 2000: the catalog's
    view.get_by_role("button", name="Play the training run").click()
    expect()(error).to_have_text(words.STEPS_RANGE.format(max=2000, got='"2001"'))

    view.locator("[data-train='experiment']").select_option("induction")
    view.locator("[data-train='steps']").fill("400")
    view.locator("[data-train='speed']").select_option("20")
    view.get_by_role("button", name="Play the training run").click()
    expect()(error).to_be_hidden()
    expect()(status).to_contain_text("Seed 3.", timeout=30_000)  # the worker starts first
    for field in ("experiment", "seed", "steps"):  # fixed while the run plays
        expect()(view.locator(f"[data-train='{field}']")).to_be_disabled()
    page.wait_for_function(f"() => {AT_STEP} >= 40")
    page.wait_for_timeout(300)  # a chunk is on its way
    stop = view.get_by_role("button", name="Stop the training run")
    stop.focus()
    page.keyboard.press("Enter")
    expect()(status).to_contain_text("Stopped at step")
    expect()(view.get_by_role("button", name="Play the training run")).to_be_focused()
    expect()(view.get_by_role("button", name="Step the training run by one chunk")).to_be_enabled()
    for field in ("experiment", "seed", "steps"):
        expect()(view.locator(f"[data-train='{field}']")).to_be_enabled()
    page.wait_for_timeout(1500)  # the aborted chunk's answer would have come by now
    assert not [e for e in console.errors if "400" in e], console.errors

    # scrub back: the curves are marked at that checkpoint's step, the phase line is its own
    scrub = view.locator("[data-train='scrub']")
    scrub.fill("0")  # the first checkpoint: not the latest step
    at = int(view.locator("figure.train-map").first.get_attribute("data-step") or "-1")
    marks = view.locator("figure.train-curve canvas")
    for i in range(marks.count()):
        assert marks.nth(i).get_attribute("data-mark") == str(at)
    run = list(start("induction", steps=400, seed=3))[: at + 1]
    from attnlab.train.narrate import phase_line

    expect()(view.locator("[data-train='phase']")).to_have_text(phase_line("induction", run))
    view.locator("figure[data-measure='loss_repeated']").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "train-scrubbed-1280x1000.png"))

    view.get_by_role("button", name="Step the training run by one chunk").click()  # a new run
    expect()(status).to_contain_text("A new run from step 0", timeout=20_000)
