"""`attnlab explain --model` and `attnlab heads`: a real head's six beats, every head's summary."""

import json

import pytest

from attnlab.cli.main import main

pytestmark = pytest.mark.usefixtures("minilm")  # skip all where the weights are not installed


def run(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_explain_prints_a_real_heads_six_beats(capsys) -> None:
    code, out, _ = run("explain", "--model", "minilm", "by the river bank", "--layer", "0",
                       "--head", "0", "--focus", "bank", capsys=capsys)  # fmt: skip
    assert code == 0
    assert out.startswith("minilm, layer 0, head 0\n")
    assert "d_k = 32, divisor 5.66" in out and "√dₖ = √32 = 5.66" in out
    for title in ("1. Tokens", "2. Project", "3. Score", "4. Softmax", "5. Blend", "6. Parallel"):
        assert title in out
    assert "[CLS], by, the, river, bank, [SEP]" in out


def test_explain_json_has_the_toys_schema_plus_the_model(capsys) -> None:
    code, out, _ = run("explain", "--model", "minilm", "at the savings bank", "--layer", "2",
                       "--head", "3", "--json", capsys=capsys)  # fmt: skip
    d = json.loads(out)
    keys = "tokens mode d_k embeddings queries keys values raw_scores scores weights outputs"
    keys += " focus focus_token pair narration"
    for key in keys.split():
        assert key in d, key
    assert code == 0 and d["d_k"] == 32 and d["divisor"] == pytest.approx(32**0.5)
    assert d["focus_token"] == "bank" and len(d["embeddings"][0]) == 384
    assert d["model"] == {"name": "minilm", "layer": 2, "head": 3, "n_layers": 6, "n_heads": 12,
                          "n_kv_heads": 12, "kv_head": 3, "group": [3], "group_identical": True,
                          "causal": False, "window": None, "window_note": None,
                          "masked_legend": None}  # fmt: skip
    assert sum(d["weights"][d["focus"]]) == pytest.approx(1, abs=1e-5)


def test_a_long_text_is_summarised_not_printed_whole(capsys) -> None:
    text = " ".join(["the river bank"] * 40)  # 122 tokens
    code, out, _ = run("explain", "--model", "minilm", text, "--focus", "5", capsys=capsys)
    assert code == 0
    assert "… 110 more" in out  # 12 shown of 122
    assert max(len(line) for line in out.splitlines()) < 110


def test_explain_model_accepts_another_mode(capsys) -> None:
    code, out, _ = run("explain", "--model", "minilm", "by the river bank", "--mode", "uniform",
                       "--json", capsys=capsys)  # fmt: skip
    d = json.loads(out)
    assert code == 0 and d["mode"] == "uniform"
    assert all(w == pytest.approx(1 / 6) for w in d["weights"][0])


def test_heads_prints_a_line_per_layer_and_head(capsys) -> None:
    code, out, _ = run("heads", "--model", "minilm", "by the river bank", capsys=capsys)
    lines = out.splitlines()
    assert code == 0 and "Where bank (token 4) looks" in lines[0]
    assert len(lines) == 3 + 2 + 6 * 12
    assert lines[5].split()[:2] == ["0", "0"] and lines[-1].split()[:2] == ["5", "11"]


def test_heads_json(capsys) -> None:
    code, out, _ = run("heads", "by the river bank", "--focus", "river", "--json", capsys=capsys)
    d = json.loads(out)
    assert code == 0 and d["focus"] == 3 and len(d["heads"]) == 72
    row = d["heads"][0]
    assert set(row) == {"layer", "head", "top", "top_token", "top_weight", "entropy_bits"}
    assert 0 <= row["entropy_bits"] <= 2.585


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["explain", "--model", "gpt5", "hi"], "unknown model 'gpt5'"),
        (["explain", "--model", "/nowhere/at/all", "hi"], "no weights folder"),
        (["explain", "--model", "minilm", ""], "the text is empty"),
        (["explain", "--model", "minilm", "bank " * 511], "513 tokens long"),
        (["explain", "--model", "minilm", "a b", "--layer", "6"], "layer 6 is outside 0..5"),
        (["explain", "--model", "minilm", "a b", "--head", "12"], "head 12 is outside 0..11"),
        (["heads", "a b", "--focus", "zebra"], "focus 'zebra' is not a token"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, args: list[str], message: str) -> None:
    code, out, err = run(*args, capsys=capsys)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1


def test_layer_without_model_is_refused(capsys) -> None:
    code, _, err = run("explain", "--layer", "2", capsys=capsys)
    assert code == 2 and "add --model minilm" in err


@pytest.mark.parametrize(
    "extra",
    [["--temperature", "0.5"], ["--causal"], ["--positions", "rope"], ["--set", "bank=1,0,0,0"]],
)
def test_toy_only_options_are_refused_with_model(extra: list[str], capsys) -> None:
    code = main(["explain", "--model", "minilm", "by the river bank", *extra])
    err = capsys.readouterr().err
    assert code == 2 and extra[0] in err and "does not apply to --model" in err
    assert f"{extra[0]} changes the toy lesson" in err  # one flag: the verb agrees
