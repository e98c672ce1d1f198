"""Playwright's `expect` for the browser tests, imported when a test first asks for it: a module
that imports this collects (and skips, through conftest.py's `browser`) where Playwright is
missing. Here and not in conftest.py because a test module cannot import from a conftest.py:
pytest keeps one module named `conftest`, the last of tests/'s conftest.py files it loaded."""

from __future__ import annotations

from typing import Any

__all__ = ["expect"]


def expect() -> Any:
    """playwright.sync_api.expect: `expect()(locator).to_have_text(...)`."""
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect
