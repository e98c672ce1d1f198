"""`attnlab explain`: the text and JSON outputs and the bad-input exits."""

import json
import os
import subprocess
import sys

import pytest

from attnlab.cli.main import main


def run(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_text_shows_every_seed_number(capsys) -> None:
    code, out, _ = run("explain", "by the river bank", "--focus", "bank", capsys=capsys)
    assert code == 0
    for number in ("[2.3, 2.3, 0, 0]", "0.92", "4.6", "1.38", "0.46", "2.3", "0.69",
                   "0.11", "0.07", "0.14", "[1.43, 0.06, 0.14, 0]"):  # fmt: skip
        assert number in out, number
    for title in ("1. Tokens", "2. Project", "3. Score", "4. Softmax", "5. Blend", "6. Parallel"):
        assert title in out
    assert "\x1b[" not in out  # not a TTY: plain text


def test_text_score_table_rows(capsys) -> None:
    _, out, _ = run("explain", capsys=capsys)
    lines = [ln.split() for ln in out.splitlines()]
    assert ["river", "4.6", "2", "2.3"] in lines
    assert ["bank", "0.11", "0.07", "0.69", "0.14"] in lines  # the parallel matrix's bank row


def test_color_always_adds_ansi(capsys) -> None:
    _, out, _ = run("explain", "--color", "always", capsys=capsys)
    assert "\x1b[1m" in out


def test_json_savings_largest_weight_on_savings(capsys) -> None:
    code, out, _ = run("explain", "at the savings bank", "--focus", "bank", "--json",
                       capsys=capsys)  # fmt: skip
    assert code == 0
    d = json.loads(out)
    for key in ("tokens", "mode", "d_k", "embeddings", "queries", "keys", "values", "raw_scores",
                "scores", "weights", "outputs", "focus", "narration"):  # fmt: skip
        assert key in d, key
    row = d["weights"][d["focus"]]
    assert d["tokens"][row.index(max(row))] == "savings"
    assert d["narration"][0]["title"] == "Tokens" and len(d["narration"]) == 6


@pytest.mark.parametrize("mode", ["scaled", "unscaled", "uniform"])
def test_json_mode(mode: str, capsys) -> None:
    _, out, _ = run("explain", "--mode", mode, "--json", capsys=capsys)
    assert json.loads(out)["mode"] == mode


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["explain", "by the lake bank"], "unknown word 'lake'"),
        (["explain", "--focus", "money"], "'money' is not in the sentence"),
        (["explain", ""], "empty"),
        (["explain", "the " * 20], "at most 12"),
    ],
)
def test_bad_input_exits_2_with_one_line(args: list[str], message: str, capsys) -> None:
    code, out, err = run(*args, capsys=capsys)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_installed_command_bad_mode_no_traceback() -> None:
    env = {**os.environ, "NO_COLOR": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "attnlab", "explain", "--mode", "softer"],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    assert proc.returncode == 2 and "invalid choice" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_the_cli_keeps_freed_memory_for_its_passes_as_the_server_workers_do() -> None:
    """`import attnlab` tunes nothing (a notebook's process is its user's), but the CLI's process is
    attnlab's own: a model pass there kept no freed memory, and MiniLM's 134-token trace took
    1.85-2.14 s instead of 1.06 (models/memory.py)."""
    import subprocess
    import sys

    code = (
        "import attnlab.models.memory as m; from attnlab.cli.main import main; "
        "assert not m._done; main(['vocab']); print(m._done)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "True"
