"""Words made of pieces: grouping WordPiece and BPE tokens, finding a word's places."""

import pytest

from attnlab.errors import FocusError
from attnlab.models.pieces import PIECE_RULE, Word, find_word, occurrences, split_words

SPECIAL = ("[CLS]", "[SEP]")


def test_wordpiece_continuations_join_the_word_before() -> None:
    tokens = ("[CLS]", "a", "river", "##bank", "##s", "[SEP]")
    assert split_words(tokens, SPECIAL) == (
        Word("[CLS]", 0, 1), Word("a", 1, 2), Word("riverbanks", 2, 5), Word("[SEP]", 5, 6),
    )  # fmt: skip


def test_bpe_word_starts_begin_a_new_word() -> None:
    tokens = ("<s>", "Ġthe", "Ġriver", "bank", "Ġflows")
    words = split_words(tokens, ("<s>",))
    assert [(w.text, w.start, w.stop) for w in words] == [
        ("<s>", 0, 1), ("the", 1, 2), ("riverbank", 2, 4), ("flows", 4, 5),
    ]  # fmt: skip


def test_a_word_of_pieces_is_followed_by_its_last_piece() -> None:
    assert PIECE_RULE == "last"
    w = find_word(("[CLS]", "river", "##bank", "[SEP]"), "RiverBank", special=SPECIAL)
    assert (w.start, w.stop, w.token, list(w.pieces)) == (1, 3, 2, [1, 2])


def test_occurrences_in_order_and_a_piece_when_no_whole_word() -> None:
    tokens = ("[CLS]", "the", "bank", "by", "the", "bank", "[SEP]")
    assert [w.token for w in occurrences(tokens, "bank", SPECIAL)] == [2, 5]
    assert find_word(tokens, "bank", occurrence=2, special=SPECIAL).token == 5
    piece = occurrences(("[CLS]", "river", "##bank", "[SEP]"), "bank", SPECIAL)
    assert [(w.start, w.stop) for w in piece] == [(2, 3)]


def test_a_missing_word_or_occurrence_is_named() -> None:
    tokens = ("[CLS]", "the", "bank", "[SEP]")
    with pytest.raises(FocusError, match=r"'river' is not a word of the text.*'the', 'bank'"):
        find_word(tokens, "river", special=SPECIAL)
    with pytest.raises(FocusError, match="occurs 1 time in the text, so occurrence must be"):
        find_word(tokens, "bank", occurrence=2, special=SPECIAL)


def test_the_words_of_a_text_are_kept_for_the_next_head() -> None:
    # every head switch of a 2,048-token text asked for the focus's word again: a walk of the
    # whole text each time
    tokens = tuple(["<s>"] + [" the", " river", "bank"] * 500)
    first = split_words(tokens, ("<s>",))
    assert split_words(list(tokens), ["<s>"]) is first  # type: ignore[arg-type]
    assert first[2] == Word("riverbank", 2, 4)


def test_a_token_of_spaces_alone_is_no_piece_of_the_word_after_it() -> None:
    """Gemma 3 writes two spaces before a word as a token of their own ("  ", "You"): the word
    was read as "  You" of 2 pieces, the note saying "“You” is 2 pieces (“ ”, “You”)"."""
    words = split_words(("<bos>", "  ", "You", " should", "n't"), special=("<bos>",))
    got = [(w.text, w.start, w.stop) for w in words]
    assert got == [("<bos>", 0, 1), (" ", 1, 2), ("You", 2, 3), ("shouldn't", 3, 5)]
