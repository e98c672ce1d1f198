"""One module text for a view: the view's ES module with its imports inlined at load time.

A notebook's widget loader (anywidget) loads a view's `_esm` from a `blob:` URL, where relative
imports such as `./dom.js` do not resolve. `view_module("lesson")` reads the view and every module
it imports (static/*.js, plain ES modules of our own) and writes them as one module: each file
becomes a function scope, in dependency order, whose exports are returned as an object; its
`import { a, b as c } from "./x.js"` becomes `const { a, b: c } = __modules["x.js"]`. The text
imports nothing and ends with the view's `export default`. Nothing is minified or renamed, so a
browser's error names the line of the file it came from (`// --- x.js` marks each).

The web page itself loads the files one by one from /static/ (same origin, no inline script);
the bundle is for hosts that cannot: the notebook widget and a self-contained HTML export.
"""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files

__all__ = ["HOSTS", "VIEWS", "BundleError", "host_script", "module_order", "view_module"]

VIEWS = {
    "lesson": "lesson.js",
    "lab": "lab.js",
    "model": "model.js",
    "notebook": "notebook.js",
    "atlas": "atlas.js",
}
"""The views a host can load, by name: each `export default { render({ model, el }) }`."""
HOSTS = {
    "standalone_lesson": "standalone_lesson.js",
    "standalone_model": "standalone_model.js",
    "standalone_atlas": "standalone_atlas.js",
}
"""Hosts that run where they are inlined (a self-contained HTML file): modules with no export."""

_IMPORT = re.compile(
    r'^import\s+(?P<what>[\w$]+|\{[^}]*\}|[\w$]+\s*,\s*\{[^}]*\})\s+from\s+"\./(?P<file>[\w.]+\.js)";[^\n]*$',
    re.M,
)
_ANY_IMPORT = re.compile(r"^\s*import\b|^(?!\s*(?:\*|//)).*(?<![{\w.])import\s*\(", re.M)
"""An import left after the plain ones are read: a statement, or a dynamic import() in code
(not a JSDoc type such as {import("./layout.js").Shape})."""
_DECLARED = re.compile(r"^export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+([\w$]+)", re.M)
_EXPORT_LIST = re.compile(r"^export\s*\{([^}]*)\};[^\n]*$", re.M)
_EXPORT_DEFAULT = re.compile(r"^export\s+default\s+", re.M)


class BundleError(ValueError):
    """A static file the bundler cannot inline: an import form it does not read, an unknown view."""


def _source(name: str) -> str:
    return (files("attnlab") / "static" / name).read_text(encoding="utf-8")


def _names(spec: str) -> str:
    """`{ a, b as c }` as a destructuring pattern `{ a, b: c }`; `D` as `{ default: D }`."""
    parts = []
    for item in spec.strip().strip("{}").split(","):
        item = item.strip()
        if not item:
            continue
        name, _, alias = item.partition(" as ")
        parts.append(f"{name.strip()}: {alias.strip()}" if alias else name.strip())
    return "{ " + ", ".join(parts) + " }"


def _pattern(what: str) -> str:
    what = what.strip()
    if what.startswith("{"):
        return _names(what)
    default, _, rest = what.partition(",")
    named = _names(rest)[2:-2] if rest else ""
    return "{ default: " + default.strip() + (", " + named if named else "") + " }"


def _imports(name: str, text: str) -> list[str]:
    found = [m["file"] for m in _IMPORT.finditer(text)]
    left = _ANY_IMPORT.findall(_IMPORT.sub("", text))
    if left:
        raise BundleError(f"{name}: an import the bundler does not read; write it as "
                          f'import {{ a }} from "./file.js" on one line')  # fmt: skip
    return found


def module_order(view: str) -> list[str]:
    """The static files a view (or a host of HOSTS) needs, each after the files it imports (the
    view last)."""
    entries = {**VIEWS, **HOSTS}
    if view not in entries:
        raise BundleError(f"unknown view {view!r}: expected one of {', '.join(entries)}")
    order: list[str] = []
    visiting: set[str] = set()

    def visit(name: str) -> None:
        if name in order:
            return
        if name in visiting:
            raise BundleError(f"{name} imports itself through its imports: a cycle")
        visiting.add(name)
        for dep in _imports(name, _source(name)):
            visit(dep)
        visiting.discard(name)
        order.append(name)

    visit(entries[view])
    return order


def _wrap(name: str, text: str) -> str:
    """One file as `__modules[name] = (() => { ...; return { exports }; })();`."""
    exported = _DECLARED.findall(text)
    for m in _EXPORT_LIST.finditer(text):
        exported += [item.split(" as ")[0].strip() for item in m[1].split(",") if item.strip()]
    body = _IMPORT.sub(lambda m: f"const {_pattern(m['what'])} = __modules[{m['file']!r}];", text)
    body = _EXPORT_LIST.sub("", body)
    has_default = bool(_EXPORT_DEFAULT.search(body))
    body = _EXPORT_DEFAULT.sub("const __default = ", body)
    body = re.sub(
        r"^export\s+(?=(?:async\s+)?(?:function|const|let|class)\b)", "", body, flags=re.M
    )
    if re.search(r"^export\b", body, re.M):
        raise BundleError(f"{name}: an export the bundler does not read")
    names = [*dict.fromkeys(exported)] + (["default: __default"] if has_default else [])
    return (
        f"// --- {name}\n__modules[{name!r}] = (() => {{\n{body}\n"
        f"return {{ {', '.join(names)} }};\n}})();\n"
    )


@cache
def view_module(view: str) -> str:
    """The view `view` ("lesson", "lab", "model") as one ES module text with no imports."""
    parts = [_wrap(name, _source(name)) for name in module_order(view)]
    head = f"// attnlab's {view} view, its imports inlined by attnlab.encode.bundle\n"
    tail = f"export default __modules[{VIEWS[view]!r}].default;\n"
    return head + "const __modules = {};\n" + "".join(parts) + tail


@cache
def host_script(host: str) -> str:
    """The host `host` (a key of HOSTS) and every module it imports as one script text that
    imports and exports nothing: it runs where it is inlined, in a `<script type="module">`."""
    if host not in HOSTS:
        raise BundleError(f"unknown host {host!r}: expected one of {', '.join(HOSTS)}")
    parts = [_wrap(name, _source(name)) for name in module_order(host)]
    head = f"// attnlab's {host} host, its imports inlined by attnlab.encode.bundle\n"
    return head + "const __modules = {};\n" + "".join(parts)
