"""The Real model view's status while it waits: its text and a turning spinner, which stands
still for a reader who asked for reduced motion; for another head of the same text it shows
only once the answer is slow (model_app.js STATUS_DELAY_MS). The wait is made long by holding
the page's trace request until the test lets it go."""

from __future__ import annotations

from typing import Any

import pytest
from test_model_page import expect, open_model

pytestmark = pytest.mark.browser


def _spinner_while_waiting(new_page: Any, motion: str) -> str:
    """The animation of the status's spinner (its ::before) while the first trace is held."""
    page = new_page(1280, 800, motion=motion)
    held: list[Any] = []
    page.route("**/api/model/trace?*", lambda route: held.append(route))
    page.goto("/?view=model")
    status = page.get_by_role("status", name="Model status")
    expect()(status).not_to_be_empty()
    animation = str(status.evaluate("(s) => getComputedStyle(s, '::before').animationName"))
    for _ in range(100):  # the request reaches the route a moment after the status shows
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the page did not ask for a trace"
    for route in held:
        route.continue_()
    expect()(status).to_be_empty()
    return animation


def test_the_spinner_turns_while_the_model_computes(new_page) -> None:
    assert _spinner_while_waiting(new_page, "no-preference") == "rm-spin"


def test_reduced_motion_stops_the_spinner_too(new_page) -> None:
    """Bug: style.css's reduced-motion rule named `*`, which does not match ::before, so the
    spinner (a ::before) kept turning for a reader who had asked for no animation."""
    assert _spinner_while_waiting(new_page, "reduce") == "none"


def test_another_head_says_it_is_running_only_when_the_answer_is_slow(new_page) -> None:
    """A head switch that answers within STATUS_DELAY_MS shows no status (shown and cleared at
    once it only flickered, and repainted the whole view on the click); a slow one still says
    so, and the status clears when the head lands."""
    page = open_model(new_page(1280, 800))
    status = page.get_by_role("status", name="Model status")
    page.evaluate(
        """() => { window.__said = []; new MutationObserver(() => window.__said.push(
        document.querySelector('.rm-status').textContent)).observe(
        document.querySelector('.rm-status'), {childList: true, characterData: true,
        subtree: true}); }"""
    )
    page.get_by_label("Head", exact=True).select_option("3")
    expect()(
        page.get_by_role("table", name="Real attention weights").locator("caption")
    ).to_contain_text("head 3")
    assert page.evaluate("() => window.__said").count("Running the model…") == 0
    held: list[Any] = []
    page.route("**/api/model/trace?*", lambda route: held.append(route))
    page.get_by_label("Head", exact=True).select_option("5")
    expect()(status).to_have_text("Running the model…")
    assert held, "the page did not ask for the head"
    for route in held:
        route.continue_()
    expect()(status).to_be_empty()
    expect()(
        page.get_by_role("table", name="Real attention weights").locator("caption")
    ).to_contain_text("head 5")
