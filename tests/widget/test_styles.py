"""The widget's stylesheet reaches only the widget: every selector under its class."""

from __future__ import annotations

import re

from attnlab.widget.styles import SCOPE, scope_css, widget_css


def test_every_rule_is_scoped_and_the_page_roots_become_the_widget() -> None:
    css = scope_css(
        ":root { --ink: #000; }\nbody { margin: 0; }\n/* a, b { } */\n"
        "button, .a:is(b, c) > d { x: 1; }\n"
        "@media (max-width: 9px) { .m { y: 2; } }\n@keyframes spin { to { z: 3; } }"
    )
    assert ".attnlab-nb { --ink: #000; }" in css
    assert ".attnlab-nb { margin: 0; }" in css
    assert ".attnlab-nb button, .attnlab-nb .a:is(b, c) > d { x: 1; }" in css
    assert "@media (max-width: 9px) {\n.attnlab-nb .m { y: 2; }\n}" in css
    assert "@keyframes spin { to { z: 3; } }" in css
    assert "a, b" not in css  # comments dropped


def test_the_shipped_sheets_leave_no_rule_unscoped() -> None:
    css = re.sub(r"@keyframes[^{]*\{(?:[^{}]*\{[^}]*\})*[^}]*\}", "", widget_css())
    heads = [h.strip() for h in re.findall(r"(?:^|\})\s*([^{}@]+)\{", css)]
    assert heads, "no rules read"
    for head in heads:
        flat = head
        while re.search(r"\([^()]*\)", flat):  # :is(a, b) and :not(c, d) hold commas of their own
            flat = re.sub(r"\([^()]*\)", "", flat)
        for selector in flat.split(","):
            assert selector.strip().startswith(SCOPE), head


def test_every_sheet_the_page_links_styles_the_widget_too() -> None:
    # the Mask a token panel was bare in a notebook: model_views.css was linked by the page only
    from importlib.resources import files

    from attnlab.widget.styles import SHEETS

    page = (files("attnlab") / "static" / "index.html").read_text(encoding="utf-8")
    linked = re.findall(r'<link rel="stylesheet" href="/static/([\w.]+)">', page)
    assert "model_views.css" in linked
    assert [s for s in linked if s not in SHEETS] == []
    assert f"{SCOPE} .rm-mask-form input {{ width: 10em; }}" in widget_css()
