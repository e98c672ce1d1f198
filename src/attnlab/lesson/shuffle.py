"""Order blindness, tested: shuffle the tokens with their embeddings and compare the outputs.

Without positions, attention is permutation-equivariant: reorder the inputs and every token's
output is the same vector as before, only in its new place (nothing in softmax(QKᵀ/√dₖ)V reads
a position). With sinusoidal encodings or RoPE (positions.py) a token's output depends on
where it stands, so after a shuffle the outputs move; `shuffle_check` reports by how much
(the L2 distance between a token's output before and after). A causal mask reads places too:
under it the outputs move even without positions, and the check says which cause it was.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from attnlab.core.positions import KINDS, PositionKind
from attnlab.errors import ShuffleError
from attnlab.lesson.compute import DEFAULT, run
from attnlab.lesson.options import LessonOptions
from attnlab.lesson.toy import DEFAULT_SENTENCE, tokenize
from attnlab.types import FloatArray
from attnlab.words.notes import shuffle_note

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
    causal: bool  # a causal mask reads places too: with it, outputs move even without positions
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

    @property
    def note(self) -> str:
        """What this shuffle showed, in words (words/notes.py)."""
        return shuffle_note(
            self.positions, self.tokens, self.shuffled_tokens,
            [float(x) for x in self.distances], causal=self.causal,
        )  # fmt: skip


def shuffle_check(
    sentence: str = DEFAULT_SENTENCE, options: LessonOptions = DEFAULT, *, seed: int = 0
) -> ShuffleCheck:
    """Run the toy on `sentence` and on a seeded shuffle of it; compare each token's output.

    A custom mask belongs to the tokens, not to the places, so it is shuffled with them
    (PMPᵀ): only positions and the causal mask, which read places, can move an output.
    """
    tokens = tokenize(sentence)
    perm = permutation(len(tokens), seed)
    shuffled = tuple(tokens[i] for i in perm)
    moved_options = options
    if options.mask is not None and options.mask.shape == (len(tokens),) * 2:
        idx = np.asarray(perm)
        moved_options = replace(options, mask=options.mask[np.ix_(idx, idx)])  # (n, n) PMPᵀ
    before = run(sentence, options).outputs  # (n, d_v)
    moved = run(" ".join(shuffled), moved_options).outputs  # (n, d_v) in shuffled order
    after = np.empty_like(moved)  # (n, d_v)
    after[list(perm)] = moved  # token perm[i] came out at row i: put it back at perm[i]
    distances = np.linalg.norm(after - before, axis=-1)  # (n,)
    return ShuffleCheck(
        int(seed), options.positions, options.causal, perm, tokens, shuffled, before, after,
        distances,
    )  # fmt: skip


def shuffle_every_kind(
    sentence: str = DEFAULT_SENTENCE, options: LessonOptions = DEFAULT, *, seed: int = 0
) -> dict[PositionKind, ShuffleCheck]:
    """The same shuffle under none, sinusoidal and RoPE: blind, then not."""
    return {
        kind: shuffle_check(sentence, replace(options, positions=kind), seed=seed) for kind in KINDS
    }
