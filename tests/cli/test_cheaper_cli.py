"""`attnlab cheaper`: the toy's cards, the caches of real models, and a refusal by name."""

from __future__ import annotations

import json

import pytest

from attnlab.cli.main import main


def test_toy_prints_the_four_cards_with_their_badges(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cheaper", "toy", "by the river bank", "--focus", "bank", "--tile", "1"]) == 0
    out = capsys.readouterr().out
    assert "exact: max |Δ| = " in out and "Tile 4 (bank)" in out
    assert "O / ℓ = [1.43, 0.06, 0.14, 0]" in out
    assert "approximate: mean |Δ| = 0.093, top-1 key kept in 75 % of rows" in out


def test_toy_json_is_the_apis(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cheaper", "toy", "--json", "--causal"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["online"]["badge"]["kind"] == "exact" and d["tile"] == 2


def test_a_bad_tile_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cheaper", "toy", "--tile", "9"]) == 2
    assert "tile" in capsys.readouterr().err


def test_cache_of_each_model_from_its_sizes(
    smollm2,
    minilm,
    capsys: pytest.CaptureFixture[str],  # type: ignore[no-untyped-def]
) -> None:
    assert main(["cheaper", "cache"]) == 0
    out = capsys.readouterr().out
    smol = [line.split() for line in out.splitlines() if line.startswith("smollm2")]
    assert [r[1:3] for r in smol] == [["MHA", "1,152"], ["GQA", "384"], ["MQA", "128"]]
    assert "32,768" in out and "576" in out  # DeepSeek-V2: 2 × 128 × 128 against 512 + 64
