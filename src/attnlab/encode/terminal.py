"""The terminal view of an Explanation: one titled table per beat, fixed width.

Plain text by default; `color=True` adds ANSI colour (bold titles, the focus row and the
chosen key highlighted). Numbers use `numfmt`, the rule the page uses too. A long text (a real
model takes up to 128 tokens) is summarised: the tables list the focus and the keys it weights
most, and say how many they leave out; vectors wider than 8 show their first two numbers.
"""

from __future__ import annotations

import textwrap
import unicodedata
from collections.abc import Sequence

import numpy as np

from attnlab.core.trace import Trace
from attnlab.models.heads import head_summaries
from attnlab.models.model_trace import ModelTrace
from attnlab.words.explanation import Explanation
from attnlab.words.grammar import spoken, spoken_names
from attnlab.words.numfmt import num, vec
from attnlab.words.page import PAGE_WORDS

WIDTH = 88
ROWS_AT_MOST = 12
"""Beyond this many tokens, a table lists the focus and the keys it weights most."""
_BOLD, _VIOLET, _DIM, _RESET = "\x1b[1m", "\x1b[35m", "\x1b[2m", "\x1b[0m"


def width(text: str) -> int:
    """The columns `text` takes in a terminal: a wide character (本, 😀) two, a combining mark or
    a zero-width joiner none, any other one (len() would count code points)."""
    return sum(
        0 if unicodedata.combining(c) or unicodedata.category(c) in ("Cf", "Mn", "Me")
        else 2 if unicodedata.east_asian_width(c) in ("W", "F")
        else 1
        for c in text
    )  # fmt: skip


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Columns padded to their widest cell (in terminal columns); the first column
    left-aligned, the rest right. A column with no header (the ◀ focus marks) gets no rule."""
    cells = [list(header), *[list(r) for r in rows]]
    widths = [max(width(row[c]) for row in cells) for c in range(len(header))]

    def line(row: Sequence[str]) -> str:
        pad = [" " * (w - width(x)) for x, w in zip(row, widths, strict=True)]
        parts = [row[0] + pad[0]] + [p + x for x, p in zip(row[1:], pad[1:], strict=True)]
        return "  ".join(parts).rstrip()

    rule = ["─" * w if h else "" for h, w in zip(header, widths, strict=True)]
    return [line(header), line(rule), *[line(r) for r in rows]]


def render(ex: Explanation, *, color: bool = False) -> str:
    """The six beats of `ex` as text, each a title, a wrapped narration and a table."""
    t, f = ex.trace, ex.focus
    chosen = int(np.argmax(t.weights[f]))

    def style(text: str, code: str) -> str:
        return f"{code}{text}{_RESET}" if color else text

    tables = _tables(ex, chosen)
    lines = [
        style(_title(f"Attention for {spoken_names(t.tokens)[f]} in: {_text(t.tokens)}"), _BOLD),
        f"mode {t.mode}, d_k = {t.d_k}, divisor {num(t.divisor)}; row = query, column = key",
    ]
    for number, (beat, body) in enumerate(zip(ex.beats, tables, strict=True), start=1):
        lines += ["", style(f"{number}. {beat.title}", _BOLD)]
        lines += _wrap(beat.text)
        lines += [""] + ["  " + row for row in body]
    text = "\n".join(lines) + "\n"
    if color:  # highlight the chosen key's name where it labels a table row
        name = spoken(t.columns[chosen])
        text = text.replace(f"\n  {name} ", f"\n  {style(name, _VIOLET)} ")
    return text


def _wrap(text: str) -> list[str]:
    """`text` in lines of WIDTH, never broken inside a quoted token's space (“ bank”)."""
    held = text.replace("“ ", "“\u00a0")  # textwrap breaks at ASCII spaces only
    return [line.replace("\u00a0", " ") for line in textwrap.wrap(held, WIDTH)]


def _text(tokens: Sequence[str]) -> str:
    """The tokens as the text they spell: byte-level tokens carry their own spaces (" bank"),
    others are joined by one."""
    own = any(tok[:1].isspace() for tok in tokens)
    return ("" if own else " ").join(tokens).strip()


def _shown(t: Trace, f: int) -> tuple[list[int], list[int]]:
    """The query rows and key columns the tables list: all when few, else the focus and the
    keys it weights most (ROWS_AT_MOST in all), in sentence order."""
    n, m = t.weights.shape
    cols = list(range(m))
    if m > ROWS_AT_MOST:
        top = {int(j) for j in np.argsort(-t.weights[f], kind="stable")[: ROWS_AT_MOST - 1]}
        cols = sorted(top | ({f} if t.key_tokens is None else set()))
    rows = list(range(n))
    if n > ROWS_AT_MOST:
        rows = sorted(set(cols) | {f}) if t.key_tokens is None else sorted({*range(8), f})
    return rows, cols


def _more(total: int, shown: list[int], *blank: str) -> list[list[str]]:
    """A closing "… k more" row when a table leaves tokens out."""
    k = total - len(shown)
    return [[f"… {k} more", *blank]] if k else []


