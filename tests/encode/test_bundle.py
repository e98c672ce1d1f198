"""encode/bundle.py: a view as one module text with no imports, which Node loads as it is."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from attnlab.encode import bundle
from attnlab.encode.bundle import VIEWS, BundleError, module_order, view_module


@pytest.mark.parametrize("view", list(VIEWS))
def test_a_bundle_imports_nothing_and_exports_the_view(view: str) -> None:
    text = view_module(view)
    assert not re.search(r"^\s*import\b", text, re.M), "no import statement is left"
    assert 'from "./' not in text
    assert text.rstrip().endswith(f"export default __modules['{VIEWS[view]}'].default;")
    assert len(re.findall(r"^export\b", text, re.M)) == 1, "one export: the view"
    for name in module_order(view):
        assert f"// --- {name}\n" in text


def test_the_order_puts_each_file_after_what_it_imports() -> None:
    order = module_order("lesson")
    assert order[-1] == "lesson.js"
    for before, after in [
        ("dom.js", "step_view.js"),
        ("stepper.js", "step_view.js"),
        ("layout.js", "lesson.js"),
    ]:
        assert order.index(before) < order.index(after)
    assert "app.js" not in order and "http.js" not in order, "the lesson view asks the API nothing"


def test_an_unknown_view_and_an_unread_import_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(BundleError, match="unknown view 'grid'"):
        module_order("grid")
    monkeypatch.setattr(bundle, "_source", lambda name: 'import * as all from "./dom.js";\n')
    with pytest.raises(BundleError, match=r"lesson\.js: an import the bundler does not read"):
        module_order("lesson")


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
@pytest.mark.parametrize("view", list(VIEWS))
def test_node_loads_the_bundle_from_one_file(view: str, tmp_path: Path) -> None:
    path = tmp_path / f"{view}.mjs"  # alone in a folder: a relative import could not resolve
    path.write_text(view_module(view), encoding="utf-8")
    script = (
        f"const m = await import({json.dumps(path.as_uri())});"
        "console.log(JSON.stringify([typeof m.default.render, Object.keys(m)]));"
    )
    out = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        capture_output=True, text=True, timeout=30, check=True,
    )  # fmt: skip
    assert json.loads(out.stdout) == ["function", ["default"]]
