"""A run in words, from its Steps so far: the summary (train/outcomes.py's facts put into
words/training.py's sentences), the line on the phase the run has reached, and a checkpoint's
best head scores. The CLI, the server and the widget all say a run with these.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict

from attnlab.train.catalog import experiment
from attnlab.train.outcomes import induction_outcome, lookup_outcome, sqrt_dk_outcome
from attnlab.train.steps import Checkpoint, Step
from attnlab.words import training as words

__all__ = ["best_scores", "checkpoint_line", "phase_line", "summary_lines"]


def summary_lines(name: str, steps: Sequence[Step]) -> list[str]:
    """The run's summary in words, from its measured curves (as far as it went)."""
    if name == "lookup":
        return words.lookup_lines(**asdict(lookup_outcome(steps)))
    if name == "induction":
        return words.induction_lines(**asdict(induction_outcome(steps)))
    out = sqrt_dk_outcome(steps, experiment(name).variants)
    lines = [words.sqrt_dk_line(**asdict(v), late_steps=out.late_steps) for v in out.variants]
    scaled = next(v for v in out.variants if v.name == "scaled")
    saturated = {
        v.name: (v.grad_late, v.grad_late_max)
        for v in out.variants
        if v.name != "scaled" and v.entropy_end < words.SATURATED_BITS and v.hit_end < 0.5
    }
    verdict = words.sqrt_dk_verdict(
        late_steps=out.late_steps, scaled=(scaled.grad_late, scaled.grad_late_max),
        saturated=saturated,
    )  # fmt: skip
    return [*lines, verdict]


def phase_line(name: str, steps: Sequence[Step]) -> str:
    """What to watch for now, from the last step's numbers (and the run's first)."""
    first, last = steps[0].values, steps[-1].values
    step = steps[-1].step
    if name == "lookup":
        return words.lookup_phase(
            step=step, river=last["scaled.weight_river"], savings=last["scaled.weight_savings"],
            loss=last["scaled.loss"], uniform_loss=last["uniform.loss"],
            uniform_start=first["uniform.loss"],
        )  # fmt: skip
    if name == "induction":
        out = induction_outcome(steps)
        return words.induction_phase(
            step=step, two=last["two_layer.loss_repeated"], one=last["one_layer.loss_repeated"],
            log_vocab=out.log_vocab, drop_at=out.drop_at, one_min=out.one_min,
        )  # fmt: skip
    variants = experiment(name).variants
    return words.sqrt_dk_phase(
        step=step,
        losses={v: last[f"{v}.loss"] for v in variants},
        entropies={v: last[f"{v}.entropy"] for v in variants},
        grads={v: last[f"{v}.grad_norm"] for v in variants},
        max_entropy=last["max_entropy"],
    )


def best_scores(ck: Checkpoint) -> dict[str, tuple[str, float]]:
    """Per score, the head with the highest (induction from layer 1, the others from layer 0)."""
    best: dict[str, tuple[str, float]] = {}
    for score in ("previous", "duplicate", "induction"):
        layer = "L1" if score == "induction" else "L0"
        found = {k: v for k, v in ck.scores.items() if k.startswith(layer) and k.endswith(score)}
        if found:
            top = max(found, key=lambda k: found[k])
            best[score] = (top.split(".")[0], found[top])
    return best


def checkpoint_line(ck: Checkpoint) -> str:
    """A checkpoint's best scores in words ("" when it has no scores, as the toy's)."""
    return words.checkpoint_scores_line(best_scores(ck))
