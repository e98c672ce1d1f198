"""The seed's claim measured on a real model: the same word in two contexts becomes two vectors.

For a word present in two texts (default: bank in "by the river bank" and "at the savings bank"),
`compare_word` keeps each text's attention row for that word in every layer and head, and the
cosine similarity of the word's hidden vectors layer by layer: cos(a, b) = a·b / (|a| |b|).
Entering the model the two vectors differ only by position; each layer mixes in the neighbours.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attnlab.errors import FocusError
from attnlab.models.model_trace import ModelTrace
from attnlab.models.protocol import Model
from attnlab.types import FloatArray
from attnlab.words.notes import compare_note

DEFAULT_WORD = "bank"
DEFAULT_A = "by the river bank"
DEFAULT_B = "at the savings bank"


@dataclass(frozen=True)
class Comparison:
    """One word followed through two texts."""

    word: str
    a: ModelTrace
    b: ModelTrace
    index_a: int  # the word's token in a
    index_b: int
    cosine: FloatArray  # (layers + 1,) [0] entering the first layer, [l + 1] leaving layer l

    @property
    def rows_a(self) -> FloatArray:
        """The word's attention row in every head of text a: (layers, heads, n_a)."""
        return self.a.rows(self.index_a)

    @property
    def rows_b(self) -> FloatArray:
        return self.b.rows(self.index_b)

    @property
    def note(self) -> str:
        """One sentence for the learner, with the measured numbers (words/notes.py)."""
        return compare_note(self.word, float(self.cosine[0]), float(self.cosine[-1]), self.layers)

    @property
    def layers(self) -> int:
        return len(self.cosine) - 1


def compare_word(
    model: Model, word: str = DEFAULT_WORD, a: str = DEFAULT_A, b: str = DEFAULT_B
) -> Comparison:
    """Trace both texts and follow `word` (its first token match) through each."""
    return compare(model.trace(a), model.trace(b), word)


def compare(ta: ModelTrace, tb: ModelTrace, word: str = DEFAULT_WORD) -> Comparison:
    """Follow `word` (its first token match) through two traces of the same model."""
    ia, ib = _find(ta, word, "a"), _find(tb, word, "b")
    va = ta.hidden_states[:, ia, :].astype(np.float64)  # (L + 1, d)
    vb = tb.hidden_states[:, ib, :].astype(np.float64)  # (L + 1, d)
    cosine = (va * vb).sum(-1) / (np.linalg.norm(va, axis=-1) * np.linalg.norm(vb, axis=-1))
    return Comparison(word=word, a=ta, b=tb, index_a=ia, index_b=ib, cosine=cosine)


def _find(t: ModelTrace, word: str, which: str) -> int:
    if not word.strip() or word.strip().isdigit():
        raise FocusError(f"choose a word to compare, got {word!r}")
    try:
        return t.focus_index(word)
    except FocusError:
        raise FocusError(
            f"{word!r} is not a token of text {which} ({' '.join(t.tokens)}): "
            "choose a word both texts contain"
        ) from None
