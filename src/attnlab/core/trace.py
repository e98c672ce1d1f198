"""The Trace: every intermediate of one attention computation, frozen.

A Trace is what `attend` returns. It holds the paper's quantities for one head (or a stack of
heads, as leading dimensions): Q, K, V, the raw scores QKᵀ, the scores that enter the softmax,
the weights W and the outputs Z = WV. Row i, column j of a score or weight matrix always means
query token i attends to key token j.

The Trace holds arrays, never JSON: the encoders in `attnlab.encode` turn it into the API's
declared contract at the edge.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

import numpy as np

from attnlab.types import Axis, BoolArray, FloatArray, Mode

__all__ = ["Trace", "frozen"]


def frozen(a: np.ndarray) -> np.ndarray:
    """`a` as a private read-only array: copied, unless it already owns read-only memory (as the
    arrays `attend` computes do), which no one can change without unlocking it on purpose."""
    if a.flags.owndata and not a.flags.writeable:
        return a
    a = np.array(a)  # a private copy, so the caller's array can change without touching ours
    a.flags.writeable = False
    return a


@dataclass(frozen=True)
class Trace:
    """One attention computation, every step kept. Shapes for one head:

    queries (n, d_k), keys (m, d_k), values (m, d_v), raw_scores/scores/weights (n, m),
    outputs (n, d_v), mask (n, m) or None, embeddings (n, d_model) or None. A stack of heads
    adds the same leading dimensions to every array but `embeddings`.
    """

    tokens: tuple[str, ...]
    queries: FloatArray
    keys: FloatArray
    values: FloatArray
    raw_scores: FloatArray  # QKᵀ, before any scaling
    scores: FloatArray  # what enters the softmax: QKᵀ/divisor, -inf where masked
    weights: FloatArray  # softmax(scores): rows sum to 1 when axis == "keys"
    outputs: FloatArray  # weights @ values
    mode: Mode
    d_k: int
    divisor: float  # √dₖ (scaled), 1 (unscaled) or inf (uniform: the scores are ignored)
    axis: Axis = "keys"
    mask: BoolArray | None = None
    embeddings: FloatArray | None = None
    dim_names: tuple[str, ...] | None = None  # names of the embedding/value dimensions, if known
    key_tokens: tuple[str, ...] | None = field(default=None)  # when keys differ from queries
    temperature: float | None = None  # when set, the divisor is this T instead of √dₖ
    cap: float | None = None  # when set, scores soft-capped to c · tanh(s / c) (Gemma 2)

    def __post_init__(self) -> None:
        for name in _FIELDS:
            value = getattr(self, name)
            if isinstance(value, np.ndarray):
                object.__setattr__(self, name, frozen(value))

    def __repr__(self) -> str:
        """A short summary: printing a trace must not print its arrays (a real head's are large)."""
        heads = self.weights.shape[:-2]
        stack = f"{' × '.join(map(str, heads))} heads, " if heads else ""
        n, m = self.weights.shape[-2:]
        return (
            f"Trace({stack}{n} queries × {m} keys, d_k {self.d_k}, mode {self.mode!r}, "
            f"axis {self.axis!r}, tokens {_short(self.tokens)}; keeps queries, keys, values, "
            "raw_scores, scores, weights, outputs)"
        )

    @property
    def n(self) -> int:
        """The number of query tokens."""
        return int(self.queries.shape[-2])

    @property
    def columns(self) -> tuple[str, ...]:
        """The key tokens, i.e. the column labels of the score and weight matrices."""
        return self.key_tokens if self.key_tokens is not None else self.tokens


def _short(tokens: tuple[str, ...], most: int = 6) -> str:
    """The first few tokens, then how many more: a repr stays one line for any text."""
    shown = " ".join(tokens[:most])
    return f"'{shown} … (+{len(tokens) - most})'" if len(tokens) > most else f"'{shown}'"


_FIELDS = tuple(f.name for f in fields(Trace))
"""Trace's field names, read once: __post_init__ runs for every head of every layer."""
