"""The Train view's JSON contract (GET /api/train, POST /api/train/start|next|stop, and the
widget's payload): pydantic models of what the encoders here write.

A run reaches the page in chunks: each `TrainChunkAnswer` carries the chunk's curve points (every
measure of every variant at each step, as the core computed them), its checkpoints (each map's
weights, rows = queries, and the row the view prints in numbers: bank's, in the lookup), and the
run in words so far (train/narrate.py). The widget's payload is the same answer for a whole run.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import Field

from attnlab.encode.answers_trace import Answer, JsonNumber, Matrix
from attnlab.encode.arrays import encode_array, encode_number
from attnlab.train import narrate
from attnlab.train.catalog import EXPERIMENTS, Run
from attnlab.train.sqrt_dk import SqrtDkOptions, variant_divisors
from attnlab.train.steps import Checkpoint, Step
from attnlab.words import training as words

__all__ = [
    "CHUNK_LIMIT", "TrainCatalogAnswer", "TrainChunkAnswer", "TrainStartAnswer", "TrainStopAnswer",
    "encode_catalog", "encode_chunk",
]  # fmt: skip

CHUNK_LIMIT = 20
"""The most steps one request asks for: 20 of the induction run's steps take 0.7 s on an idle
core (2.6 s on a busy one), so the worker is never held longer than that by a stopped run."""

SPEEDS = (1, 5, 20)  # steps a request: the view's slow, medium and fast
FOCUS_WORD = {"lookup": "bank"}  # the row the view prints in numbers, by experiment


class ExperimentAnswer(Answer):
    name: str
    title: str
    watch: str
    default_steps: int
    max_steps: int
    variants: list[str]
    measures: list[str]


class TrainCatalogAnswer(Answer):
    """The experiments, the view's words and the chunk sizes it may ask for."""

    experiments: list[ExperimentAnswer]
    labels: dict[str, str]
    measure_names: dict[str, str]
    variant_names: dict[str, str]
    speeds: list[int] = Field(description="steps a request at each speed")
    max_count: int


class TrainStartAnswer(Answer):
    job: str = Field(description="the run's name for /api/train/next and /api/train/stop")
    experiment: str
    steps: int
    seed: int


class TrainMapAnswer(Answer):
    name: str
    tokens: list[str]
    weights: Matrix = Field(description="rows = queries, columns = keys; each row sums to 1")
    row: int | None = Field(description="the query row the view prints in numbers")


class TrainCheckpointAnswer(Answer):
    step: int
    maps: list[TrainMapAnswer]
    scores: dict[str, JsonNumber]
    line: str
    phase: str = Field(description="what to watch for at this checkpoint's step, as phase says it")


class TrainPointAnswer(Answer):
    step: int
    values: dict[str, JsonNumber]


class TrainChunkAnswer(Answer):
    job: str
    experiment: str
    steps: int
    seed: int
    next_step: int = Field(description="the step the next chunk starts at (steps + 1: finished)")
    done: bool
    points: list[TrainPointAnswer]
    checkpoints: list[TrainCheckpointAnswer]
    phase: str = Field(description="what to watch for now, from the numbers so far")
    summary: list[str]


class TrainStopAnswer(Answer):
    job: str
    stopped: bool
    at_step: int | None = Field(description="the last step computed, None if none was")


def _watch(name: str) -> str:
    """What to watch for in experiment `name`; for √dₖ, each divisor beside Scaled's."""
    if name != "sqrt-dk":
        return words.WATCH[name]
    opts = SqrtDkOptions()
    return (
        words.sqrt_dk_divisors(d_k=opts.d_k, divisors=variant_divisors(opts))
        + " "
        + words.WATCH[name]
    )


def encode_catalog() -> TrainCatalogAnswer:
    return TrainCatalogAnswer(
        experiments=[
            ExperimentAnswer(
                name=e.name, title=words.TITLES[e.name], watch=_watch(e.name),
                default_steps=e.default_steps, max_steps=e.max_steps, variants=list(e.variants),
                measures=list(e.measures),
            )
            for e in EXPERIMENTS.values()
        ],
        labels=dict(words.PAGE),
        measure_names=dict(words.MEASURES),
        variant_names={v: words.variant_name(v) for e in EXPERIMENTS.values() for v in e.variants},
        speeds=list(SPEEDS),
        max_count=CHUNK_LIMIT,
    )  # fmt: skip


def _checkpoint(
    name: str, step: int, ck: Checkpoint, so_far: Sequence[Step]
) -> TrainCheckpointAnswer:
    word = FOCUS_WORD.get(name)
    return TrainCheckpointAnswer(
        step=step,
        maps=[
            TrainMapAnswer(
                name=m.name, tokens=list(m.tokens), weights=encode_array(m.weights),
                row=m.tokens.index(word) if word in m.tokens else None,
            )
            for m in ck.maps
        ],
        scores={k: encode_number(v) for k, v in ck.scores.items()},
        line=narrate.checkpoint_line(ck),
        phase=narrate.phase_line(name, [s for s in so_far if s.step <= step]) if so_far else "",
    )  # fmt: skip


def encode_chunk(
    job: str, run: Run, chunk: Sequence[Step], so_far: Sequence[Step]
) -> TrainChunkAnswer:
    """The chunk `chunk` of `run` (now after it), told in words from every step `so_far`."""
    return TrainChunkAnswer(
        job=job, experiment=run.name, steps=run.steps, seed=run.seed, next_step=run.next_step,
        done=run.done,
        points=[
            TrainPointAnswer(step=s.step, values={k: encode_number(v) for k, v in s.values.items()})
            for s in chunk
        ],
        checkpoints=[
            _checkpoint(run.name, s.step, s.checkpoint, so_far) for s in chunk if s.checkpoint
        ],
        phase=narrate.phase_line(run.name, so_far) if so_far else "",
        summary=narrate.summary_lines(run.name, so_far) if so_far else [],
    )  # fmt: skip