def _tables(ex: Explanation, chosen: int) -> list[list[str]]:
    t, f = ex.trace, ex.focus
    tok, col = [spoken(x) for x in t.tokens], [spoken(x) for x in t.columns]  # “ bank”, “.”
    rows, keys = _shown(t, f)
    m = t.weights.shape[1]
    mark = ["◀ focus" if i == f else "" for i in range(t.n)]
    if t.embeddings is not None and t.embeddings.shape[1] <= 8:
        dims = list(t.dim_names) if t.dim_names else [f"x{i}" for i in range(_width(t))]
        tokens = table(
            ["token", *dims, ""],
            [[tok[i], *(num(x) for x in t.embeddings[i]), mark[i]] for i in rows]
            + _more(t.n, rows, *[""] * (len(dims) + 1)),
        )
    else:
        emb = t.embeddings
        tokens = table(
            ["token", "vector" if emb is not None else "", ""],
            [[tok[i], _v(emb[i]) if emb is not None else "", mark[i]] for i in rows]
            + _more(t.n, rows, "", ""),
        )
    project = table(
        ["token", "query q", "key k", "value v"],
        [[tok[i], _v(t.queries[i]), _v(t.keys[i]), _v(t.values[i])] for i in rows]
        + _more(t.n, rows, "", "", ""),
    )
    div = {"scaled": "√dₖ", "unscaled": "1", "uniform": "ignored"}[t.mode]
    if t.temperature is not None:
        div = "T"
    score = table(
        [f"{tok[f]} → key", "q·k", f"÷ {div}", "score s"],
        [[col[j], num(t.raw_scores[f, j]), num(t.divisor), num(t.scores[f, j])] for j in keys]
        + _more(m, keys, "", "", ""),
    )
    rest = float(t.weights[f].sum() - t.weights[f, keys].sum())
    softmax = table(
        [f"{tok[f]} → key", "score s", "weight", "budget"],
        [[col[j], num(t.scores[f, j]), num(t.weights[f, j]), _bar(t.weights[f, j])] for j in keys]
        + _more(m, keys, "", num(rest), _bar(rest))
        + [["sum", "", num(float(t.weights[f].sum())), ""]],
    )
    blend = table(
        ["key", "weight", "value v", "weight × v"],
        [
            [col[j], num(t.weights[f, j]), _v(t.values[j]), _v(t.weights[f, j] * t.values[j])]
            for j in keys
        ]
        + _more(m, keys, num(rest), "", "")
        + [[f"= new {tok[f]}", "", "", _v(t.outputs[f])]],
    )
    parallel = table(
        ["query ↓ key →", *(col[j] for j in keys)],
        [[tok[i], *(num(w) for w in t.weights[i, keys])] for i in rows]
        + _more(t.n, rows, *[""] * len(keys)),
    )
    return [tokens, project, score, softmax, blend, parallel]


def _title(text: str) -> str:
    return text if len(text) <= WIDTH else text[: WIDTH - 1] + "…"


def _width(t: object) -> int:
    emb = getattr(t, "embeddings", None)
    return int(emb.shape[1]) if emb is not None and emb.shape[1] <= 8 else 1


def _v(x: np.ndarray) -> str:
    return (
        vec(x) if x.shape[0] <= 8 else f"[{num(float(x[0]))}, {num(float(x[1]))}, … ×{x.shape[0]}]"
    )


def _bar(w: float, *, width: int = 20) -> str:
    return "█" * round(w * width)


def render_heads(mt: ModelTrace, focus: int) -> str:
    """The summaries as a fixed-width table, one line per head."""
    who = spoken(mt.tokens[focus])
    uniform = float(np.log2(mt.n))
    body = table(
        ["layer", "head", f"{who} looks most at", "weight", "entropy (bits)"],
        [
            [str(s.layer), str(s.head), f"{spoken(mt.tokens[s.top])} ({s.top})", num(s.top_weight),
             num(s.entropy_bits)]
            for s in head_summaries(mt, focus)
        ],
    )  # fmt: skip
    head = [
        f"Where {who} (token {focus}) looks in each head of {mt.model}: {_text(mt.tokens)}",
        f"entropy 0 = all weight on one token; {num(uniform)} = spread evenly over {mt.n} tokens",
        "",
    ]
    return "\n".join(head + body) + "\n"


def render_next(mt: ModelTrace, after: int, top: Sequence[tuple[str, float, bool]]) -> str:
    """The most likely next tokens after token `after`, one line each with a bar; a special
    token (<|im_end|>, Gemma 3's <start_of_image>) is said to be one, as the page's table does."""
    mark = f" ({PAGE_WORDS['model.next.special']})"

    def name(t: str, special: bool) -> str:
        return spoken(t) + (mark if special else "")

    rows = [[name(t, s), f"{p:.1%}"] for t, p, s in top]
    lines = table(["next token", "probability"], rows)
    bars = ["", ""] + ["█" * round(p * 40) for _, p, _ in top]  # 40 characters = probability 1
    body = [f"{line}  {bar}".rstrip() for line, bar in zip(lines, bars, strict=True)]
    text = "".join(mt.tokens[: after + 1])
    head = [f"{mt.model} predicts after “{text}” (token {after}, {spoken(mt.tokens[after])}):", ""]
    return "\n".join(head + body) + "\n"
