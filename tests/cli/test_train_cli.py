"""`attnlab train`: the summary from the measured curves, the CSV and JSON files, bad input."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from attnlab.cli.main import main


def test_lookup_prints_its_summary_and_saves_its_curves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows, doc = tmp_path / "c.csv", tmp_path / "c.json"
    assert main(["train", "lookup", "--steps", "60", "--csv", str(rows), "--json", str(doc)]) == 0
    out = capsys.readouterr()
    assert "bank's weight on river went from 0.251 to" in out.out
    assert "Uniform: the loss went from 0.474 to 0.474." in out.out
    assert "60/60 steps" in out.err
    table = list(csv.reader(rows.read_text().splitlines()))
    assert table[0][:2] == ["step", "scaled.loss"] and len(table) == 62
    saved = json.loads(doc.read_text())
    assert len(saved["curves"]["scaled.loss"]) == 61 and saved["checkpoints"]


def test_a_step_count_out_of_range_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["train", "sqrt-dk", "--steps", "0"]) == 2
    assert "steps must be a whole number from 1 to 5000, got 0" in capsys.readouterr().err


@pytest.mark.parametrize("flag", ["--csv", "--json", "--gif"])
def test_an_output_in_a_missing_folder_is_refused_before_training(
    flag: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 25, item 6: it trained fully, then printed "unexpected FileNotFoundError"."""
    missing = tmp_path / "nowhere" / "x.out"
    assert main(["train", "lookup", "--steps", "5", flag, str(missing)]) == 2
    said = capsys.readouterr()
    assert f"{flag} {str(missing)!r}: no folder" in said.err
    assert "steps" not in said.err and "bank's weight" not in said.out  # nothing trained
    assert main(["train", "lookup", "--steps", "5", flag, str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err


def test_help_names_each_experiments_default_and_largest_steps(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from attnlab.train.catalog import EXPERIMENTS

    assert main(["train", "--help"]) == 0
    out = capsys.readouterr().out
    for e in EXPERIMENTS.values():
        assert f"({e.default_steps} steps by default, at most {e.max_steps})" in out


def test_piped_progress_is_a_line_every_tenth_not_a_carriage_return_flood(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["train", "lookup", "--steps", "100"]) == 0
    err = capsys.readouterr().err
    assert "\r" not in err
    assert err.count("\n") == 11 and "100/100 steps" in err  # 0 %, 10 %, …, 100 %
