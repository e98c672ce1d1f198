"""`attnlab.save(obj, path)`: the suffix picks the format; bad input is named.

The package face's `save` is the exports' `save`; a lesson, a model's trace and attention
weights from elsewhere (AttentionMaps: .csv and .json only) all go through it.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

import attnlab
from attnlab import explain_lesson
from attnlab.core.attention_maps import AttentionMaps
from attnlab.encode.arrays import decode_array
from attnlab.errors import ExportError, UnknownHeadError
from attnlab.export import save


def _rows(path: Path) -> list[list[str]]:
    return list(csv.reader(path.read_text(encoding="utf-8").splitlines()))


def test_suffix_picks_the_format(tmp_path: Path) -> None:
    ex = explain_lesson("by the river bank", focus="bank")
    html = attnlab.save(ex, tmp_path / "a.html")
    assert html.read_text(encoding="utf-8").startswith("<!doctype html>")
    data = json.loads(attnlab.save(ex, tmp_path / "a.json").read_text(encoding="utf-8"))
    assert data["focus_token"] == "bank"
    rows = list(
        csv.reader(attnlab.save(ex, tmp_path / "a.csv").read_text(encoding="utf-8").splitlines())
    )
    assert rows[0][0] == "layer" and len(rows) == 1 + 16
    matrix = _rows(save(ex, tmp_path / "m.txt", format="csv", table="matrix"))
    assert np.allclose([[float(x) for x in r[1:]] for r in matrix[1:]], ex.trace.weights)


def test_model_trace_saves_too(tmp_path: Path, minilm_trace) -> None:
    out = attnlab.save(minilm_trace, tmp_path / "m.csv", table="matrix", layer=1, head=3)
    rows = _rows(out)
    assert rows[0][1:] == list(minilm_trace.tokens)
    assert np.array_equal(
        np.array([[float(x) for x in r[1:]] for r in rows[1:]], dtype=np.float32),
        minilm_trace.head(1, 3).weights,  # float32 reads back exactly from 9 digits
    )


@pytest.mark.parametrize(
    ("name", "fragment"),
    [("a.png", "Export menu"), ("a.gif", "Export menu"), ("a.docx", ".html, .json, .csv")],
)
def test_a_format_save_cannot_write_is_named(tmp_path: Path, name: str, fragment: str) -> None:
    ex = explain_lesson()
    with pytest.raises(ExportError, match=fragment):
        attnlab.save(ex, tmp_path / name)
    assert not (tmp_path / name).exists()


def test_other_objects_and_bad_heads_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="got dict"):
        attnlab.save({}, tmp_path / "a.json")  # type: ignore[arg-type]
    with pytest.raises(ExportError, match="path must be a file name, got None"):
        attnlab.save(explain_lesson(), None)  # type: ignore[arg-type]
    with pytest.raises(ExportError, match="got dict"):
        save({}, tmp_path / "a.json")  # type: ignore[arg-type]
    with pytest.raises(ExportError, match=r"head 3 is outside 0\.\.0"):
        save(explain_lesson(), tmp_path / "a.csv", table="matrix", head=3)
    with pytest.raises(ExportError, match="beat must be between 0 and 5"):
        save(explain_lesson(), tmp_path / "a.html", beat=6)


def test_the_package_face_writes_what_the_exports_write(tmp_path: Path) -> None:
    ex = explain_lesson("at the savings bank")
    face = attnlab.save(ex, tmp_path / "face.html", beat=2, focus=3)
    assert face.read_text(encoding="utf-8") == save(
        ex, tmp_path / "x.html", beat=2, focus=3
    ).read_text(encoding="utf-8")
    assert not hasattr(ex, "save")  # one way to save: the face's function, no method to drift


def _maps() -> AttentionMaps:
    w = np.array([[[[0.25, 0.75], [1.0, 0.0]], [[0.5, 0.5], [0.125, 0.875]]]])  # (1, 2, 2, 2)
    return AttentionMaps.of(w, ["it", "ran"], source="elsewhere")


def test_weights_from_elsewhere_save_as_csv_and_json(tmp_path: Path) -> None:
    maps = _maps()
    rows = _rows(attnlab.save(maps, tmp_path / "w.csv"))
    assert rows[0] == _rows(attnlab.save(explain_lesson(), tmp_path / "l.csv"))[0]  # one header
    assert len(rows) == 1 + 1 * 2 * 2 * 2
    assert rows[1 + 4 + 3] == ["0", "1", "1", "ran", "1", "ran", "", "", "0.875"]  # head 1, ran→ran
    matrix = _rows(attnlab.save(maps, tmp_path / "m.csv", table="matrix", head=1))
    assert matrix[0][1:] == ["it", "ran"] and [r[0] for r in matrix[1:]] == ["it", "ran"]
    assert np.array_equal([[float(x) for x in r[1:]] for r in matrix[1:]], maps.head(0, 1))
    data = json.loads(attnlab.save(maps, tmp_path / "w.json").read_text(encoding="utf-8"))
    assert data["source"] == "elsewhere" and data["tokens"] == data["key_tokens"] == ["it", "ran"]
    assert np.array_equal(decode_array(data["weights"]), maps.weights)


@pytest.mark.parametrize("name", ["w.html", "w.svg"])
def test_weights_from_elsewhere_refuse_the_formats_that_draw_beats(
    tmp_path: Path, name: str
) -> None:
    with pytest.raises(
        ExportError, match=r"no queries, keys or values .* save them as \.csv or \.json"
    ):
        attnlab.save(_maps(), tmp_path / name)
    assert not (tmp_path / name).exists()


def test_a_head_outside_the_weights_is_named(tmp_path: Path) -> None:
    with pytest.raises(UnknownHeadError, match=r"head 2 is outside 0\.\.1"):
        attnlab.save(_maps(), tmp_path / "m.csv", table="matrix", head=2)
    with pytest.raises(ExportError, match=r"layer must be a whole number, got 0\.5"):
        attnlab.save(_maps(), tmp_path / "m.csv", table="matrix", layer=0.5)  # type: ignore[arg-type]


def test_a_lesson_saved_with_a_focus_follows_that_token(tmp_path: Path) -> None:
    ex = explain_lesson("by the river bank")  # follows bank
    data = json.loads(attnlab.save(ex, tmp_path / "a.json", focus="river").read_text("utf-8"))
    assert data["focus_token"] == "river"
