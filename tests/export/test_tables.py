"""CSV exports: read back, they are the trace's numbers, cell for cell, to 9 significant digits
(exactly for a real model's float32)."""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest

from attnlab import LessonOptions, explain_lesson
from attnlab.export.tables import CORNER, long_table_csv, matrix_csv
from attnlab.words.page_export import CSV_HEADERS


def _read(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_matrix_round_trips_to_the_weights() -> None:
    ex = explain_lesson("by the river bank", focus="bank")
    rows = _read(matrix_csv(ex.trace))
    assert rows[0] == [CORNER, "by", "the", "river", "bank"]
    assert [r[0] for r in rows[1:]] == ["by", "the", "river", "bank"]
    back = np.array([[float(x) for x in r[1:]] for r in rows[1:]])
    np.testing.assert_allclose(back, ex.trace.weights, rtol=5e-9, atol=0)  # 9 digits, not 2
    assert back[3, 2] == pytest.approx(0.685, abs=5e-4)  # the seed's bank → river


def test_long_form_has_every_cell_of_every_head() -> None:
    ex = explain_lesson("at the savings bank", LessonOptions(heads=2, causal=True))
    rows = _read(long_table_csv(ex))
    assert tuple(rows[0]) == CSV_HEADERS
    body = rows[1:]
    n = len(ex.trace.tokens)
    assert len(body) == 2 * n * n
    for layer, head, i, q, j, k, raw, score, weight in body:
        t = ex.runs[int(head)].trace
        i_, j_ = int(i), int(j)
        assert layer == "0" and q == t.tokens[i_] and k == t.columns[j_]
        for text, x in ((raw, t.raw_scores), (score, t.scores), (weight, t.weights)):
            assert float(text) == pytest.approx(x[i_, j_], rel=5e-9)  # -inf reads back as -inf
    assert any(r[7] == "-inf" for r in body)  # the causal mask's hidden cells are written


def test_model_long_form_covers_every_layer_and_head(minilm_trace) -> None:
    mt = minilm_trace
    rows = _read(long_table_csv(mt))[1:]
    assert len(rows) == mt.n_layers * mt.n_heads * mt.n * mt.n
    pick = [r for r in rows if r[0] == "2" and r[1] == "5"]
    w = np.array([float(r[8]) for r in pick], dtype=np.float32).reshape(mt.n, mt.n)
    assert np.array_equal(w, mt.head(2, 5).weights)  # float32 reads back exactly


def test_a_long_form_too_big_to_write_is_refused_by_name(minilm) -> None:
    """The long form is every layer × head × query × key: SmolLM2 at 630 tokens asked for 107
    million rows and ran out of memory after four minutes. Over LONG_MAX_ROWS it is refused at
    once, saying how many rows and what to take instead; one head's matrix still saves."""
    from attnlab.errors import ExportError
    from attnlab.export.saving import export_text
    from attnlab.export.tables import LONG_MAX_ROWS, long_row_count

    mt = minilm.trace(" ".join(["bank"] * 200))  # 202 tokens: 6 × 12 × 202² = 2,937,888 rows
    assert long_row_count(mt) == 6 * 12 * 202 * 202 > LONG_MAX_ROWS
    with pytest.raises(ExportError, match=r"2,937,888 rows .*\(--table matrix") as err:
        export_text(mt, "csv")
    assert err.value.field == "table"
    matrix = _read(export_text(mt, "csv", table="matrix", layer=1, head=3))
    assert len(matrix) == 203  # the header and a row per query: the whole head
    small = minilm.trace("by the river bank")
    assert long_row_count(small) == len(_read(export_text(small, "csv"))) - 1
