"""`save(obj, path)` and the `save` methods: the suffix picks the format; bad input is named."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from attnlab import explain_lesson
from attnlab.errors import ExportError
from attnlab.export import save


def _rows(path: Path) -> list[list[str]]:
    return list(csv.reader(path.read_text(encoding="utf-8").splitlines()))


def test_suffix_picks_the_format(tmp_path: Path) -> None:
    ex = explain_lesson("by the river bank", focus="bank")
    html = ex.save(tmp_path / "a.html")
    assert html.read_text(encoding="utf-8").startswith("<!doctype html>")
    data = json.loads(ex.save(tmp_path / "a.json").read_text(encoding="utf-8"))
    assert data["focus_token"] == "bank"
    rows = list(csv.reader(ex.save(tmp_path / "a.csv").read_text(encoding="utf-8").splitlines()))
    assert rows[0][0] == "layer" and len(rows) == 1 + 16
    matrix = _rows(save(ex, tmp_path / "m.txt", format="csv", table="matrix"))
    assert np.allclose([[float(x) for x in r[1:]] for r in matrix[1:]], ex.trace.weights)


def test_model_trace_saves_too(tmp_path: Path, minilm_trace) -> None:
    out = minilm_trace.save(tmp_path / "m.csv", table="matrix", layer=1, head=3)
    rows = _rows(out)
    assert rows[0][1:] == list(minilm_trace.tokens)
    assert np.array_equal(
        np.array([[float(x) for x in r[1:]] for r in rows[1:]]), minilm_trace.head(1, 3).weights
    )


@pytest.mark.parametrize(
    ("name", "fragment"),
    [("a.png", "Export menu"), ("a.gif", "Export menu"), ("a.docx", ".html, .json, .csv")],
)
def test_a_format_save_cannot_write_is_named(tmp_path: Path, name: str, fragment: str) -> None:
    ex = explain_lesson()
    with pytest.raises(ExportError, match=fragment):
        ex.save(tmp_path / name)
    assert not (tmp_path / name).exists()


def test_other_objects_and_bad_heads_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="got dict"):
        save({}, tmp_path / "a.json")  # type: ignore[arg-type]
    with pytest.raises(ExportError, match=r"head 3 is outside 0\.\.0"):
        save(explain_lesson(), tmp_path / "a.csv", table="matrix", head=3)
    with pytest.raises(ExportError, match="beat must be between 0 and 5"):
        save(explain_lesson(), tmp_path / "a.html", beat=6)
