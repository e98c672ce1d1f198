"""The page's files: shipped as package data, served with the right types, nothing fetched from
elsewhere (no CDN, no web fonts, no analytics), and no markup built from strings in the JS."""

import re
from importlib.resources import files

import pytest
from starlette.testclient import TestClient

from attnlab.web.app import create_app

STATIC = files("attnlab") / "static"
SVG_NS = "http://www.w3.org/2000/svg"  # a name, not an address: nothing is fetched from it
MODULES = (
    "app.js",
    "lesson.js",
    "layout.js",
    "draw.js",
    "format.js",
    "colors.js",
    "http.js",
    "dom.js",
    "stepper.js",
    "widget_model.js",
    "weights_table.js",
    "picture.js",
)


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(), base_url="http://127.0.0.1")


@pytest.mark.parametrize(
    ("name", "kind"),
    [*((m, "javascript") for m in MODULES), ("style.css", "text/css"), ("index.html", "text/html")],
)
def test_each_file_is_package_data_and_served(client: TestClient, name: str, kind: str) -> None:
    assert (STATIC / name).is_file()
    r = client.get(f"/static/{name}")
    assert r.status_code == 200 and kind in r.headers["content-type"]


def test_the_page_loads_nothing_from_elsewhere() -> None:
    for name in (*MODULES, "style.css", "index.html"):
        text = (STATIC / name).read_text(encoding="utf-8").replace(SVG_NS, "")
        assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}/", text, re.I), name
        assert "@import" not in text and "@font-face" not in text, name


def test_no_markup_is_built_from_strings() -> None:
    for name in MODULES:
        text = (STATIC / name).read_text(encoding="utf-8")
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
            assert sink not in text, f"{name} uses {sink}"


def test_layout_and_format_stay_pure() -> None:
    """layout.js, colors.js, format.js, stepper.js and widget_model.js run in Node: no DOM, no
    canvas, no clock (stepper.js builds its buttons with dom.js and is passed its timers)."""
    for name in ("layout.js", "colors.js", "format.js", "stepper.js", "widget_model.js"):
        text = (STATIC / name).read_text(encoding="utf-8")
        for word in ("document", "window", "getContext", "performance", "Date.now"):
            assert word not in text, f"{name} mentions {word}"
