"""The experiments by name, each started from a step count and a seed: what the CLI, the server
and the widget run.

`start("induction", steps=500, seed=0)` is the experiment's generator of Steps; the same name,
steps and seed give the same Steps, bit for bit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from attnlab.errors import AttnlabError
from attnlab.train.induction import InductionOptions, run_induction
from attnlab.train.lookup import LookupOptions, run_lookup
from attnlab.train.sqrt_dk import SqrtDkOptions, run_sqrt_dk, variant_divisors
from attnlab.train.steps import Step

__all__ = ["EXPERIMENTS", "Experiment", "TrainError", "experiment", "start"]


class TrainError(AttnlabError):
    """An unknown experiment, or a step count or seed out of range."""

    field = "experiment"


@dataclass(frozen=True)
class Experiment:
    """One experiment: its name, its default and largest step counts, its variants (the
    prefixes of its curves) and the measures each variant records."""

    name: str
    default_steps: int
    max_steps: int
    variants: tuple[str, ...]
    measures: tuple[str, ...]
    run: Callable[[int, int], Iterator[Step]]  # (steps, seed) -> steps


def _lookup(steps: int, seed: int) -> Iterator[Step]:
    return run_lookup(replace(LookupOptions(), steps=steps, seed=seed))


def _sqrt_dk(steps: int, seed: int) -> Iterator[Step]:
    return run_sqrt_dk(replace(SqrtDkOptions(), steps=steps, seed=seed))


def _induction(steps: int, seed: int) -> Iterator[Step]:
    return run_induction(replace(InductionOptions(), steps=steps, seed=seed))


EXPERIMENTS: dict[str, Experiment] = {
    e.name: e
    for e in (
        Experiment(
            "lookup", LookupOptions().steps, 2_000, ("scaled", "uniform"),
            ("loss", "grad_norm", "weight_river", "weight_savings"), _lookup,
        ),
        Experiment(
            "sqrt-dk", SqrtDkOptions().steps, 5_000, tuple(variant_divisors(SqrtDkOptions())),
            ("loss", "entropy", "grad_norm", "hit"), _sqrt_dk,
        ),
        Experiment(
            "induction", InductionOptions().steps, 3_000, ("two_layer", "one_layer"),
            ("loss_repeated", "loss_first", "grad_norm"), _induction,
        ),
    )
}  # fmt: skip


def experiment(name: str) -> Experiment:
    """The experiment called `name`; TrainError naming the known ones otherwise."""
    if name not in EXPERIMENTS:
        raise TrainError(
            f"unknown experiment {name!r}: expected one of {', '.join(EXPERIMENTS)}"[:200]
        )
    return EXPERIMENTS[name]


def start(name: str, *, steps: int | None = None, seed: int = 0) -> Iterator[Step]:
    """The run of experiment `name` for `steps` updates (its default when None) from `seed`."""
    e = experiment(name)
    n = e.default_steps if steps is None else steps
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= e.max_steps:
        raise TrainError(
            f"steps must be a whole number from 1 to {e.max_steps}, got {n!r}", field="steps"
        )
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**32:
        raise TrainError(f"a seed is a whole number from 0 to 2³² - 1, got {seed!r}", field="seed")
    return e.run(n, seed)
