"""The experiments by name, each started from a step count and a seed: what the CLI, the server
and the widget run.

`start("induction", steps=500, seed=0)` is the experiment's generator of Steps; the same name,
steps and seed give the same Steps, bit for bit.

The same run in chunks, for a host that runs it in a worker process and may stop at any time:
`run = begin("induction", steps=500, seed=0)`, then `run, steps = advance(run, 20)` as often as
wanted. A `Run` is a frozen, picklable value (the experiment's parameters, optimiser states and
random generator), so each chunk is one plain call that takes the state and returns the new
one; the chunks' Steps are the generator's, bit for bit, however the run is cut.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from attnlab.errors import AttnlabError
from attnlab.train import induction, lookup, sqrt_dk
from attnlab.train.induction import InductionOptions, run_induction
from attnlab.train.lookup import LookupOptions, run_lookup
from attnlab.train.sqrt_dk import SqrtDkOptions, run_sqrt_dk, variant_divisors
from attnlab.train.steps import Step
from attnlab.words import training as words

__all__ = [
    "EXPERIMENTS", "MAX_CHUNK", "Experiment", "Run", "TrainError", "advance", "begin", "check",
    "experiment", "start",
]  # fmt: skip


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
    options: Callable[[int, int], Any]  # (steps, seed) -> the experiment's options
    first: Callable[[Any], Any]  # options -> the state before step 0
    next: Callable[[Any, Any, int], tuple[Any, Step]]  # (options, state, step) -> state, Step


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
            ("loss", "grad_norm", "weight_river", "weight_savings", "river_geographic",
             "river_financial", "savings_geographic", "savings_financial"), _lookup,
            lambda n, s: replace(LookupOptions(), steps=n, seed=s),
            lookup.lookup_begin, lookup.lookup_step,
        ),
        Experiment(
            "sqrt-dk", SqrtDkOptions().steps, 5_000, tuple(variant_divisors(SqrtDkOptions())),
            ("loss", "entropy", "grad_norm", "hit"), _sqrt_dk,
            lambda n, s: replace(SqrtDkOptions(), steps=n, seed=s),
            sqrt_dk.sqrt_dk_begin, sqrt_dk.sqrt_dk_step,
        ),
        Experiment(
            "induction", InductionOptions().steps, 3_000, ("two_layer", "one_layer"),
            ("loss_repeated", "loss_first", "grad_norm"), _induction,
            lambda n, s: replace(InductionOptions(), steps=n, seed=s),
            induction.induction_begin, induction.induction_step,
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


def _checked(e: Experiment, steps: int | None, seed: int) -> int:
    """The step count asked for (the experiment's default when None), once checked with the seed."""
    n = e.default_steps if steps is None else steps
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= e.max_steps:
        raise TrainError(words.STEPS_RANGE.format(max=e.max_steps, got=repr(n)), field="steps")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**32:
        raise TrainError(words.SEED_RANGE.format(got=repr(seed)), field="seed")
    return n


def check(name: str, *, steps: int | None = None, seed: int = 0) -> int:
    """The step count a run of `name` would take; TrainError naming what is out of range."""
    return _checked(experiment(name), steps, seed)


def start(name: str, *, steps: int | None = None, seed: int = 0) -> Iterator[Step]:
    """The run of experiment `name` for `steps` updates (its default when None) from `seed`."""
    e = experiment(name)
    return e.run(_checked(e, steps, seed), seed)


MAX_CHUNK = 200
"""The most steps one `advance` call takes (a chunk is meant to be short, so a stop is quick)."""


@dataclass(frozen=True)
class Run:
    """A run between two chunks: its experiment, length and seed, the next step to compute
    (steps + 1 once finished: step 0 is before any update) and the experiment's state."""

    name: str
    steps: int
    seed: int
    next_step: int
    state: Any

    @property
    def done(self) -> bool:
        return self.next_step > self.steps


def begin(name: str, *, steps: int | None = None, seed: int = 0) -> Run:
    """Experiment `name`'s run before step 0, checked as `start` checks it."""
    e = experiment(name)
    n = _checked(e, steps, seed)
    return Run(name, n, seed, 0, e.first(e.options(n, seed)))


def advance(run: Run, count: int) -> tuple[Run, list[Step]]:
    """The next `count` steps of `run` (fewer at its end, none once done) and the run after."""
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_CHUNK:
        raise TrainError(
            f"a chunk is a whole number of steps from 1 to {MAX_CHUNK}, got {count!r}",
            field="count",
        )
    e = experiment(run.name)
    opts = e.options(run.steps, run.seed)
    state, out = run.state, []
    last = min(run.steps, run.next_step + count - 1)
    for step in range(run.next_step, last + 1):
        state, s = e.next(opts, state, step)
        out.append(s)
    return replace(run, next_step=last + 1, state=state), out
