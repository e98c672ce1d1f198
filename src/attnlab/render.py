"""The terminal view of an Explanation: one titled table per beat, fixed width.

Plain text by default; `color=True` adds ANSI colour (bold titles, the focus row and the
chosen key highlighted). Numbers use `numfmt`, the rule the page uses too.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

import numpy as np

from attnlab.explain import Explanation
from attnlab.numfmt import num, vec

WIDTH = 88
_BOLD, _VIOLET, _DIM, _RESET = "\x1b[1m", "\x1b[35m", "\x1b[2m", "\x1b[0m"


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Columns padded to their widest cell; the first column left-aligned, the rest right."""
    cells = [list(header), *[list(r) for r in rows]]
    widths = [max(len(row[c]) for row in cells) for c in range(len(header))]

    def line(row: Sequence[str]) -> str:
        parts = [row[0].ljust(widths[0])] + [
            x.rjust(w) for x, w in zip(row[1:], widths[1:], strict=True)
        ]
        return "  ".join(parts).rstrip()

    return [line(header), line(["─" * w for w in widths]), *[line(r) for r in rows]]


def render(ex: Explanation, *, color: bool = False) -> str:
    """The six beats of `ex` as text, each a title, a wrapped narration and a table."""
    t, f = ex.trace, ex.focus
    chosen = int(np.argmax(t.weights[f]))

    def style(text: str, code: str) -> str:
        return f"{code}{text}{_RESET}" if color else text

    tables = _tables(ex, chosen)
    lines = [
        style(f"Attention for {t.tokens[f]!r} in: {' '.join(t.tokens)}", _BOLD),
        f"mode {t.mode}, d_k = {t.d_k}, divisor {num(t.divisor)}; row = query, column = key",
    ]
    for number, (beat, body) in enumerate(zip(ex.beats, tables, strict=True), start=1):
        lines += ["", style(f"{number}. {beat.title}", _BOLD)]
        lines += textwrap.wrap(beat.text, WIDTH)
        lines += [""] + ["  " + row for row in body]
    text = "\n".join(lines) + "\n"
    if color:  # highlight the chosen key's name where it labels a table row
        text = text.replace(
            f"\n  {t.columns[chosen]} ", f"\n  {style(t.columns[chosen], _VIOLET)} "
        )
    return text


def _tables(ex: Explanation, chosen: int) -> list[list[str]]:
    t, f = ex.trace, ex.focus
    keys = range(t.weights.shape[1])
    dims = list(t.dim_names) if t.dim_names else [f"x{i}" for i in range(_width(t))]
    mark = ["◀ focus" if i == f else "" for i in range(t.n)]
    tokens = table(
        ["token", *dims, ""],
        [[tok, *(num(x) for x in t.embeddings[i]), mark[i]] for i, tok in enumerate(t.tokens)]
        if t.embeddings is not None and t.embeddings.shape[1] <= 8
        else [[tok, *["…"] * len(dims), mark[i]] for i, tok in enumerate(t.tokens)],
    )
    project = table(
        ["token", "query q", "key k", "value v"],
        [[tok, _v(t.queries[i]), _v(t.keys[i]), _v(t.values[i])] for i, tok in enumerate(t.tokens)],
    )
    div = "√dₖ" if t.mode == "scaled" else ("1" if t.mode == "unscaled" else "ignored")
    score = table(
        [f"{t.tokens[f]} → key", "q·k", f"÷ {div}", "score s"],
        [
            [t.columns[j], num(t.raw_scores[f, j]), num(t.divisor), num(t.scores[f, j])]
            for j in keys
        ],
    )
    softmax = table(
        [f"{t.tokens[f]} → key", "score s", "weight", "budget"],
        [
            [t.columns[j], num(t.scores[f, j]), num(t.weights[f, j]), _bar(t.weights[f, j])]
            for j in keys
        ]
        + [["sum", "", num(float(t.weights[f].sum())), ""]],
    )
    blend = table(
        ["key", "weight", "value v", "weight × v"],
        [
            [t.columns[j], num(t.weights[f, j]), _v(t.values[j]), _v(t.weights[f, j] * t.values[j])]
            for j in keys
        ]
        + [[f"= new {t.tokens[f]}", "", "", _v(t.outputs[f])]],
    )
    parallel = table(
        ["query ↓ key →", *t.columns],
        [[tok, *(num(w) for w in t.weights[i])] for i, tok in enumerate(t.tokens)],
    )
    return [tokens, project, score, softmax, blend, parallel]


def _width(t: object) -> int:
    emb = getattr(t, "embeddings", None)
    return int(emb.shape[1]) if emb is not None and emb.shape[1] <= 8 else 1


def _v(x: np.ndarray) -> str:
    return (
        vec(x) if x.shape[0] <= 8 else f"[{num(float(x[0]))}, {num(float(x[1]))}, … ×{x.shape[0]}]"
    )


def _bar(w: float, *, width: int = 20) -> str:
    return "█" * round(w * width)
