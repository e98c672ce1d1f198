"""`attnlab next --model M` says which next tokens are the tokenizer's special tokens, as the
page's table does (issue 23's leftover): SmolLM2's real tokenizer predicts <|im_end|> after
"The end."; the row is marked with the page's own word, the others are not, and --json carries
the mark. The independent listing is the model's control tokens (its GGUF's token types)."""

from __future__ import annotations

import json

import pytest

from attnlab.cli.main import main
from attnlab.words.page import PAGE_WORDS

pytestmark = pytest.mark.usefixtures("smollm2")
TEXT = "The end."
MARK = f"({PAGE_WORDS['model.next.special']})"


def test_the_special_rows_say_so_and_only_they(smollm2, capsys) -> None:  # type: ignore[no-untyped-def]
    top = smollm2.trace(TEXT).next_tokens(None, 10)
    assert "<|im_end|>" in [t for t, _ in top]  # what the bug needs: the model's own top ten
    assert main(["next", "--model", "smollm2", TEXT, "--top", "10"]) == 0
    rows = capsys.readouterr().out.splitlines()[4:]  # header, blank, column names, rule
    assert len(rows) == 10, rows
    for (token, _), row in zip(top, rows, strict=True):
        assert (MARK in row) == (token in smollm2.special), (token, row)
    assert any(MARK in r for r in rows)


def test_the_json_rows_carry_the_mark(smollm2, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["next", "--model", "smollm2", TEXT, "--top", "10", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["next"]
    assert (
        {r["token"] for r in rows if r["special"]}
        == {r["token"] for r in rows if r["token"] in smollm2.special}
        != set()
    )
