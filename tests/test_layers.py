"""The package's folders are its data flow: no import runs upward, no two modules share a name.

Ranks follow DESIGN.md's one direction of data: types and errors, then the core, the words,
the inputs that produce traces (the toy lesson, the real models), the encodings, the exports
(files of what they show), the hosts that serve or save them (the web app, whose Export menu
asks for export.standalone's offline page; the notebook widget, which saves through the
exports), and the CLI.
A module may import its own folder or a lower rank, never a higher one nor a sibling of its rank.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import attnlab

ROOT = Path(attnlab.__file__).parent
RANKS = {
    "types": 0, "errors": 0,
    "core": 1,
    "words": 2,
    "lesson": 3, "models": 3,
    "encode": 4,
    "export": 5,
    "web": 6,  # GET /api/export/*.html is export.standalone's file
    "widget": 6,  # w.save(path) is export.save
    "cli": 7,  # `attnlab serve` starts the web app
}  # fmt: skip


def _folder(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "attnlab" else None


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def _modules() -> list[Path]:
    return [
        p for p in ROOT.rglob("*.py") if p.parent != ROOT or p.stem not in {"__init__", "__main__"}
    ]


def test_every_folder_has_a_rank() -> None:
    folders = {p.parent.name if p.parent != ROOT else p.stem for p in _modules()}
    assert folders <= set(RANKS), folders - set(RANKS)


def test_no_import_runs_upward_or_sideways() -> None:
    wrong = []
    for path in _modules():
        home = path.parent.name if path.parent != ROOT else path.stem
        for module in _imports(path):
            there = _folder(module)
            if there is None or there == home:
                continue
            if RANKS.get(there, 99) >= RANKS[home]:
                wrong.append(f"{path.relative_to(ROOT)} imports {module}")
    assert not wrong, wrong


def test_no_two_modules_share_a_name() -> None:
    names = Counter(p.stem for p in ROOT.rglob("*.py") if p.stem != "__init__")
    assert [n for n, c in names.items() if c > 1] == []


def test_the_core_imports_numpy_and_nothing_heavier() -> None:
    allowed = {"numpy", "numpy.typing", "math", "time", "tracemalloc", "dataclasses", "typing",
               "collections.abc", "__future__"}  # fmt: skip
    for path in (ROOT / "core").glob("*.py"):
        outside = {m for m in _imports(path) if _folder(m) is None} - allowed
        assert not outside, (path.name, outside)
