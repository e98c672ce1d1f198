"""The views stand alone: loaded from one module text at a blob: URL (as a notebook's widget
loader does), each rendered into its own element with its own model, no server behind them, and
cleaned up without a trace. The models are recorded API answers; the page asks for nothing."""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from playwright_expect import expect

import attnlab
from attnlab.encode.bundle import view_module

pytestmark = pytest.mark.browser

# A minimal anywidget model (get, set, on, off, save_changes) and the bundle loaded from a blob:
# URL; each view renders into its own <div> with its own model. `drawn` records canvas text.
HARNESS = """async ({ code, states }) => {
  const drawn = (window.drawn = []);
  const fillText = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
    drawn.push([this.canvas.closest('[data-view]')?.dataset.view, String(text)]);
    return fillText.call(this, text, ...rest);
  };
  const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
  const { default: view } = await import(url);
  const model = (state) => {
    const handlers = new Map();
    const fire = (k, v) =>
      (handlers.get('change:' + k) ?? []).forEach((f) => f({ name: k, new: v }));
    return {
      get: (k) => state[k],
      set(k, v) { if (!Object.is(state[k], v)) { state[k] = v; fire(k, v); } },
      on(e, f) { handlers.set(e, [...(handlers.get(e) ?? []), f]); },
      off(e, f) { handlers.set(e, (handlers.get(e) ?? []).filter((g) => g !== f)); },
      save_changes() {},
      handlers: () => [...handlers.values()].reduce((n, fs) => n + fs.length, 0),
    };
  };
  window.models = [];
  window.cleanups = [];
  states.forEach((state, k) => {
    const el = document.createElement('div');
    el.dataset.view = String(k);
    document.body.append(el);
    const m = model(state);
    window.models.push(m);
    window.cleanups.push(view.render({ model: m, el }));
  });
  return window.models.map((m) => m.handlers());
}"""


def api(base_url: str, path: str, **params: Any) -> Any:
    with urllib.request.urlopen(f"{base_url}{path}?{urllib.parse.urlencode(params)}") as r:
        return json.load(r)


@pytest.fixture
def blank(new_page: Any) -> Any:
    """A page with nothing behind it: every request it makes fails the test."""
    page = new_page()
    asked: list[str] = []
    page.route("**/*", lambda route: (asked.append(route.request.url), route.abort()))
    page.set_content("<!doctype html><meta charset=utf-8><body></body>")
    yield page
    assert asked == [], "a standalone view asked the network"


def state(page_words: dict[str, Any], lesson: dict[str, Any], beat: int = 0) -> dict[str, Any]:
    return {
        "lesson": lesson, "choices": page_words["choices"], "words": page_words["words"],
        "presets": None, "error": None, "beat": beat, "global_keys": True,
    }  # fmt: skip


def narration(page: Any, k: int) -> Any:
    return page.locator(f"[data-view='{k}']").get_by_role("status", name="Narration")


def canvas(page: Any, k: int) -> Any:
    return page.locator(f"[data-view='{k}'] canvas")


def test_the_bundled_lesson_renders_from_a_blob_url_with_the_api_numbers(
    blank, base_url, artifacts: Path
) -> None:
    presets = api(base_url, "/api/presets")
    lesson = api(base_url, "/api/lesson")
    counts = blank.evaluate(
        HARNESS, {"code": view_module("lesson"), "states": [state(presets, lesson)]}
    )
    assert counts[0] > 0
    told = lesson["narration"][0]
    expect()(narration(blank, 0).locator(".beat-text")).to_have_text(told["text"])
    expect()(narration(blank, 0).locator(".beat-title")).to_have_text(
        f"Step 1 of 6: {told['title']}"
    )
    expect()(canvas(blank, 0)).to_have_attribute(
        "aria-label", lesson["captions"]["beats"]["tokens"]["description"]
    )
    table = blank.get_by_role("table", name="Attention weights")
    blank.get_by_role("button", name="Show the final weights").click()  # the table follows the beat
    expect()(table.locator("tbody tr").nth(3).locator("td")).to_have_text(
        ["0.11", "0.07", "0.69", "0.14"]
    )
    drawn = [t for v, t in blank.evaluate("() => window.drawn") if v == "0"]
    assert lesson["captions"]["beats"]["tokens"]["heading"] in " ".join(drawn)
    blank.screenshot(path=str(artifacts / "views-blob-lesson.png"), full_page=True)


