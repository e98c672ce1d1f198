"""Issue 27: `attnlab next --model smollm2` names byte-level tokens as the page does in its
table: a newline token as “\\n” (not a real line break splitting its row), and a piece such as
's quoted like every other token, in the rows and in the header. SmolLM2's real tokenizer."""

from __future__ import annotations

import re

import pytest

from attnlab.cli.main import main

pytestmark = pytest.mark.usefixtures("smollm2")


def _next(capsys, text: str, top: int = 10) -> list[str]:  # type: ignore[no-untyped-def]
    assert main(["next", "--model", "smollm2", text, "--top", str(top)]) == 0
    return capsys.readouterr().out.splitlines()


def test_a_newline_token_keeps_its_row(smollm2, capsys) -> None:  # type: ignore[no-untyped-def]
    mt = smollm2.trace("Hello")
    top = [t for t, _ in mt.next_tokens(len(mt.tokens) - 1, 10)]
    assert "\n" in top  # what the bug needs: the model's own top ten after "Hello"
    lines = _next(capsys, "Hello")
    rows = lines[4:]  # header, blank, column names, rule
    assert len(rows) == 10, lines  # one line per token: a newline split its row in two
    assert rows[top.index("\n")].startswith("“\\n”")
    assert all(re.match(r"\S", r) and re.search(r"\d%", r) for r in rows), rows


def test_a_piece_like_s_is_quoted_as_the_others(capsys) -> None:  # type: ignore[no-untyped-def]
    lines = _next(capsys, "He said it's")
    assert lines[0].endswith("(token 3, “'s”):"), lines[0]
    rows = lines[4:]
    assert all(r.startswith("“") for r in rows), rows  # every next token here is a piece


def test_spoken_quotes_what_is_no_plain_word() -> None:
    from attnlab.words.grammar import spoken

    assert [spoken(t) for t in ("\n", "'s", "_", "\t ")] == ["“\\n”", "“'s”", "“_”", "“\\t ”"]
    assert [spoken(t) for t in ("bank", "[CLS]", "##s", "bank₂", "é")] == [
        "bank", "[CLS]", "##s", "bank₂", "é"
    ]  # fmt: skip
