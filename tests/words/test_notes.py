"""The lab's words: reading a cell, the transposed mistake, and the notes beside the controls."""

import numpy as np

from attnlab import lesson
from attnlab.lesson.options import LessonOptions
from attnlab.words.notes import (
    HEAD_BLURBS,
    POSITION_NOTES,
    beat_extras,
    causal_note,
    heads_note,
    prediction_note,
    read_cell,
    saturation_note,
    shuffle_note,
    wrong_axis_note,
)

RIVER = "by the river bank"


def test_cell_reads_row_as_query_and_column_as_key() -> None:
    r = read_cell(lesson.run(RIVER), 0, 2)
    assert r.text.startswith("by → river: “by”'s query attends to river's key")
    assert "river's query attends to “by”'s key" in r.mistaken
    w = lesson.run(RIVER).weights
    assert f"{round(float(w[0, 2]), 2)}" in r.text and f"{round(float(w[2, 0]), 2)}" in r.why
    assert "rows are queries and columns are keys" in r.why


def test_diagonal_and_masked_cells() -> None:
    assert "itself" in read_cell(lesson.run(RIVER), 3, 3).why
    masked = read_cell(lesson.run(RIVER, LessonOptions(causal=True)), 0, 2)
    assert "masked" in masked.text and "weight is 0" in masked.text


def test_notes_carry_their_numbers() -> None:
    assert "river, bank" in causal_note("the", ["river", "bank"])
    assert "hides nothing" in causal_note("bank", [])
    s = saturation_note("bank", 1.38, 2.0, 0.69, 0.3285)
    assert "1.38 bits" in s and "0.69" in s and "0.329" in s
    assert "Jacobian" not in saturation_note("bank", 1.0, 2.0, 0.5, None)
    assert "blind to order" in shuffle_note("none", ["a", "b"], ["b", "a"], [0.0, 0.0])
    moved = shuffle_note("rope", ["a", "b"], ["b", "a"], [0.5, 0.0])
    assert "rotary positions" in moved and "a: 0.5" in moved and "b: unchanged" in moved
    # a move too small for two decimals is never written as a bare 0 (the page's list agrees)
    tiny = shuffle_note("rope", ["by", "the"], ["the", "by"], [0.004, 0.2])
    assert "by: less than 0.01" in tiny and "by by" not in tiny
    h = heads_note("bank", ["meaning", "structure"], ["river", "the"], list(np.arange(8.0)))
    assert "head 2 (structure) looks most at the" in h and "bank's 8" in h


def test_every_head_and_position_kind_has_words() -> None:
    assert set(HEAD_BLURBS) == {h.name for h in lesson.HEADS}
    assert set(POSITION_NOTES) == {"none", "sinusoidal", "rope"}
    assert beat_extras(positions="none", scale=0.25, speed=0.25) == {}
    assert "0.25" in beat_extras(positions="rope", scale=0.25, speed=0.25)["project"]
    assert "tokens" in beat_extras(positions="sinusoidal", scale=0.25, speed=0.25)


def test_prediction_and_wrong_axis_notes() -> None:
    assert prediction_note("bank", "river", "river", 0.69, 0.69).startswith("Right")
    miss = prediction_note("bank", "by", "river", 0.11, 0.69)
    assert "you picked by, which gets 11%" in miss and "69%, on river" in miss
    note = wrong_axis_note("bank", [1.19, 0.18, 0.46, 0], [1.43, 0.06, 0.14, 0], 1.45, 0.41)
    assert "[1.19, 0.18, 0.46, 0] instead of [1.43, 0.06, 0.14, 0]" in note and "1.45" in note


def test_possessive_quotes_grammar_words_and_subword_tokens() -> None:
    from attnlab.words.grammar import possessive

    assert possessive("bank") == "bank's"
    assert possessive("the") == "“the”'s"
    assert possessive("##s") == "##s token's" and possessive("[CLS]") == "[CLS] token's"


def test_the_toy_only_refusal_agrees_with_its_flags() -> None:
    from attnlab.words.notes import toy_only_message

    one = toy_only_message(["--temperature"])
    assert one.startswith("--temperature changes the toy lesson and does not apply")
    assert "leave it out" in one
    two = toy_only_message(["--temperature", "--sweep"])
    assert two.startswith("--temperature and --sweep change the toy lesson and do not apply")
