"""The page's words said again where a notebook differs from a web page: a widget has no
address bar, so what keeps the lab's changes there is the widget itself (its traits, read by
the next cell, and `w.save(path)`). Only the widgets use these (widget/payloads.words_for)."""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["NOTEBOOK_KEEPS", "PAGE_KEEPS", "notebook_words"]

PAGE_KEEPS = "the link in the address bar keeps it all."
"""The end of the page's lab intro (words/page_lab.py "lab.intro"): true of a web page only."""
NOTEBOOK_KEEPS = (
    "the widget keeps it all: its traits (w.temperature, w.edits, …) for the next cell to read, "
    "and w.save(path) for a file."
)


def notebook_words(words: Mapping[str, str]) -> dict[str, str]:
    """`words` with the lab's intro ending on what holds its changes in a notebook. A page
    intro that no longer ends as expected is left as it is but must be caught by the tests
    (tests/widget/test_lab_widget.py), not shown with the address bar."""
    out = dict(words)
    intro = out.get("lab.intro", "")
    if intro.endswith(PAGE_KEEPS):
        out["lab.intro"] = intro[: -len(PAGE_KEEPS)] + NOTEBOOK_KEEPS
    return out
