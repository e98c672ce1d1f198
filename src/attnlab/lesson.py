"""The toy lesson: a hand-set 4-dimensional attention head over a small vocabulary.

Everything here is chosen by hand so that the seed lesson's numbers come out exactly:
bank's query [2.3, 2.3, 0, 0], its raw scores 0.92, 0, 4.6, 1.38 against by, the, river, bank,
weights 0.11, 0.07, 0.69, 0.14 and an output of about [1.43, 0.06, 0.14, 0].

Each of the four dimensions has a name a learner can say out loud:

    geographic  land, water, rivers       financial  money, accounts
    function    grammar words             ambiguity  "my meaning depends on my neighbours"

The projections (row-vector convention, q = x W_Q) read as plain rules:
    W_Q: content words look for more of their own kind (×2); an ambiguous word asks loudly for
         content of either sense (ambiguity → geographic and financial, ×2 each).
    W_K: a word advertises its content (×2) and its grammar role (×1); ambiguity is not shown.
    W_V: a word hands over its content (×2) and a little grammar (×0.8); ambiguity carries nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from attnlab.attention import self_attend
from attnlab.errors import EmptySequenceError, FocusError, TooLongError, UnknownWordError
from attnlab.trace import Trace
from attnlab.types import Axis, FloatArray, Mode

DIM_NAMES: tuple[str, ...] = ("geographic", "financial", "function", "ambiguity")
D_MODEL = 4
MAX_TOKENS = 12
"""The longest lesson sentence: beyond this the canvas and the tables stop being readable."""

_GEO, _FIN, _PREP, _ART = (1.0, 0, 0, 0), (0, 1.0, 0, 0), (0.1, 0.1, 1.0, 0), (0, 0, 1.0, 0)

VOCABULARY: Mapping[str, tuple[float, float, float, float]] = {
    # function words: prepositions carry a trace of content, articles none
    "by": _PREP, "at": _PREP, "near": _PREP, "on": _PREP, "in": _PREP, "of": _PREP,
    "the": _ART, "a": _ART, "my": _ART,
    # geographic content
    "river": _GEO, "water": _GEO, "shore": _GEO, "mud": _GEO, "boat": _GEO, "fish": _GEO,
    "stream": _GEO,
    # financial content
    "savings": _FIN, "money": _FIN, "loan": _FIN, "cash": _FIN, "account": _FIN, "cheque": _FIN,
    # words of both senses: their meaning comes from the neighbours
    "bank": (0.15, 0.15, 0.0, 1.0),
    "current": (0.15, 0.15, 0.0, 1.0),
    "deposit": (0.15, 0.15, 0.0, 1.0),
}  # fmt: skip

W_Q: FloatArray = np.array(
    [  # to: geo  fin  func  amb     from:
        [2.0, 0.0, 0.0, 0.0],  # geographic
        [0.0, 2.0, 0.0, 0.0],  # financial
        [0.0, 0.0, 0.0, 0.0],  # function
        [2.0, 2.0, 0.0, 0.0],  # ambiguity
    ]
)
W_K: FloatArray = np.diag([2.0, 2.0, 1.0, 0.0])
W_V: FloatArray = np.diag([2.0, 2.0, 0.8, 0.0])


@dataclass(frozen=True)
class Preset:
    """A named sentence the lesson offers, with the token it focuses on first."""

    name: str
    sentence: str
    focus: str
    blurb: str


PRESETS: tuple[Preset, ...] = (
    Preset("river", "by the river bank", "bank", "bank beside water"),
    Preset("savings", "at the savings bank", "bank", "bank that holds money"),
    Preset("current", "the river current", "current", "another word of two senses"),
    Preset("deposit", "a cash deposit at the bank", "deposit", "two ambiguous words at once"),
    Preset("function", "by the river", "the", "a word that asks for nothing"),
)
DEFAULT_SENTENCE = PRESETS[0].sentence


def tokenize(sentence: str) -> tuple[str, ...]:
    """Lower-case words of `sentence`; every word must be in the vocabulary."""
    words = tuple(re.findall(r"[^\s.,;:!?\"]+", sentence.lower()))
    if not words:
        raise EmptySequenceError(
            "the sentence is empty: type a few words, e.g. 'by the river bank'"
        )
    if len(words) > MAX_TOKENS:
        raise TooLongError(
            f"the sentence has {len(words)} words; the lesson shows at most {MAX_TOKENS}"
        )
    unknown = [w for w in words if w not in VOCABULARY]
    if unknown:
        listed = ", ".join(sorted(VOCABULARY))
        raise UnknownWordError(
            f"unknown word {unknown[0]!r}: the toy head knows only these words: {listed}"
        )
    return words


def embed(tokens: tuple[str, ...]) -> FloatArray:
    """The hand-set embeddings of `tokens`, one row each: (n, 4)."""
    return np.array([VOCABULARY[t] for t in tokens], dtype=np.float64)  # (n, d_model)


def run(
    sentence: str = DEFAULT_SENTENCE,
    *,
    mode: Mode = "scaled",
    axis: Axis = "keys",
    mask: npt.ArrayLike | None = None,
) -> Trace:
    """The toy head's full trace for `sentence`."""
    tokens = tokenize(sentence)
    return self_attend(
        embed(tokens), W_Q, W_K, W_V, tokens=tokens, mode=mode, axis=axis, mask=mask,
        dim_names=DIM_NAMES,
    )  # fmt: skip


def focus_index(tokens: tuple[str, ...], focus: str | int | None) -> int:
    """The row of `focus`: a word (its first occurrence), an index, or None for the default.

    The default is the first word of two senses in the sentence, else the last token.
    """
    if focus is None:
        for i, t in enumerate(tokens):
            if t in VOCABULARY and VOCABULARY[t][3] > 0:
                return i
        return len(tokens) - 1
    if isinstance(focus, int) or (isinstance(focus, str) and focus.isdigit()):
        i = int(focus)
        if not 0 <= i < len(tokens):
            raise FocusError(f"focus index {i} is outside 0..{len(tokens) - 1} for {tokens}")
        return i
    if focus.lower() not in tokens:
        raise FocusError(f"focus {focus!r} is not in the sentence: choose one of {list(tokens)}")
    return tokens.index(focus.lower())
