"""`attnlab atlas`: a run, its ranking, and bad input in one line (cli/atlas_cmd.py)."""

import re
from pathlib import Path

import pytest

from attnlab.cli.main import main

pytest.importorskip("pyarrow")


def corpus(tmp_path: Path) -> Path:
    p = tmp_path / "c.txt"
    long = " ".join(f"w{i}" for i in range(100))
    p.write_text(f"the cat sat on the mat\n\na b c a b c d\n\n{long}\n", encoding="utf-8")
    return p


def test_a_run_then_its_ranking(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "a.parquet"
    args = ["atlas", str(corpus(tmp_path)), "--model", "patterns", "-o", str(out)]
    assert main([*args, "--scheduler", "none"]) == 0
    err = capsys.readouterr().err
    assert "atlas: 1/1 shard · 3/3 texts ·" in err and "texts/s" in err and "tokens/s" in err
    assert "texts over 64 tokens, the limit of patterns: 1 split at spaces, 0 skipped" in err
    assert not re.search(r"(?<![\d.,])1 texts", err)  # "1 text", never "1 texts"; a rate may
    # read "800.1 texts/s"
    assert f"wrote {out}" in err and "2 layers × 3 heads, 3 texts" in err
    assert main([*args, "--scheduler", "none"]) == 0  # again: the shard is read, not computed
    assert "1 of 1 shard read from" in capsys.readouterr().err
    assert main(["atlas", "show", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "patterns on c.txt: 3 texts" in shown and "Induction score (probe)  " in shown.replace(
        "Induction score (probe)", "Induction score (probe)  ", 1
    )
    assert "L1 H0 1.000" in shown
    assert main(["atlas", "show", str(out), "--statistic", "self", "--top", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[2].startswith("Self weight  L1 H1 1.000")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["atlas", "EMPTY", "--model", "patterns", "-o", "x.parquet"], "the corpus is empty"),
        (["atlas", "BINARY", "--model", "patterns", "-o", "x.parquet"], "binary file"),
        (["atlas", "TEXT", "--model", "nope", "-o", "x.parquet"], "unknown model 'nope'"),
        (["atlas", "TEXT", "-o", "x.parquet"], "needs --model NAME and -o ATLAS"),
        (["atlas", "show", "TEXT"], "is not a Parquet file"),
        (["atlas", "show"], "takes one atlas file"),
        (["atlas", "--probe", "sinks"], "needs --model NAME"),
        (
            ["atlas", "wordnet", "--probe", "sinks", "--model", "patterns", "-o", "p.parquet"],
            r"takes no corpus and writes no file, so drop the corpus 'wordnet' and -o ",
        ),
        (["atlas", "--probe", "sinks", "--model", "patterns", "-o", "p.parquet"], "drop -o "),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    files = {"EMPTY": b"\n\n", "BINARY": b"\x00\x01\x02", "TEXT": b"some text\n"}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    argv = [str(tmp_path / a) if a in files else a for a in argv]
    argv = [str(tmp_path / a) if a.endswith(".parquet") else a for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_the_sinks_probe_of_the_pattern_model(capsys: pytest.CaptureFixture[str]) -> None:
    """It once stopped at the 97-word passage, over the pattern model's 64-token limit."""
    assert main(["atlas", "--probe", "sinks", "--model", "patterns"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "patterns (2 layers × 3 heads)" in out[0]
    assert [line.split()[:2] for line in out[2:]] == [
        ["natural", "64"],
        ["random", "64"],
        ["repeated", "64"],
    ]


def test_a_resumed_run_says_what_it_read_first_and_starts_no_cluster_when_done(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    c = tmp_path / "c.txt"
    c.write_text("\n".join(f"the cat saw dog {i}" for i in range(40)), encoding="utf-8")
    out = tmp_path / "a.parquet"
    args = ["atlas", str(c), "--unit", "line", "--model", "patterns", "-o", str(out)]
    assert main([*args, "--shards", "4", "--scheduler", "none"]) == 0
    capsys.readouterr()
    saved = sorted(out.with_name("a.parquet.parts").glob("*/shard-*.npz"))
    assert len(saved) == 4
    saved[-1].unlink()  # a run stopped before its last shard
    assert main([*args, "--shards", "4", "--scheduler", "none"]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith("atlas: 3 of 4 shards read from "), lines
    assert lines[0].endswith(", 1 to compute")
    assert lines[1].startswith("atlas: 4/4 shards · 40/40 texts"), lines
    # every shard saved: the atlas is merged here, no scheduler is asked (this one is unreachable)
    assert main([*args, "--shards", "4", "--scheduler", "tcp://127.0.0.1:9"]) == 0
    err = capsys.readouterr().err
    assert "4 of 4 shards read from" in err and "no Dask scheduler" not in err


def test_show_one_statistic_wraps_to_the_terminal_and_honours_top(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "a.parquet"
    argv = ["atlas", str(corpus(tmp_path)), "--model", "patterns", "-o", str(out)]
    assert main([*argv, "--scheduler", "none"]) == 0
    capsys.readouterr()
    monkeypatch.setenv("COLUMNS", "60")
    assert main(["atlas", "show", str(out), "--statistic", "first"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in lines[2:]) <= 60, lines
    best = next(line for line in lines if "best:" in line)
    assert best.startswith("  best: L"), best  # two spaces in, as the words have it
    every = " ".join(lines[2:])
    assert all(f"L{la} H{h} " in every for la in range(2) for h in range(3))  # all 6 heads
    assert main(["atlas", "show", str(out), "--statistic", "first", "--top", "3"]) == 0
    shown = capsys.readouterr().out.split("  best:")[0]
    assert shown.count(" H") == 3, shown
