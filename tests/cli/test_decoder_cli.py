"""`attnlab explain|next --model smollm2`: a decoder head's beats and its next-token guesses."""

import json

import pytest

from attnlab.cli.main import main

pytestmark = pytest.mark.usefixtures("smollm2")  # skip all where the weights are not installed


def run(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_explain_smollm2_follows_bank(capsys) -> None:
    code, out, err = run("explain", "--model", "smollm2", "The river bank was muddy after the "
                         "rain.", "--layer", "0", "--head", "0", "--focus", "bank",
                         capsys=capsys)  # fmt: skip
    assert code == 0, err
    assert out.startswith("smollm2, layer 0, head 0\n")
    assert "d_k = 64, divisor 8" in out
    for title in ("1. Tokens", "3. Score", "4. Softmax", "5. Blend"):
        assert title in out


def test_next_names_paris_first_with_its_probability(capsys) -> None:
    code, out, _ = run("next", "--model", "smollm2", "The capital of France is", capsys=capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "smollm2 predicts after “The capital of France is” (token 4, “ is”):"
    first = lines[4].split()  # a byte-level token quoted with its space, as the page writes it
    assert first[0] == "“" and first[1] == "Paris”" and first[2].endswith("%")
    assert 50 < float(first[2].rstrip("%")) < 100


def test_next_json_after_an_earlier_token(capsys) -> None:
    code, out, _ = run("next", "The capital of France is", "--after", "France", "--top", "3",
                       "--json", capsys=capsys)  # fmt: skip
    d = json.loads(out)
    assert code == 0 and d["after"] == 3 and d["token"] == " France" and len(d["next"]) == 3
    probs = [row["probability"] for row in d["next"]]
    assert probs == sorted(probs, reverse=True) and 0 < sum(probs) <= 1


@pytest.mark.usefixtures("minilm")
def test_next_on_an_encoder_says_why_not(capsys) -> None:
    code, _, err = run("next", "--model", "minilm", "by the river", capsys=capsys)
    assert code == 2 and "minilm is an encoder: it does not predict a next token" in err


def test_an_unknown_model_is_named(capsys) -> None:
    code, _, err = run("next", "--model", "gpt9", "hello", capsys=capsys)
    assert code == 2 and "unknown model 'gpt9': expected one of minilm, smollm2" in err
