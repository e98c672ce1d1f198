"""What a training run yields, one step at a time: its numbers and, now and then, a checkpoint.

An experiment is a generator of `Step`s, so a host can draw the curves as they grow, stream
them, and stop the run by no longer asking for the next step. `Step.values` holds the curves'
numbers by name, "<variant>.<measure>" (for example "scaled.loss", "uniform.loss"); a
`Checkpoint` holds the attention maps of that step, each (n, m) with rows summing to 1, with
their token labels, plus any scores read off them (induction and previous-token scores).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from attnlab.types import FloatArray

__all__ = ["AttentionMap", "Checkpoint", "Step", "checkpoint_steps", "early_checkpoint_steps"]


@dataclass(frozen=True)
class AttentionMap:
    """One head's weights (n, m) on one input, rows = queries, columns = keys, with their labels."""

    name: str
    weights: FloatArray  # (n, m)
    tokens: tuple[str, ...]


@dataclass(frozen=True)
class Checkpoint:
    """The attention maps at one step, and scores read off them by name."""

    maps: tuple[AttentionMap, ...]
    scores: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Step:
    """Step `step` of a run (0 is before any update): each curve's value, and maybe a checkpoint."""

    step: int
    values: Mapping[str, float]
    checkpoint: Checkpoint | None = None


def checkpoint_steps(steps: int, count: int) -> frozenset[int]:
    """`count` steps spread evenly over 0..steps, both ends included."""
    if steps <= 0:
        return frozenset({0})
    count = max(2, min(count, steps + 1))
    return frozenset(round(i * steps / (count - 1)) for i in range(count))


def early_checkpoint_steps(steps: int, *, every_first: int, later: int) -> frozenset[int]:
    """Every step from 0 to `every_first`, then `later` more spaced evenly in log(step) up to
    `steps` (included): for a run whose learning happens in its first few dozen steps."""
    first = set(range(min(every_first, steps) + 1))
    if steps <= every_first or later < 1:
        return frozenset(first)
    lo, hi = math.log(every_first + 1), math.log(steps)
    spread = {round(math.exp(lo + (hi - lo) * (i + 1) / later)) for i in range(later)}
    return frozenset(first | spread | {steps})
