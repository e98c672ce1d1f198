"""The numbers as CSV: the weights matrix with token headers, and a long form of every cell.

The matrix is one head's weights, row i the query token i, column j the key token j, the corner
naming the two axes. The long form has one row per (layer, head, query, key) with the raw score
q·k, the score the softmax read (raw / √dₖ, or / T) and the weight. Numbers are written to 9
significant digits, trailing zeros dropped (`CSV_DIGITS`; a masked score as -inf): a real model's
float32 numbers read back exactly, and the toy's float64 ones without their last-digit arithmetic
noise (bank → by's q·k is 0.92, not 0.9199999999999999), to 9 digits. The page's
export_data.js writes the same rule. The toy lesson is layer 0; its heads are the lesson's heads.
Attention weights handed in from elsewhere (AttentionMaps) have the same columns with the two
scores left empty: only the weights were given.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

from attnlab.core.attention_maps import AttentionMaps
from attnlab.core.trace import Trace
from attnlab.lesson.explain import LessonExplanation
from attnlab.models.model_trace import ModelTrace
from attnlab.types import FloatArray
from attnlab.words.page_export import CSV_HEADERS

__all__ = [
    "CORNER",
    "CSV_DIGITS",
    "LONG_MAX_ROWS",
    "long_row_count",
    "long_rows",
    "long_table_csv",
    "maps_long_csv",
    "maps_matrix_csv",
    "matrix_csv",
]

CORNER = "query \\ key"
"""The matrix CSV's top-left cell: rows are queries, columns keys."""

Row = tuple[int, int, int, str, int, str, float, float, float]


CSV_DIGITS = 9
"""Significant digits of a CSV number: enough for float32 to read back exactly (9 always are)."""


def _number(x: float) -> str:
    return f"{float(x):.{CSV_DIGITS}g}"  # "0.92", "0.685417926", "1e-07", "-inf", "nan"


def _traces(obj: LessonExplanation | ModelTrace) -> Iterator[tuple[int, int, Trace]]:
    if isinstance(obj, ModelTrace):
        for layer in range(obj.n_layers):
            for head in range(obj.n_heads):
                yield layer, head, obj.head(layer, head)
    else:
        for head, run in enumerate(obj.runs):
            yield 0, head, run.trace


LONG_MAX_ROWS = 2_000_000
"""The most rows a long form is written with (~100 MB of CSV): a real model's long form is every
layer × head × query × key, 107 million rows for SmolLM2 at 630 tokens, which ran out of memory
after four minutes instead of saying so."""


def long_row_count(obj: LessonExplanation | ModelTrace) -> int:
    """How many rows `long_rows` would give: layers × heads × queries × keys."""
    if isinstance(obj, ModelTrace):
        return obj.n_layers * obj.n_heads * obj.n * obj.n
    return sum(len(run.trace.tokens) * len(run.trace.columns) for run in obj.runs)


def long_rows(obj: LessonExplanation | ModelTrace) -> Iterator[Row]:
    """Every (layer, head, query i, key j) with its tokens, raw score, score and weight."""
    for layer, head, t in _traces(obj):
        keys = t.columns
        for i, q_tok in enumerate(t.tokens):
            for j, k_tok in enumerate(keys):
                yield (
                    layer, head, i, q_tok, j, k_tok,
                    float(t.raw_scores[i, j]), float(t.scores[i, j]), float(t.weights[i, j]),
                )  # fmt: skip


def _csv(rows: Iterator[list[str]] | list[list[str]]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerows(rows)
    return buf.getvalue()


def long_table_csv(obj: LessonExplanation | ModelTrace) -> str:
    """The long form as CSV text, headed by words/page_export.CSV_HEADERS."""
    body = (
        [str(layer), str(head), str(i), q, str(j), k, _number(raw), _number(s), _number(w)]
        for layer, head, i, q, j, k, raw, s, w in long_rows(obj)
    )
    return _csv([list(CSV_HEADERS), *body])


def matrix_csv(t: Trace) -> str:
    """One head's weights as a table: a header row of key tokens, then one row per query."""
    return _matrix(t.weights, t.tokens, t.columns)


def maps_long_csv(maps: AttentionMaps) -> str:
    """Weights from elsewhere in the long form: the columns of `long_table_csv`, the raw score
    and the score empty (they were never given)."""
    w = maps.weights  # (L, H, n, m)
    body = (
        [str(layer), str(head), str(i), q, str(j), k, "", "", _number(w[layer, head, i, j])]
        for layer in range(maps.n_layers)
        for head in range(maps.n_heads)
        for i, q in enumerate(maps.tokens)
        for j, k in enumerate(maps.key_tokens)
    )
    return _csv([list(CSV_HEADERS), *body])


def maps_matrix_csv(maps: AttentionMaps, layer: int, head: int) -> str:
    """One head of weights from elsewhere as `matrix_csv`'s table."""
    return _matrix(maps.head(layer, head), maps.tokens, maps.key_tokens)


def _matrix(weights: FloatArray, rows: tuple[str, ...], columns: tuple[str, ...]) -> str:
    out = [[CORNER, *columns]]
    out += [[tok, *(_number(w) for w in weights[i])] for i, tok in enumerate(rows)]  # (n, m)
    return _csv(out)
