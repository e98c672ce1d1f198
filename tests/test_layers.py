"""The package's folders are its data flow: no import runs upward, no two modules share a name.

Ranks follow DESIGN.md's one direction of data: types and errors, then the core, the words,
the inputs that produce traces (the toy lesson, the real models), the encodings, the exports
(files of what they show), the hosts that serve or save them (the web app, whose Export menu
asks for export.standalone's offline page; the notebook widget, which saves through the
exports), and the CLI.
A module may import its own folder or a lower rank, never a higher one nor a sibling of its rank;
a call-time `import_module("attnlab.x")`, `from attnlab import x` and a relative import count
too. The package face (attnlab/__init__.py) is the top and imports the rest lazily.
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
    "atlas": 3.5,  # runs the models over a corpus
    "train": 3.5,  # trains the toy's head (lesson.toy) and heads like the models'
    "encode": 4,
    "export": 5,
    "web": 6,  # GET /api/export/*.html is export.standalone's file
    "widget": 6,  # w.save(path) is export.save
    "cli": 7,  # `attnlab serve` starts the web app
}  # fmt: skip


def _folder(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "attnlab" else None


_STRING_IMPORTS = {"import_module", "__import__"}  # importlib.import_module("attnlab.x"), …


def _package(path: Path) -> list[str]:
    """The dotted package a module sits in: attnlab/models/trace.py is in attnlab.models."""
    return ["attnlab", *path.parent.relative_to(ROOT).parts]


def _from(node: ast.ImportFrom, package: list[str]) -> set[str]:
    """What `from X import a, b` imports: X, and X.a when a is a module or a folder of X
    (`from attnlab import export` imports attnlab.export); a relative X read from `package`."""
    if node.level:
        base = package[: len(package) - node.level + 1]
        module = ".".join([*base, *([node.module] if node.module else [])])
    else:
        module = node.module or ""
    found = {module}
    folder = ROOT.joinpath(*module.split(".")[1:]) if module.split(".")[0] == "attnlab" else None
    for alias in node.names:
        if folder is not None and (
            (folder / alias.name).is_dir() or (folder / f"{alias.name}.py").is_file()
        ):
            found.add(f"{module}.{alias.name}")
    return found


def _string_import(node: ast.Call) -> str | None:
    """The module an import_module("attnlab.x") or __import__("attnlab.x") call names."""
    f = node.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
    if name not in _STRING_IMPORTS or not node.args:
        return None
    first = node.args[0]
    return first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None


def _imports(path: Path) -> set[str]:
    return _imported(path.read_text(encoding="utf-8"), _package(path))


def _imported(source: str, package: list[str]) -> set[str]:
    """Every module `source` imports: import statements, relative ones, and string imports."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            found |= _from(node, package)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.Call) and (named := _string_import(node)) is not None:
            found.add(named)
    return found


def _modules() -> list[Path]:
    return [
        p for p in ROOT.rglob("*.py") if p.parent != ROOT or p.stem not in {"__init__", "__main__"}
    ]


def _home(path: Path) -> str:
    """A module's top folder: a subfolder (models/readers) is part of its folder (models)."""
    parts = path.relative_to(ROOT).parts
    return parts[0] if len(parts) > 1 else path.stem


def test_every_folder_has_a_rank() -> None:
    folders = {_home(p) for p in _modules()}
    assert folders <= set(RANKS), folders - set(RANKS)


def test_no_import_runs_upward_or_sideways() -> None:
    wrong = []
    for path in _modules():
        home = _home(path)
        for module in _imports(path):
            there = _folder(module)
            if there is None or there == home:
                continue
            if RANKS.get(there, 99) >= RANKS[home]:
                wrong.append(f"{path.relative_to(ROOT)} imports {module}")
    assert not wrong, wrong


def test_the_walk_sees_every_way_to_import() -> None:
    """A call-time import_module("attnlab.x") and `from attnlab import x` are imports too."""
    source = (
        "import attnlab.core.trace\n"
        "from attnlab import export, AttnlabError\n"
        "from attnlab.words import notes\n"
        "from ..widget import show\n"
        "from . import heads\n"
        "def later():\n"
        "    import_module('attnlab.web')\n"
        "    importlib.import_module('attnlab.cli.main')\n"
        "    __import__('attnlab.encode')\n"
    )
    found = _imported(source, ["attnlab", "models"])
    assert {
        "attnlab.core.trace", "attnlab.export", "attnlab.words.notes", "attnlab.widget",
        "attnlab.models", "attnlab.models.heads", "attnlab.web", "attnlab.cli.main",
        "attnlab.encode",
    } <= found, found  # fmt: skip
    assert "attnlab.AttnlabError" not in found  # a name of the package face, not a module
    home = "models"
    upward = sorted(m for m in found if (f := _folder(m)) not in (None, home)
                    and RANKS.get(f, 99) >= RANKS[home])  # fmt: skip
    assert upward == ["attnlab.cli.main", "attnlab.encode", "attnlab.export", "attnlab.web",
                      "attnlab.widget", "attnlab.widget.show"]  # fmt: skip


def test_no_two_modules_share_a_name() -> None:
    names = Counter(p.stem for p in ROOT.rglob("*.py") if p.stem != "__init__")
    assert [n for n, c in names.items() if c > 1] == []


def test_the_core_imports_numpy_and_nothing_heavier() -> None:
    allowed = {"numpy", "numpy.typing", "math", "time", "tracemalloc", "dataclasses", "typing",
               "collections.abc", "__future__"}  # fmt: skip
    for path in (ROOT / "core").glob("*.py"):
        outside = {m for m in _imports(path) if _folder(m) is None} - allowed
        assert not outside, (path.name, outside)
