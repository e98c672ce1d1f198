"""The seed's claim measured on a real model: the same word in two contexts becomes two vectors.

For a word present in two texts (default: bank in "by the river bank" and "at the savings bank"),
`compare_word` keeps each text's attention row for that word in every layer and head, and the
cosine similarity of the word's hidden vectors layer by layer: cos(a, b) = a·b / (|a| |b|).
Entering the model the two vectors differ only by position; each layer mixes in the neighbours.

Which token is the word: its `occurrence`-th place in each text (from 1; "the bank by the bank"
has two), and a word made of pieces ("riverbank" = river ##bank) by its last piece (pieces.py).

Cell by cell: the keys both texts share (the same token; a token repeated k times in both is
paired in order) and, per layer and head, the difference of the two rows on them,
    difference[l, h, s] = row_a[l, h, ja_s] − row_b[l, h, jb_s]
positive where the word in A gives that key more of its weight than the word in B does.
`difference_at(places)` is the same difference of the two rows each first rounded to `places`
decimals: the numbers a page prints side by side (A 0.0249, B 0.0151, A − B 0.0098), so the three
agree as shown; the exact difference can disagree by one in the last place.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attnlab.errors import FocusError
from attnlab.models.model_trace import ModelTrace
from attnlab.models.pieces import Word, find_word, occurrences
from attnlab.models.protocol import Model
from attnlab.types import FloatArray
from attnlab.words.notes import compare_note

DEFAULT_WORD = "bank"
DEFAULT_A = "by the river bank"
DEFAULT_B = "at the savings bank"


@dataclass(frozen=True, repr=False)
class Comparison:
    """One word followed through two texts."""

    word: str
    a: ModelTrace
    b: ModelTrace
    index_a: int  # the word's token in a (its last piece)
    index_b: int
    cosine: FloatArray  # (layers + 1,) [0] entering the first layer, [l + 1] leaving layer l
    word_a: Word | None = None  # where the word sits in a: its pieces
    word_b: Word | None = None
    occurrences_a: tuple[Word, ...] = ()  # every place the word sits in a, in order
    occurrences_b: tuple[Word, ...] = ()

    def __repr__(self) -> str:
        return (
            f"Comparison({self.word!r}: token {self.index_a} of a ({self.a.n} tokens), token "
            f"{self.index_b} of b ({self.b.n} tokens), {self.layers} layers; cosine "
            f"{self.cosine[0]:.3f} → {self.cosine[-1]:.3f})"
        )

    @property
    def rows_a(self) -> FloatArray:
        """The word's attention row in every head of text a: (layers, heads, n_a)."""
        return self.a.rows(self.index_a)

    @property
    def rows_b(self) -> FloatArray:
        return self.b.rows(self.index_b)

    @property
    def shared(self) -> tuple[tuple[int, int], ...]:
        """The keys both texts hold, as (column in a, column in b), in a's order."""
        return shared_keys(self.a.tokens, self.b.tokens)

    @property
    def difference(self) -> FloatArray:
        """row_a − row_b on the shared keys: (layers, heads, shared), each in −1..1."""
        ja = [p[0] for p in self.shared]
        jb = [p[1] for p in self.shared]
        d: FloatArray = self.rows_a[..., ja] - self.rows_b[..., jb]  # (L, H, S)
        return d

    def difference_at(self, places: int) -> FloatArray:
        """row_a − row_b on the shared keys, each row rounded to `places` decimals first (then
        the difference too, to drop float64's residue): (layers, heads, shared)."""
        ja = [p[0] for p in self.shared]
        jb = [p[1] for p in self.shared]
        a = np.round(self.rows_a.astype(np.float64), places)[..., ja]  # (L, H, S)
        b = np.round(self.rows_b.astype(np.float64), places)[..., jb]  # (L, H, S)
        d: FloatArray = np.round(a - b, places)
        return d

    @property
    def note(self) -> str:
        """One sentence for the learner, with the measured numbers (words/notes.py)."""
        return compare_note(self.word, float(self.cosine[0]), float(self.cosine[-1]), self.layers)

    @property
    def layers(self) -> int:
        return len(self.cosine) - 1


def shared_keys(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    """Pairs (i, j) with a[i] == b[j]: the k-th copy of a token in a meets its k-th copy in b."""
    seen: dict[str, int] = {}
    out = []
    for i, t in enumerate(a):
        k = seen.get(t, 0)
        seen[t] = k + 1
        copies = [j for j, u in enumerate(b) if u == t]
        if k < len(copies):
            out.append((i, copies[k]))
    return tuple(out)


def compare_word(
    model: Model, word: str = DEFAULT_WORD, a: str = DEFAULT_A, b: str = DEFAULT_B
) -> Comparison:
    """Trace both texts and follow `word` (its first place in each) through them."""
    return compare(model.trace(a), model.trace(b), word)


def compare(
    ta: ModelTrace,
    tb: ModelTrace,
    word: str = DEFAULT_WORD,
    *,
    occurrence_a: int = 1,
    occurrence_b: int = 1,
) -> Comparison:
    """Follow `word` through two traces of the same model: its `occurrence_a`-th place in a
    (from 1) and its `occurrence_b`-th in b; a word of pieces by its last piece."""
    wa, wb = _find(ta, word, "a", occurrence_a), _find(tb, word, "b", occurrence_b)
    ia, ib = wa.token, wb.token
    va = ta.hidden_states[:, ia, :].astype(np.float64)  # (L + 1, d)
    vb = tb.hidden_states[:, ib, :].astype(np.float64)  # (L + 1, d)
    cosine = (va * vb).sum(-1) / (np.linalg.norm(va, axis=-1) * np.linalg.norm(vb, axis=-1))
    return Comparison(
        word=word, a=ta, b=tb, index_a=ia, index_b=ib, cosine=cosine, word_a=wa, word_b=wb,
        occurrences_a=occurrences(ta.tokens, word, ta.special),
        occurrences_b=occurrences(tb.tokens, word, tb.special),
    )  # fmt: skip


def _find(t: ModelTrace, word: str, which: str, occurrence: int) -> Word:
    if not word.strip() or word.strip().isdigit():
        raise FocusError(f"choose a word to compare, got {word!r}")
    if not occurrences(t.tokens, word, t.special):
        raise FocusError(
            f"{word!r} is not a token of text {which} ({' '.join(t.tokens)}): "
            "choose a word both texts contain"
        )
    try:
        return find_word(t.tokens, word, occurrence=occurrence, special=t.special)
    except FocusError as exc:
        raise FocusError(f"in text {which}: {exc}") from None
