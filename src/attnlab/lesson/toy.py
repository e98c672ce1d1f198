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

A second head (`HEADS[1]`, "structure") attends by grammar instead of meaning: content words
ask for function words and function words ask for content, whatever the sense. Its value is the
word as it is (W_V = I). Running both and concatenating their outputs (8 numbers per token) is
multi-head attention without the output projection.

compute.py runs these heads with the lab's options (word order, a causal mask, edited vectors,
a temperature in place of √dₖ). The positional signal is scaled down for
this toy (`SINUSOIDAL_SCALE`, `ROPE_SPEED`): at full size, sin/cos of amplitude 1 would outweigh
the hand-set meanings (a word's content is 1 on its dimension) and rotations of 1 radian per
position would turn bank's query away from river. At a quarter, bank still attends most to
river, and order still moves every output measurably.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from attnlab.core.checks import as_index
from attnlab.errors import (
    ArgumentTypeError,
    EmptySequenceError,
    FocusError,
    TooLongError,
    UnknownWordError,
)
from attnlab.types import FloatArray

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

# The structure head: its query and key dimensions are (content, grammar, -, -).
W_Q2: FloatArray = np.array(
    [  # to: cont gram  -    -       from:
        [0.0, 2.0, 0.0, 0.0],  # geographic: a content word asks for grammar
        [0.0, 2.0, 0.0, 0.0],  # financial
        [2.0, 0.0, 0.0, 0.0],  # function: a function word asks for content
        [0.0, 2.0, 0.0, 0.0],  # ambiguity: an ambiguous word is content too
    ]
)
W_K2: FloatArray = np.array(
    [  # to: cont gram  -    -       from:
        [2.0, 0.0, 0.0, 0.0],  # geographic: shows "I am content"
        [2.0, 0.0, 0.0, 0.0],  # financial
        [0.0, 2.0, 0.0, 0.0],  # function: shows "I am grammar"
        [2.0, 0.0, 0.0, 0.0],  # ambiguity
    ]
)
W_V2: FloatArray = np.eye(4)
SINUSOIDAL_SCALE = 0.25
"""The amplitude of the sinusoidal encodings added to the toy's embeddings (1 in the paper)."""
ROPE_SPEED = 0.25
"""RoPE's positions are multiplied by this (1 in the paper): a quarter radian per step on pair 0."""


@dataclass(frozen=True)
class Head:
    """One hand-set attention head: its projections and what it attends by."""

    name: str
    w_q: FloatArray  # (4, 4)
    w_k: FloatArray  # (4, 4)
    w_v: FloatArray  # (4, 4)


HEADS: tuple[Head, ...] = (Head("meaning", W_Q, W_K, W_V), Head("structure", W_Q2, W_K2, W_V2))


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
    if not isinstance(sentence, str):
        raise ArgumentTypeError(f"a sentence is a text, got {sentence!r}"[:120], field="sentence")
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


def focus_index(tokens: tuple[str, ...], focus: str | int | None) -> int:
    """The row of `focus`: a word (its first occurrence), an index, or None for the default.

    The default is the first word of two senses in the sentence, else the last token.
    """
    if isinstance(tokens, str) or not isinstance(tokens, tuple | list):
        raise ArgumentTypeError(f"tokens must be a tuple of words, got {tokens!r}"[:120])
    if focus is None:
        for i, t in enumerate(tokens):
            if t in VOCABULARY and VOCABULARY[t][3] > 0:
                return i
        return len(tokens) - 1
    if isinstance(focus, bool) or not isinstance(focus, int | str):
        raise FocusError(f"a focus is a word or an index, got {focus!r}")
    index = as_index(focus)
    if index is not None:
        if not 0 <= index < len(tokens):
            raise FocusError(f"focus index {index} is outside 0..{len(tokens) - 1} for {tokens}")
        return index
    word = str(focus).lower()
    if word not in tokens:
        raise FocusError(f"focus {focus!r} is not in the sentence: choose one of {list(tokens)}")
    return tokens.index(word)
