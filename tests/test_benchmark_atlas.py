"""benchmarks/atlas.py writes the atlas file it measures with the provenance `attnlab atlas`
writes for the same model, corpus and options (it used to leave out `causal`, so MiniLM, an
encoder, was recorded as a causal decoder)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("pyarrow")

from attnlab.atlas.corpus import read_corpus
from attnlab.atlas.file import read_atlas
from attnlab.atlas.run import AtlasOptions, run_atlas
from attnlab.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
MODEL = "minilm"  # an encoder (the `minilm` fixture skips where it is missing): causal False


def _benchmark():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(
        "atlas_benchmark", ROOT / "benchmarks" / "atlas.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_benchmarks_provenance_is_the_clis(tmp_path: Path, minilm) -> None:  # type: ignore[no-untyped-def]
    text = tmp_path / "c.txt"
    text.write_text("the cat sat on the mat\n\nby the river bank\n\nat the savings bank\n")
    cli_file = tmp_path / "cli.parquet"
    argv = ["atlas", str(text), "--model", MODEL, "-o", str(cli_file), "--scheduler", "none"]
    assert main(argv) == 0
    _, cli = read_atlas(cli_file)

    options = AtlasOptions(model=MODEL, scheduler="none")  # the benchmark's, run in process
    corpus = read_corpus(str(text))
    sums = run_atlas(corpus, options).sums
    bench_file = tmp_path / "bench.parquet"
    _benchmark().atlas_file(bench_file, sums, model=minilm, corpus=corpus, options=options)
    _, bench = read_atlas(bench_file)

    assert cli.causal is False  # MiniLM reads both ways
    assert bench == cli