def test_two_lessons_on_one_page_and_each_cleanup_leaves_nothing(blank, base_url) -> None:
    presets = api(base_url, "/api/presets")
    river = api(base_url, "/api/lesson")
    savings = api(base_url, "/api/lesson", sentence="at the savings bank", mode="uniform")
    two = [state(presets, river), state(presets, savings)]
    for s in two:
        s["global_keys"] = False  # two views on a page: each takes the keys inside itself
    counts = blank.evaluate(HARNESS, {"code": view_module("lesson"), "states": two})
    assert counts[0] == counts[1] > 0
    view = [blank.locator(f"[data-view='{k}']") for k in (0, 1)]
    # separate models: a step in one view is that view's alone
    view[1].get_by_role("button", name="Next step").click()
    expect()(canvas(blank, 1)).to_have_attribute("data-beat", "project")
    expect()(canvas(blank, 0)).to_have_attribute("data-beat", "tokens")
    expect()(narration(blank, 1).locator(".beat-text")).to_have_text(
        savings["narration"][1]["text"]
    )
    expect()(narration(blank, 0).locator(".beat-text")).to_have_text(river["narration"][0]["text"])
    # the arrow keys step the view that has the focus
    view[0].get_by_role("button", name="Previous step").focus()
    blank.keyboard.press("ArrowRight")
    expect()(canvas(blank, 0)).to_have_attribute("data-beat", "project")
    expect()(canvas(blank, 1)).to_have_attribute("data-beat", "project")

    left = blank.evaluate(
        "() => { window.cleanups[0](); return window.models.map(m => m.handlers()); }"
    )
    assert left == [0, counts[1]], "the cleanup unsubscribed every model handler it added"
    blank.evaluate("() => window.models[0].set('beat', 5)")
    blank.wait_for_timeout(100)
    expect()(canvas(blank, 0)).to_have_attribute(
        "data-beat", "project"
    )  # the DOM no longer follows
    expect()(narration(blank, 0).locator(".beat-text")).to_have_text(river["narration"][1]["text"])
    view[0].get_by_role("button", name="Previous step").focus()
    blank.keyboard.press("ArrowLeft")  # nor do the keys reach its model
    blank.wait_for_timeout(100)
    assert blank.evaluate("() => window.models[0].get('beat')") == 5
    view[1].get_by_role("button", name="Previous step").focus()
    blank.keyboard.press("ArrowRight")  # the other view still steps
    expect()(canvas(blank, 1)).to_have_attribute("data-beat", "score")
    blank.evaluate("() => window.cleanups[1]()")
    assert blank.evaluate("() => window.models.map(m => m.handlers())") == [0, 0]
    blank.keyboard.press("ArrowRight")
    blank.wait_for_timeout(100)
    assert blank.evaluate("() => window.models[1].get('beat')") == 2


def test_a_temperature_state_draws_the_api_captions(blank, base_url, artifacts: Path) -> None:
    """The bug: with T the Score beat's canvas read "√dₖ = √4 = 0.5" and the Parallel heading
    softmax(QKᵀ/√dₖ); the canvas now writes the API's captions for the state."""
    presets = api(base_url, "/api/presets")
    hot = api(base_url, "/api/lesson", temperature=0.5)
    caps = hot["captions"]["beats"]
    blank.evaluate(
        HARNESS, {"code": view_module("lesson"), "states": [state(presets, hot, beat=2)]}
    )
    expect()(canvas(blank, 0)).to_have_attribute("aria-label", caps["score"]["description"])
    drawn = " ".join(t for _, t in blank.evaluate("() => window.drawn"))
    assert caps["score"]["heading"] in drawn
    assert caps["score"]["notes"][0] in drawn.replace("  ", " ") or all(
        word in drawn for word in caps["score"]["notes"][0].split()
    )
    assert "√4 = 0.5" not in drawn and "4.6 / 0.5" in drawn
    blank.screenshot(path=str(artifacts / "views-temperature-score.png"), full_page=True)
    blank.evaluate("() => { window.drawn.length = 0; window.models[0].set('beat', 5); }")
    expect()(canvas(blank, 0)).to_have_attribute("aria-label", caps["parallel"]["description"])
    drawn = " ".join(t for _, t in blank.evaluate("() => window.drawn"))
    assert "softmax(QKᵀ/T) with T = 0.5" in drawn and "√dₖ" not in drawn


