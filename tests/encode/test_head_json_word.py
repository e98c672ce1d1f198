"""encode/head_json.py: the focus's word, when it has several pieces, and its note, as the head
view's one encoder writes them for the page, the widget and the file."""

from __future__ import annotations

from typing import Any

from attnlab.encode.answers_model_views import WordPieces
from attnlab.encode.head_json import encode_head_view
from attnlab.models.head_view import head_view


def _word(mt: Any, focus: int | None) -> WordPieces | None:
    return encode_head_view(head_view(mt, layer=0, head=0, focus=focus)).word


def test_the_pieces_note_names_the_piece_the_steps_follow(smollm2: Any) -> None:
    """SmolLM2 reads "door." as " door" + ".": the steps follow " door" (the last piece that
    is a word), and the note said "the page follows its last piece, ."."""
    mt = smollm2.trace("He shut the door.")
    focus = mt.focus_index(None)  # the default focus, as the page's steps
    word = _word(mt, None)
    assert word is not None and word.text == "door." and word.pieces == [3, 4]
    assert mt.tokens[focus] == " door" and word.token == focus
    assert "its last piece, “.”" not in word.note
    assert "the page follows its piece “ door”" in word.note, word.note


def test_a_word_followed_by_its_last_piece_says_so(minilm: Any) -> None:
    mt = minilm.trace("by the riverbank")
    word = _word(mt, None)
    assert word is not None and word.token == 4 == mt.focus_index()
    assert "the page follows its last piece, “##bank”." in word.note
    assert _word(mt, 2) is None  # "the" is one piece
    river = _word(mt, 3)  # a piece the learner picked
    assert river is not None and river.token == 3
    assert "the page follows the piece chosen, “river”." in river.note, river.note


def test_the_pieces_are_quoted_so_a_space_or_a_full_stop_reads_as_a_piece() -> None:
    """A newcomer read "“ You” is 2 pieces ( You)" (one piece a bare space) and "the page
    follows its last piece, .." (the piece a full stop): each piece is quoted, the word is not
    padded with its leading space."""
    from attnlab.words.model_views import pieces_note

    note = pieces_note(" You", [" ", "You"], "You")
    assert note.startswith(
        "“You” is 2 pieces (“ ”, “You”): the page follows its last piece, “You”."
    )
    dot = pieces_note("door.", [" door", "."], ".")
    assert "its last piece, “.”." in dot and ".." not in dot.replace("“.”.", "")
