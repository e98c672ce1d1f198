"""Ctrl-C during `attnlab atlas`: one line saying what is kept, exit 130, Dask's log quiet, on
the in-process path and on a LocalCluster (SIGINT to the whole process group, as a terminal
sends it)."""

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("pyarrow")

SRC = Path(__file__).resolve().parents[2] / "src"


def _ctrl_c_as_a_terminal_has_it() -> None:
    """SIGINT's default in the child: a test run started in the background (`cmd &` in a
    script) inherits SIGINT ignored, and Python then never turns Ctrl-C into KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _stopped(tmp_path: Path, scheduler: str) -> tuple[int, str, int]:
    corpus = tmp_path / "c.txt"
    corpus.write_text(
        "\n".join(f"the cat saw dog {i} by the river bank today" for i in range(600)),
        encoding="utf-8",
    )
    out = tmp_path / "a.parquet"
    argv = [sys.executable, "-m", "attnlab", "atlas", str(corpus), "--unit", "line"]
    argv += ["--model", "patterns-slow", "-o", str(out), "--shards", "30"]
    argv += ["--scheduler", scheduler, "--workers", "1"]
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    proc = subprocess.Popen(
        argv, stderr=subprocess.PIPE, stdout=subprocess.PIPE, env=env, start_new_session=True,
        preexec_fn=_ctrl_c_as_a_terminal_has_it,
    )  # fmt: skip
    parts = out.with_name(out.name + ".parts")
    deadline = time.monotonic() + 90
    while not list(parts.glob("*/shard-*.npz")) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert list(parts.glob("*/shard-*.npz")), "no shard was saved"
    os.killpg(proc.pid, signal.SIGINT)  # the terminal's Ctrl-C: every process of the group
    _, err = proc.communicate(timeout=60)
    kept = len(list(parts.glob("*/shard-*.npz")))
    return proc.returncode, err.decode(), kept


@pytest.mark.slow
@pytest.mark.parametrize("scheduler", ["none", "local"])
def test_ctrl_c_says_what_is_kept_in_one_line(tmp_path: Path, scheduler: str) -> None:
    code, err, kept = _stopped(tmp_path, scheduler)
    assert code == 130, err
    lines = [line for line in err.splitlines() if not line.startswith("atlas: ")]
    assert len(lines) == 1, err
    m = re.fullmatch(
        r"stopped: (\d+) of 30 shards kept in (.+); run the same command again to resume", lines[0]
    )
    assert m, err
    assert int(m[1]) == kept and m[2] == f"{tmp_path / 'a.parquet.parts'}/"
    assert "Traceback" not in err and "WARNING" not in err and "distributed" not in err