def test_two_views_with_document_keys_step_the_one_last_used(blank, base_url) -> None:
    """Both views take keys on the whole document: a key on the body stepped only the first view
    even after the learner had moved to the second. Now a key inside a view is that view's, and
    a key on the body goes to the view last pointed at or focused (the first, before any)."""
    presets = api(base_url, "/api/presets")
    two = [state(presets, api(base_url, "/api/lesson")) for _ in (0, 1)]
    blank.evaluate(HARNESS, {"code": view_module("lesson"), "states": two})
    beats = "() => window.models.map(m => m.get('beat'))"
    blank.keyboard.press("ArrowRight")  # nothing used yet: the first view steps, once
    blank.wait_for_function(f"({beats})()[0] === 1")
    assert blank.evaluate(beats) == [1, 0]
    blank.locator("[data-view='1'] canvas").click()  # the learner moves to the second view
    blank.evaluate("() => document.activeElement?.blur()")
    blank.keyboard.press("ArrowRight")
    blank.wait_for_function(f"({beats})()[1] === 1")
    assert blank.evaluate(beats) == [1, 1]
    blank.locator("[data-view='0']").get_by_role("button", name="Next step").focus()
    blank.keyboard.press("ArrowRight")  # a key inside a view is that view's alone
    blank.wait_for_function(f"({beats})()[0] === 2")
    assert blank.evaluate(beats) == [2, 1]
    blank.evaluate("() => document.activeElement?.blur()")
    blank.keyboard.press("ArrowLeft")  # the first view was focused last
    blank.wait_for_function(f"({beats})()[0] === 1")
    assert blank.evaluate(beats) == [1, 1]
    blank.evaluate("() => window.cleanups.forEach((f) => f())")
    assert blank.evaluate("() => Object.getOwnPropertySymbols(document).length") == 0


def test_weights_handed_in_alone_show_only_the_panels_that_have_numbers(blank) -> None:
    """Bug: `attnlab.show(weights, tokens)` offered Mask a token and Compare contexts (weights
    cannot be run again), an encoder's RoPE note naming a SmolLM2 menu there is not, the
    ranking and the head view, none of which have numbers without a model."""
    a = np.random.default_rng(1).random((2, 3, 6, 6))
    a /= a.sum(-1, keepdims=True)
    w = attnlab.show(a, ["at", "the", "bank", "by", "the", "river"], source="test")
    synced = json.loads(
        json.dumps(
            {
                k: getattr(w, k)
                for k in w.keys
                if k not in ("layout", "tooltip", "tabbable") and not k.startswith("_")
            }
        )
    )
    blank.evaluate(HARNESS, {"code": view_module("model"), "states": [synced]})
    view = blank.locator("[data-view='0']")
    for shown in (".rm-weights", ".rm-grid"):  # the matrix needs a "matrix" the widget lacks
        expect()(view.locator(shown).first).to_be_visible()
    for absent in (".rm-mask-form", ".rm-cmp-form", ".rm-rope-query", ".rm-ranking", ".hv-boxes"):
        expect()(view.locator(absent).first).to_be_hidden()
    for words in ("Mask a token", "Compare contexts", "SmolLM2", "Heads ranked"):
        expect()(view.get_by_text(words).first).to_be_hidden()
