"""`attnlab export`: the lesson or a model's trace to a file, the format from the suffix."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from attnlab import LessonOptions, explain_lesson
from attnlab.cli.main import main


def test_lesson_to_html_json_and_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    html = tmp_path / "lesson.html"
    assert main(["export", "by the river bank", "--focus", "bank", "-o", str(html)]) == 0
    assert "attnlab-data" in html.read_text(encoding="utf-8")
    out = tmp_path / "x.data"
    assert main(["export", "at the savings bank", "--format", "json", "-o", str(out)]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["tokens"][2] == "savings"
    matrix = tmp_path / "m.csv"
    assert main(["export", "--table", "matrix", "--mode", "unscaled", "-o", str(matrix)]) == 0
    rows = list(csv.reader(matrix.read_text(encoding="utf-8").splitlines()))
    want = explain_lesson("by the river bank", LessonOptions(mode="unscaled"))
    back = [[float(x) for x in r[1:]] for r in rows[1:]]
    np.testing.assert_allclose(back, want.trace.weights, rtol=5e-9, atol=0)  # 9 digits
    assert "wrote" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-o", "x.png"], "Export menu"),
        (["-o", "x.txt"], "cannot tell what to write"),
        (["--layer", "2", "-o", "x.json"], "--layer picks a layer of a real model"),
        (["--model", "minilm", "--causal", "-o", "x.json"], "do not apply to --model"),
    ],
)
def test_bad_requests_exit_2_naming_the_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    args = [a if not a.startswith("x.") else str(tmp_path / a) for a in args]
    assert main(["export", *args]) == 2
    assert message in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_model_to_csv(tmp_path: Path, minilm) -> None:
    out = tmp_path / "m.csv"
    code = main(["export", "--model", "minilm", "by the river bank", "-o", str(out)])
    assert code == 0
    rows = list(csv.reader(out.read_text(encoding="utf-8").splitlines()))
    mt = minilm.trace("by the river bank")
    assert len(rows) == 1 + mt.n_layers * mt.n_heads * mt.n**2
