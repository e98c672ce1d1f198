"""The page's stylesheets scoped to one widget, so a notebook's own look is left alone.

static/style.css and model.css style a whole page (`:root` variables, `body`, bare `button`).
Inside a notebook they must reach only the widget's element, which static/notebook.js marks
with the class `SCOPE`: every selector gets that class in front (`:root`, `html` and `body`
become the class itself), inside `@media` too; `@keyframes` stay as they are.
"""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files

__all__ = ["SCOPE", "scope_css", "widget_css"]

SCOPE = ".attnlab-nb"
SHEETS = (
    "style.css", "lab.css", "model.css", "model_views.css", "export.css", "present.css",
    "notebook.css", "train.css", "atlas.css",
)  # fmt: skip
_COMMENT = re.compile(r"/\*.*?\*/", re.S)


def _selector(sel: str, scope: str) -> str:
    sel = sel.strip()
    if sel in (":root", "html", "body"):
        return scope
    return f"{scope} {sel}"


def _split_selectors(head: str) -> list[str]:
    """A selector list at its top-level commas (not those inside :is(...) or :not(a, b))."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(head):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(head[start:i])
            start = i + 1
    parts.append(head[start:])
    return parts


def scope_css(css: str, scope: str = SCOPE) -> str:
    """`css` with every rule's selectors under `scope`."""
    css = _COMMENT.sub("", css)
    out: list[str] = []
    i = 0
    while True:
        open_at = css.find("{", i)
        if open_at < 0:
            out.append(css[i:].strip())
            break
        head = css[i:open_at].strip()
        depth, j = 1, open_at + 1
        while depth:
            depth += {"{": 1, "}": -1}.get(css[j], 0)
            j += 1
        body = css[open_at + 1 : j - 1]
        if head.startswith("@keyframes"):
            out.append(f"{head} {{{body}}}")
        elif head.startswith("@"):
            out.append(f"{head} {{\n{scope_css(body, scope)}\n}}")
        else:
            selectors = ", ".join(_selector(s, scope) for s in _split_selectors(head))
            out.append(f"{selectors} {{{body}}}")
        i = j
    return "\n".join(part for part in out if part)


@cache
def widget_css() -> str:
    """The lesson's and the model view's stylesheets, scoped to the widget."""
    static = files("attnlab") / "static"
    return "\n".join(scope_css(static.joinpath(s).read_text(encoding="utf-8")) for s in SHEETS)
