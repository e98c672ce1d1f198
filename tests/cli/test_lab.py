"""`attnlab explain`'s lab options and `attnlab cost`: text sections, JSON keys, bad input."""

import json

import pytest

from attnlab.cli.main import main


def run(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_saturation_always_follows_the_beats(capsys) -> None:
    code, out, _ = run("explain", capsys=capsys)
    assert code == 0 and "Saturation" in out and "1.38" in out
    assert "Shuffle" not in out and "Two heads" not in out


def test_temperature_is_the_divisor(capsys) -> None:
    _, out, _ = run("explain", "--temperature", "0.5", capsys=capsys)
    assert "temperature T = 0.5" in out and "river 4.6 / 0.5 = 9.2" in out


def test_every_option_at_once(capsys) -> None:
    code, out, _ = run(
        "explain", "--heads", "2", "--positions", "rope", "--causal", "--shuffle", "1",
        "--sweep", "--read", "by,river", "--set", "river=1,0,0,0.2", capsys=capsys,
    )  # fmt: skip
    assert code == 0
    for title in ("Causal mask", "Positions", "Two heads", "Shuffle", "Temperature sweep",
                  "Reading the matrix"):  # fmt: skip
        assert f"\n{title}\n" in out, title
    assert "✗ moved" in out and "angles (radians" in out and "by → river: masked" in out


def test_shuffle_without_positions_checks_every_token(capsys) -> None:
    _, out, _ = run("explain", "--shuffle", "3", capsys=capsys)
    assert out.count("✓ same") == 4 and "blind to order" in out


def test_json_has_the_lab_and_the_sweep(capsys) -> None:
    _, out, _ = run("explain", "--json", "--sweep", "--heads", "2", "--set-q", "bank=0,0,0,0",
                    capsys=capsys)  # fmt: skip
    d = json.loads(out)
    assert len(d["sweep"]["temperatures"]) == 41 and len(d["heads"]) == 2
    assert d["weights"][3] == [0.25] * 4


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--set", "bank=1,x,0,0"], "dimension 1 (financial): 'x' is not a number"),
        (["--set-v", "bank=1,0,0,1e9"], "beyond ±100"),
        (["--set", "money=0,1,0,0"], "'money': it is not in the sentence"),
        (["--temperature", "nan"], "positive and finite, got nan"),
        (["--temperature", "1", "--mode", "uniform"], "needs mode 'scaled'"),
        (["--shuffle", "-2"], "seed"),
        (["--read", "9,1"], "--read '9,1'"),
    ],
)
def test_bad_lab_input_exits_2_with_one_line(args: list[str], message: str, capsys) -> None:
    code, out, err = run("explain", *args, capsys=capsys)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


def test_cost_table_and_json(capsys) -> None:
    code, out, _ = run("cost", "--max-n", "64", capsys=capsys)
    assert code == 0 and "n² fit" in out and "\n64 " in out
    _, out, _ = run("cost", "--max-n", "32", "--json", capsys=capsys)
    assert [p["n"] for p in json.loads(out)["points"]] == [4, 8, 16, 32]
    code, _, err = run("cost", "--max-n", "99999", capsys=capsys)
    assert code == 2 and "--max-n must be 4 to 4096, got 99999" in err


def test_cost_prints_the_kv_cache_beside_the_n_squared_table(capsys) -> None:
    # the cache table stops at --max-n as the n² table does (test_cost_max_n.py)
    code, out, _ = run("cost", "--max-n", "128", capsys=capsys)
    assert code == 0 and "one more token after n, d = 64" in out
    cache = out.split("one more token after n", 1)[1]
    rows = [ln.split() for ln in cache.splitlines() if ln.split()[:1] in (["128"], ["2048"])]
    # n, recompute (ms), cached row (µs), measured ratio, FLOP ratio, bytes n×n, bytes row
    assert rows[0][0] == "128" and rows[0][6] == "128×" and rows[0][7:9] == ["0.25", "MiB"], rows
    _, out, _ = run("cost", "--max-n", "128", "--json", capsys=capsys)
    kv = json.loads(out)["kv_cache"]
    assert kv["points"][0]["n"] == 128 and kv["points"][0]["flop_ratio"] == pytest.approx(
        128, rel=0.02
    )


def test_temperature_heads_the_score_table_as_t(capsys) -> None:
    _, out, _ = run("explain", "--temperature", "0.5", capsys=capsys)
    header = next(ln.split() for ln in out.splitlines() if "q·k" in ln and "score" in ln)
    assert header[-5:] == ["q·k", "÷", "T", "score", "s"]
    _, out, _ = run("explain", capsys=capsys)
    assert "÷ √dₖ" in out
