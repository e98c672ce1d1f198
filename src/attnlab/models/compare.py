"""The seed's claim measured on a real model: the same word in two contexts becomes two vectors.

For a word present in two texts (default: bank in "by the river bank" and "at the savings bank"),
`compare_word` keeps each text's attention row for that word in every layer and head, and the
cosine similarity of the word's hidden vectors layer by layer: cos(a, b) = a·b / (|a| |b|).
Entering the model the two vectors differ only by position; each layer mixes in the neighbours.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from attnlab.errors import FocusError
from attnlab.models.bert import BertEncoder
from attnlab.models.trace import ModelTrace
from attnlab.numfmt import num
from attnlab.types import FloatArray

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
        return self.a.attentions[:, :, self.index_a, :]

    @property
    def rows_b(self) -> FloatArray:
        return self.b.attentions[:, :, self.index_b, :]

    def note(self) -> str:
        """One sentence for the learner, with the measured numbers."""
        first, last = float(self.cosine[0]), float(self.cosine[-1])
        w = self.word
        return (
            f"{w} enters both texts as nearly the same vector (cosine {num(first)}); after "
            f"{len(self.cosine) - 1} layers of attention the two {w}s have cosine {num(last)}: "
            "the same word, a different mixture of its neighbours."
        )

    def to_dict(self, *, places: int = 4) -> dict[str, Any]:
        """JSON-ready; attention rows rounded to `places` decimals to keep the answer small."""

        def side(t: ModelTrace, i: int, rows: FloatArray) -> dict[str, Any]:
            return {"tokens": list(t.tokens), "index": i, "rows": np.round(rows, places).tolist()}

        return {
            "word": self.word,
            "a": side(self.a, self.index_a, self.rows_a),
            "b": side(self.b, self.index_b, self.rows_b),
            "cosine": [round(float(c), places) for c in self.cosine],
            "cosine_labels": ["embeddings"] + [f"layer {i}" for i in range(len(self.cosine) - 1)],
            "note": self.note(),
        }


def compare_word(
    model: BertEncoder, word: str = DEFAULT_WORD, a: str = DEFAULT_A, b: str = DEFAULT_B
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
