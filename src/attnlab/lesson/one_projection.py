"""The seed's first common mistake, run: one projection for all three roles, Q = K = V = X·W.

The real head gives every token three different vectors (toy.py's W_Q, W_K, W_V), so a token's
query need not match its own key: bank's query [2.3, 2.3, 0, 0] against its own key scores only
1.38. Use one matrix W for all three and every score matrix is QQᵀ, symmetric, with each token's
score against itself |q|², the largest in its row wherever no other vector is longer in the same
direction (q_i·q_j ≤ |q_i||q_j|, Cauchy–Schwarz): the diagonal tends to win. `one_projection`
runs both heads over the same sentence, scaled by √dₖ, and keeps both traces.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal, TypeAlias

import numpy as np

from attnlab.core.attention import attend
from attnlab.core.trace import Trace
from attnlab.errors import AttnlabError
from attnlab.lesson.compute import run
from attnlab.lesson.toy import DEFAULT_SENTENCE, DIM_NAMES, HEADS, embed, focus_index, tokenize
from attnlab.types import BoolArray, FloatArray
from attnlab.words.grammar import token_names
from attnlab.words.one_projection_words import (
    contexts_note,
    one_projection_finding,
    one_projection_note,
)

__all__ = ["SHARED", "OneProjection", "Shared", "contexts", "one_projection"]

Shared: TypeAlias = Literal["queries", "keys", "values"]
SHARED: tuple[Shared, ...] = ("queries", "keys", "values")
"""Which of the meaning head's three matrices serves as the one W (W_Q by default)."""


class SharedRoleError(AttnlabError):
    """A role for the one projection that is not queries, keys or values."""


@dataclass(frozen=True)
class OneProjection:
    """The same sentence through the real head and through one matrix for Q, K and V."""

    shared: Shared  # whose matrix is the one W
    focus: int
    real: Trace  # the meaning head: q = x·W_Q, k = x·W_K, v = x·W_V
    one: Trace  # q = k = v = x·W

    @property
    def tokens(self) -> tuple[str, ...]:
        return self.real.tokens

    @property
    def self_scores(self) -> tuple[FloatArray, FloatArray]:
        """Each token's raw score against itself, (real q·k, one |q|²): two (n,) vectors."""
        return np.diagonal(self.real.raw_scores).copy(), np.diagonal(self.one.raw_scores).copy()

    @property
    def diagonal_wins(self) -> tuple[BoolArray, BoolArray]:
        """Per row, (real, one): True where the token's largest weight, alone, is on itself."""
        return _self_first(self.real.weights), _self_first(self.one.weights)

    @property
    def finding(self) -> str:
        """The note's finding, short: the focus's own score and where its weight goes."""
        f, names = self.focus, token_names(self.tokens)
        real_self, one_self = self.self_scores
        best = [int(np.argmax(t.weights[f])) for t in (self.real, self.one)]
        return one_projection_finding(
            names[f],
            self_real=float(real_self[f]),
            self_one=float(one_self[f]),
            best_real=(names[best[0]], float(self.real.weights[f, best[0]])),
            best_one=(names[best[1]], float(self.one.weights[f, best[1]])),
        )

    @property
    def note(self) -> str:
        """What the numbers show, in words (words/one_projection_words.py)."""
        f, names = self.focus, token_names(self.tokens)
        (real_self, one_self), (real_diag, one_diag) = self.self_scores, self.diagonal_wins
        best = [int(np.argmax(t.weights[f])) for t in (self.real, self.one)]
        return one_projection_note(
            names[f],
            shared=self.shared,
            self_real=float(real_self[f]),
            self_one=float(one_self[f]),
            best_real=(names[best[0]], float(self.real.weights[f, best[0]])),
            best_one=(names[best[1]], float(self.one.weights[f, best[1]])),
            out_real=self.real.outputs[f].tolist(),
            out_one=self.one.outputs[f].tolist(),
            diagonal_real=[names[i] for i in np.flatnonzero(real_diag)],
            diagonal_one=[names[i] for i in np.flatnonzero(one_diag)],
            n=len(names),
        )


def one_projection(
    sentence: str = DEFAULT_SENTENCE, *, focus: str | int | None = None, shared: Shared = "queries"
) -> OneProjection:
    """`sentence` through the meaning head and through Q = K = V = X·W, W its `shared` matrix."""
    if shared not in SHARED:
        raise SharedRoleError(
            f"the one projection is one of {', '.join(SHARED)}, got {shared!r}", field="shared"
        )
    tokens = tokenize(sentence)
    f = focus_index(tokens, focus)
    head = HEADS[0]
    w = {"queries": head.w_q, "keys": head.w_k, "values": head.w_v}[shared]  # (4, 4)
    x = embed(tokens)  # (n, 4)
    q = x @ w  # (n, 4): the query, the key and the value at once
    one = replace(attend(q, q, q, tokens=tokens), embeddings=x, dim_names=DIM_NAMES)
    return OneProjection(shared=shared, focus=f, real=run(sentence), one=one)


def contexts(a: OneProjection, b: OneProjection) -> tuple[float, float, str]:
    """How far the focus's output moves from run `a` to run `b` (two sentences, the same role):
    (with three matrices, with one, the sentence saying so). L2 distances of the outputs."""
    if a.shared != b.shared:
        raise SharedRoleError(f"compare runs of one W, got {a.shared} and {b.shared}")
    real = float(np.linalg.norm(a.real.outputs[a.focus] - b.real.outputs[b.focus]))
    one = float(np.linalg.norm(a.one.outputs[a.focus] - b.one.outputs[b.focus]))
    who = token_names(a.tokens)[a.focus]
    itself = all(int(np.argmax(r.one.weights[r.focus])) == r.focus for r in (a, b))
    said = contexts_note(
        who, (" ".join(a.tokens), " ".join(b.tokens)),
        real_distance=real, one_distance=one, reads_itself=itself,
    )  # fmt: skip
    return real, one, said


def _self_first(weights: FloatArray) -> BoolArray:
    """(n,) True where row i's largest weight is w[i, i] and no other key ties it."""
    diag = np.diagonal(weights)  # (n,)
    others = np.where(np.eye(weights.shape[0], dtype=bool), -np.inf, weights)  # (n, n)
    wins: BoolArray = diag > others.max(axis=1) + 1e-12
    return wins
