"""Words made of pieces: which tokens form one word, and which token stands for it.

A subword tokenizer cuts a rare word into pieces. WordPiece (BERT, MiniLM) marks a piece that
continues a word with "##" ("riverbank" → river ##bank); byte-level BPE (the Llama family)
marks a piece that starts a word with "Ġ", "▁" or (as llama.py writes them) a space instead.
`split_words` groups a text's tokens into words; `occurrences` finds every place a word (or,
failing that, a piece) sits; `find_word` picks one of them, the first by default.

PIECE_RULE: a word of several pieces is followed by its LAST piece. In one head the followed
row must be one query's own scores and softmax (an average of several pieces' rows is a row no
head computed); the last piece is the one a decoder has read the whole word by, and an encoder's
pieces all see each other anyway. words/page_model_views.py says so on screen.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from attnlab.errors import FocusError

__all__ = ["PIECE_RULE", "Word", "find_word", "occurrences", "split_words"]

PIECE_RULE = "last"
"""Which piece stands for a word of several pieces (see the module docstring)."""

_CONTINUES = "##"  # WordPiece: this piece continues the word before it
_STARTS = ("Ġ", "▁", " ")  # byte-level BPE / SentencePiece: this piece starts a new word
# (llama.py writes its tokens as readable text, so a word start there is a plain space)


@dataclass(frozen=True)
class Word:
    """Tokens start..stop-1 of a text, read as one word."""

    text: str  # the pieces joined, their markers removed: "riverbank"
    start: int
    stop: int  # one past the last piece

    @property
    def pieces(self) -> range:
        return range(self.start, self.stop)

    @property
    def token(self) -> int:
        """The token that stands for the word: its last piece (PIECE_RULE)."""
        return self.stop - 1


def _bare(token: str) -> str:
    for mark in (_CONTINUES, *_STARTS):
        if token.startswith(mark):
            return token[len(mark) :]
    return token


def split_words(tokens: tuple[str, ...], special: tuple[str, ...] = ()) -> tuple[Word, ...]:
    """The tokens grouped into words, in order; a special token is a word of its own. The last
    few answers are kept (the words are immutable): every head switch of a 2,048-token text
    asks again for the focus's word, a walk of ~10-25 ms."""
    return _split_words(tuple(tokens), tuple(special))


@lru_cache(maxsize=8)
def _split_words(tokens: tuple[str, ...], special: tuple[str, ...]) -> tuple[Word, ...]:
    bpe = any(t.startswith(_STARTS) for t in tokens)
    out: list[Word] = []
    for i, t in enumerate(tokens):
        joins = (not t.startswith(_STARTS)) if bpe else t.startswith(_CONTINUES)
        previous_special = bool(out) and tokens[out[-1].start] in special
        previous_blank = bool(out) and not out[-1].text.strip()  # spaces alone: no word's start
        if out and joins and t not in special and not previous_special and not previous_blank:
            last = out[-1]
            out[-1] = Word(last.text + _bare(t), last.start, i + 1)
        else:
            out.append(Word(_bare(t), i, i + 1))
    return tuple(out)


def occurrences(
    tokens: tuple[str, ...], word: str, special: tuple[str, ...] = ()
) -> tuple[Word, ...]:
    """Every place `word` sits (case-insensitive): as a whole word, or else as a piece."""
    wanted = word.strip().lower()
    whole = tuple(w for w in split_words(tokens, special) if w.text.lower() == wanted)
    if whole:
        return whole
    return tuple(
        Word(_bare(t), i, i + 1) for i, t in enumerate(tokens) if _bare(t).lower() == wanted
    )


def find_word(
    tokens: tuple[str, ...], word: str, *, occurrence: int = 1, special: tuple[str, ...] = ()
) -> Word:
    """The `occurrence`-th place (from 1) `word` sits; a FocusError names the choices."""
    found = occurrences(tokens, word, special)
    if not found:
        raise FocusError(
            f"{word!r} is not a word of the text: choose one of "
            f"{[w.text for w in split_words(tokens, special)]}"
        )
    if not 1 <= occurrence <= len(found):
        raise FocusError(
            f"{word!r} occurs {len(found)} time{'s' if len(found) > 1 else ''} in the text, "
            f"so occurrence must be between 1 and {len(found)}, got {occurrence}"
        )
    return found[occurrence - 1]
