"""benchmarks/cheaper.py: a child that dies ends the run with its exit code (it used to wait on
its queue for ever when torch could not be imported), and its README line names PyTorch."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_child_that_cannot_import_torch_ends_the_run(tmp_path: Path) -> None:
    """Issue 26: `python benchmarks/cheaper.py --sizes 256,512` without torch never exited."""
    (tmp_path / "torch.py").write_text("raise ModuleNotFoundError(\"No module named 'torch'\")\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT / "src")])}
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "cheaper.py"), "--sizes", "256"],
        capture_output=True, text=True, timeout=120, env=env, check=False,
    )  # fmt: skip
    assert run.returncode != 0
    assert "ModuleNotFoundError" in run.stderr
    assert "the torch run at n = 256 stopped with exit code 1" in run.stderr


def test_the_readme_says_the_benchmark_needs_pytorch() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    line = next(x for x in readme.splitlines() if "benchmarks/cheaper.py" in x and "$ " in x)
    assert "PyTorch" in line and "make test" in line
