"""Order blindness, tested: shuffle the tokens with their embeddings and compare the outputs.

Without positions, attention is permutation-equivariant: reorder the inputs and every token's
output is the same vector as before, only in its new place (nothing in softmax(QKᵀ/√dₖ)V reads
a position). With sinusoidal encodings or RoPE (positions.py) a token's output depends on
where it stands, so after a shuffle the outputs move; `shuffle_check` reports by how much
(the L2 distance between a token's output before and after).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from attnlab import lesson
from attnlab.edits import Edits
from attnlab.errors import ShuffleError
from attnlab.positions import KINDS, PositionKind
from attnlab.trace import encode_array
from attnlab.types import Axis, FloatArray, Mode

__all__ = ["TOLERANCE", "ShuffleCheck", "permutation", "shuffle_check", "shuffle_every_kind"]

TOLERANCE = 1e-9
"""Outputs closer than this (L2) count as unchanged: what floating point leaves of "equal"."""


def permutation(n: int, seed: object) -> tuple[int, ...]:
    """A seeded reordering of 0..n-1 that moves at least one token when n > 1.

    Entry i is the original index of the token that now stands at i.
    """
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ShuffleError(f"a shuffle seed must be a whole number 0 or more, got {seed!r}")
    p = np.random.default_rng(int(seed)).permutation(n)  # (n,)
    if n > 1 and (p == np.arange(n)).all():
        p = np.roll(p, 1)  # the identity shows nothing: move every token one place
    return tuple(int(i) for i in p)


@dataclass(frozen=True)
class ShuffleCheck:
    """One shuffle under one positional scheme: each token's output before and after."""

    seed: int
    positions: PositionKind
    permutation: tuple[int, ...]  # shuffled position i holds original token permutation[i]
    tokens: tuple[str, ...]  # the original order
    shuffled_tokens: tuple[str, ...]
    before: FloatArray  # (n, d_v) outputs in the original order
    after: FloatArray  # (n, d_v) the shuffled run's outputs, put back in the original order
    distances: FloatArray  # (n,) ‖after − before‖ per original token

    @property
    def unchanged(self) -> tuple[bool, ...]:
        """Per original token: is its output the same vector after the shuffle?"""
        return tuple(bool(d <= TOLERANCE) for d in self.distances)

    def to_dict(self) -> dict[str, Any]:
        new_place = {orig: i for i, orig in enumerate(self.permutation)}
        return {
            "seed": self.seed,
            "positions": self.positions,
            "permutation": list(self.permutation),
            "tokens": list(self.tokens),
            "shuffled_tokens": list(self.shuffled_tokens),
            "all_unchanged": all(self.unchanged),
            "max_distance": float(self.distances.max()),
            "rows": [
                {
                    "token": tok,
                    "from": i,
                    "to": new_place[i],
                    "before": encode_array(self.before[i]),
                    "after": encode_array(self.after[i]),
                    "distance": float(self.distances[i]),
                    "unchanged": self.unchanged[i],
                }
                for i, tok in enumerate(self.tokens)
            ],
        }


def shuffle_check(
    sentence: str = lesson.DEFAULT_SENTENCE,
    *,
    seed: int = 0,
    positions: PositionKind = "none",
    mode: Mode = "scaled",
    axis: Axis = "keys",
    temperature: float | None = None,
    causal: bool = False,
    edits: Edits | None = None,
    head: int = 0,
) -> ShuffleCheck:
    """Run the toy on `sentence` and on a seeded shuffle of it; compare each token's output."""
    tokens = lesson.tokenize(sentence)
    perm = permutation(len(tokens), seed)
    shuffled = tuple(tokens[i] for i in perm)
    options: dict[str, Any] = {
        "positions": positions, "mode": mode, "axis": axis, "temperature": temperature,
        "causal": causal, "edits": edits, "head": head,
    }  # fmt: skip
    before = lesson.run(sentence, **options).outputs  # (n, d_v)
    moved = lesson.run(" ".join(shuffled), **options).outputs  # (n, d_v) in shuffled order
    after = np.empty_like(moved)  # (n, d_v)
    after[list(perm)] = moved  # token perm[i] came out at row i: put it back at perm[i]
    distances = np.linalg.norm(after - before, axis=-1)  # (n,)
    return ShuffleCheck(int(seed), positions, perm, tokens, shuffled, before, after, distances)


def shuffle_every_kind(
    sentence: str = lesson.DEFAULT_SENTENCE, *, seed: int = 0, **options: Any
) -> dict[PositionKind, ShuffleCheck]:
    """The same shuffle under none, sinusoidal and RoPE: blind, then not."""
    return {kind: shuffle_check(sentence, seed=seed, positions=kind, **options) for kind in KINDS}
