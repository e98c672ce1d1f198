"""Issue 27: a CSV holds what the trace holds without float noise: the seed's numbers as the
seed writes them (0.92, not 0.9199999999999999), every other number to 9 significant digits,
and the export menu's note says so."""

from __future__ import annotations

import csv
import io

import numpy as np

from attnlab import explain_lesson
from attnlab.export.tables import CSV_DIGITS, long_table_csv, matrix_csv
from attnlab.words.page import PAGE_WORDS


def _bank_row(text: str) -> dict[str, list[str]]:
    rows = list(csv.reader(io.StringIO(text)))[1:]
    bank = [r for r in rows if r[3] == "bank"]
    return {
        "raw": [r[6] for r in bank],
        "score": [r[7] for r in bank],
        "weight": [r[8] for r in bank],
    }


def test_the_seed_s_scores_are_written_as_the_seed_writes_them() -> None:
    row = _bank_row(long_table_csv(explain_lesson("by the river bank", focus="bank")))
    assert row["raw"] == ["0.92", "0", "4.6", "1.38"]  # q·k against by, the, river, bank
    assert row["score"] == ["0.46", "0", "2.3", "0.69"]  # ÷ √dₖ = 2
    assert [round(float(w), 2) for w in row["weight"]] == [0.11, 0.07, 0.69, 0.14]


def test_no_number_carries_float_noise() -> None:
    ex = explain_lesson("by the river bank", focus="bank")
    for text in (long_table_csv(ex), matrix_csv(ex.trace)):
        assert "0.9199999999999999" not in text
        for cell in (c for r in csv.reader(io.StringIO(text)) for c in r):
            digits = cell.lstrip("-").split("e")[0].replace(".", "").lstrip("0")
            if cell.replace(".", "").replace("-", "").replace("e", "").isdigit():
                assert len(digits) <= CSV_DIGITS, cell


def test_the_weights_read_back_to_nine_digits() -> None:
    ex = explain_lesson("at the savings bank", focus="bank")
    rows = list(csv.reader(io.StringIO(matrix_csv(ex.trace))))[1:]
    back = np.array([[float(x) for x in r[1:]] for r in rows])
    np.testing.assert_allclose(back, ex.trace.weights, rtol=5e-9, atol=0)
    assert rows[3][3] == f"{ex.trace.weights[3, 2]:.9g}"


def test_the_export_menu_says_the_format() -> None:
    note = PAGE_WORDS["export.csv_note"]
    assert "9 significant digits" in note and "-inf" in note
