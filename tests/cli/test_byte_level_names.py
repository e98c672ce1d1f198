"""Issue 27: the terminal's sentences name a decoder's byte-level tokens as the page does,
quoted with their space (“ bank”, “.”): no " bank token's", no "rain, .. Each", no double
spaces, and the header spells the text as it was typed."""

from __future__ import annotations

import re

import pytest

from attnlab.cli.main import main

TEXT = "The river bank was muddy after the rain. Each day"


@pytest.fixture(scope="module")
def told(smollm2) -> str:  # type: ignore[no-untyped-def]
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["explain", "--model", "smollm2", TEXT, "--focus", "bank", "--color", "never"])
    assert code == 0
    return out.getvalue()


def _sentences(text: str) -> str:
    """The narration's lines (the beats' wrapped text), not the tables."""
    lines = text.splitlines()
    keep, inside = [], False
    for line in lines:
        if re.match(r"\d\. ", line):
            inside = True
            continue
        if not line.strip() or line.startswith("  "):
            inside = False
        if inside:
            keep.append(line)
    return " ".join(keep)


def test_the_header_spells_the_text(told: str) -> None:
    assert told.splitlines()[1] == f"Attention for “ bank” in: {TEXT}"


def test_the_sentences_quote_byte_level_tokens(told: str) -> None:
    said = _sentences(told)
    assert "token's" not in said  # " bank token's query"
    assert "  " not in said  # the double spaces of ",  river"
    assert ".." not in said and ", .," not in said  # "rain, .. Each"
    assert "“ bank”'s query" in said
    assert "“ rain”, “.”, “ Each”" in said
    assert "We follow “ bank”." in said


def test_a_plain_word_is_not_quoted() -> None:
    from attnlab.words.grammar import possessive, spoken

    assert [spoken(t) for t in ("bank", "[CLS]", "##s", "bank₂")] == ["bank", "[CLS]", "##s",
                                                                      "bank₂"]  # fmt: skip
    assert [spoken(t) for t in (" bank", ".", " ")] == ["“ bank”", "“.”", "“ ”"]
    assert possessive(spoken(" bank")) == "“ bank”'s"


def test_mask_names_byte_level_tokens_the_same_way(smollm2, capsys) -> None:  # type: ignore[no-untyped-def]
    argv = ["mask", "--model", "smollm2", "The river bank was muddy", "--focus", "bank",
            "--mask", "river", "--how", "drop"]  # fmt: skip
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "smollm2: follow “ bank”, drop river"
    assert lines[1] == "plain:  The “ river” “ bank” “ was” “ muddy”"
    assert "“ bank”'s row" in lines[-1] and "  " not in lines[-1]
