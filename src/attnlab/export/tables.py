"""The numbers as CSV: the weights matrix with token headers, and a long form of every cell.

The matrix is one head's weights, row i the query token i, column j the key token j, the corner
naming the two axes. The long form has one row per (layer, head, query, key) with the raw score
q·k, the score the softmax read (raw / √dₖ, or / T) and the weight. Numbers are written in full
(Python's shortest round-trip form), a masked score as -inf, so reading the file back gives the
trace's numbers exactly. The toy lesson is layer 0; its heads are the lesson's heads.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

from attnlab.core.trace import Trace
from attnlab.lesson.explain import LessonExplanation
from attnlab.models.model_trace import ModelTrace
from attnlab.words.page_export import CSV_HEADERS

__all__ = ["CORNER", "long_rows", "long_table_csv", "matrix_csv"]

CORNER = "query \\ key"
"""The matrix CSV's top-left cell: rows are queries, columns keys."""

Row = tuple[int, int, int, str, int, str, float, float, float]


def _number(x: float) -> str:
    return repr(float(x))  # "-inf", "nan", or the shortest text that reads back the same float


def _traces(obj: LessonExplanation | ModelTrace) -> Iterator[tuple[int, int, Trace]]:
    if isinstance(obj, ModelTrace):
        for layer in range(obj.n_layers):
            for head in range(obj.n_heads):
                yield layer, head, obj.head(layer, head)
    else:
        for head, run in enumerate(obj.runs):
            yield 0, head, run.trace


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
    rows = [[CORNER, *t.columns]]
    rows += [[tok, *(_number(w) for w in t.weights[i])] for i, tok in enumerate(t.tokens)]
    return _csv(rows)
