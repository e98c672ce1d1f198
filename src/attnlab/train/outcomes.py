"""What a finished (or stopped) run showed, as numbers read off its Steps: the facts the CLI's
summary, the closing note and the view's words are written from.

Each reads only the curves it was handed, so a run stopped early is summarised as far as it
went. A fact the run did not reach is None (the weight on river never passed 0.6, the loss
never dropped), never a guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from attnlab.train.steps import Checkpoint, Step

__all__ = [
    "InductionOutcome",
    "LookupOutcome",
    "SqrtDkOutcome",
    "VariantOutcome",
    "induction_outcome",
    "lookup_outcome",
    "sqrt_dk_outcome",
]

RIVER_BAR = 0.6
"""The weight on river the lookup's summary counts as learned (the issue's bar)."""


def _curve(steps: Sequence[Step], key: str) -> list[float]:
    return [s.values[key] for s in steps]


def _first_step(steps: Sequence[Step], key: str, passes: float, *, below: bool) -> int | None:
    for s in steps:
        v = s.values[key]
        if (v < passes) if below else (v > passes):
            return s.step
    return None


def _last_checkpoint(steps: Sequence[Step]) -> Checkpoint | None:
    saved = [s.checkpoint for s in steps if s.checkpoint is not None]
    return saved[-1] if saved else None


@dataclass(frozen=True)
class LookupOutcome:
    steps: int
    weight_start: float  # bank's weight on river, Scaled, at step 0
    weight_end: float
    crossed_at: int | None  # the first step it exceeds RIVER_BAR
    savings_end: float  # bank's weight on savings in the other sentence, at the end
    loss_start: float
    loss_end: float
    uniform_start: float  # Uniform's loss at step 0 and at the end
    uniform_end: float


def lookup_outcome(steps: Sequence[Step]) -> LookupOutcome:
    first, last = steps[0].values, steps[-1].values
    return LookupOutcome(
        steps=steps[-1].step,
        weight_start=first["scaled.weight_river"],
        weight_end=last["scaled.weight_river"],
        crossed_at=_first_step(steps, "scaled.weight_river", RIVER_BAR, below=False),
        savings_end=last["scaled.weight_savings"],
        loss_start=first["scaled.loss"],
        loss_end=last["scaled.loss"],
        uniform_start=first["uniform.loss"],
        uniform_end=last["uniform.loss"],
    )


@dataclass(frozen=True)
class VariantOutcome:
    name: str
    loss_start: float
    loss_end: float
    entropy_start: float  # mean row entropy, bits
    entropy_end: float
    grad_start: float
    grad_late: float  # the median gradient norm over the last tenth of the run
    grad_late_max: float  # the largest gradient norm over that same tenth
    hit_end: float  # the share of queries whose top key is their own, at the end


@dataclass(frozen=True)
class SqrtDkOutcome:
    steps: int
    max_entropy: float  # log₂ n: a uniform row's entropy
    late_steps: int  # how many steps "late" spans: the last tenth of the run
    variants: tuple[VariantOutcome, ...]


def sqrt_dk_outcome(steps: Sequence[Step], variants: Sequence[str]) -> SqrtDkOutcome:
    late = steps[-max(1, len(steps) // 10) :]
    out = []
    for name in variants:
        first, last = steps[0].values, steps[-1].values
        out.append(
            VariantOutcome(
                name=name,
                loss_start=first[f"{name}.loss"],
                loss_end=last[f"{name}.loss"],
                entropy_start=first[f"{name}.entropy"],
                entropy_end=last[f"{name}.entropy"],
                grad_start=first[f"{name}.grad_norm"],
                grad_late=float(np.median(_curve(late, f"{name}.grad_norm"))),
                grad_late_max=float(np.max(_curve(late, f"{name}.grad_norm"))),
                hit_end=last[f"{name}.hit"],
            )
        )
    return SqrtDkOutcome(steps[-1].step, steps[0].values["max_entropy"], len(late), tuple(out))


@dataclass(frozen=True)
class InductionOutcome:
    steps: int
    log_vocab: float  # the loss of a uniform guess
    two_start: float  # the two-layer model's loss on the repeated half
    two_end: float
    drop_at: int | None  # the first step that loss falls below log V / 2
    one_min: float  # the one-layer control's lowest loss on the repeated half
    one_end: float
    heads: dict[str, tuple[str, float]]  # score → (head, its value), best at the last checkpoint


def induction_outcome(steps: Sequence[Step]) -> InductionOutcome:
    first, last = steps[0].values, steps[-1].values
    log_v = first["log_vocab"]
    heads: dict[str, tuple[str, float]] = {}
    ck = _last_checkpoint(steps)
    if ck is not None:
        for score in ("previous", "duplicate", "induction"):
            layer = "L1" if score == "induction" else "L0"
            found = {
                k: v for k, v in ck.scores.items() if k.startswith(layer) and k.endswith(score)
            }
            if found:
                best = max(found, key=lambda k: found[k])
                heads[score] = (best.split(".")[0], found[best])
    return InductionOutcome(
        steps=steps[-1].step,
        log_vocab=log_v,
        two_start=first["two_layer.loss_repeated"],
        two_end=last["two_layer.loss_repeated"],
        drop_at=_first_step(steps, "two_layer.loss_repeated", log_v / 2, below=True),
        one_min=min(_curve(steps, "one_layer.loss_repeated")),
        one_end=last["one_layer.loss_repeated"],
        heads=heads,
    )
