"""The Real model view's status while it waits: its text and a turning spinner, which stands
still for a reader who asked for reduced motion. The wait is made long by holding the page's
trace request until the test lets it go."""

from __future__ import annotations

from typing import Any

import pytest
from test_model_page import expect

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
