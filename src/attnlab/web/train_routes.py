"""The Train view's routes: a training run in the training worker, one chunk of steps a request.

    GET  /api/train         the experiments, the view's words, the chunk sizes (encoded once)
    POST /api/train/start   {"experiment", "steps", "seed"}: a new run (its job name); nothing
                            is computed yet beyond its first state
    POST /api/train/next    {"job", "count"}: the next `count` steps, in the worker
    POST /api/train/stop    {"job"}: forget the run (a chunk still computing is dropped)

How a run travels: the server keeps each run's `Run` (train/catalog.py: a frozen, picklable
value holding the parameters, the optimiser's state and the random generator) and every Step
so far; each `next` hands the Run to the worker (`advance`, a plain call) and keeps the Run it
returns. The page asks for the next chunk when the last one has arrived, so Pause and Stop are
the page no longer asking: the worker is never tied to a run, only to one chunk of at most
CHUNK_LIMIT steps, and takes any other run's chunk as soon as that one ends. The same seed gives
the same curve however the run is cut (tests/train/test_train_chunks.py).

The worker is one process of its own (offload.Executors.train), so a run never waits behind
the lesson's pool nor holds one of its processes. At most MAX_JOBS runs are kept; a new one
forgets the one asked least recently.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
from collections import OrderedDict
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import cache
from typing import Annotated, ClassVar, cast

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import Field, StringConstraints

from attnlab.encode.train_json import (
    CHUNK_LIMIT,
    TrainCatalogAnswer,
    TrainChunkAnswer,
    TrainStartAnswer,
    TrainStopAnswer,
    encode_catalog,
    encode_chunk,
)
from attnlab.errors import AttnlabError
from attnlab.train.catalog import EXPERIMENTS, Run, advance, begin, check
from attnlab.train.steps import Step
from attnlab.web.error_replies import BODY_RESPONSES, BUSY_RESPONSES, ERROR_RESPONSES
from attnlab.web.error_replies import reply as error_reply
from attnlab.web.executors import WorkerGone, json_answer
from attnlab.web.offload import executors_of
from attnlab.web.request_fields import Between, Params
from attnlab.web.requests_lesson import NoParams

__all__ = ["MAX_JOBS", "TrainJobs", "router"]

router = APIRouter(prefix="/api/train", tags=["train"], responses=ERROR_RESPONSES)

MAX_JOBS = 16
"""Runs kept at once (by everyone using this server); the least recently asked goes first."""


Job = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]


class JobError(AttnlabError):
    """No run of that name (stopped, finished long ago, or never started)."""

    field = "job"


class TrainStartBody(Params):
    """`POST /api/train/start`: which experiment, how many steps, from which seed."""

    what: ClassVar[str] = "key"
    experiment: str = Field(description=f"one of {', '.join(EXPERIMENTS)}")
    steps: int | None = Field(
        None,
        description="updates (default: the experiment's; each has its own largest, "
        "train/catalog.py's, and check() names it)",
    )
    seed: Annotated[int, Between(0, 2**32 - 1)] = Field(
        0, description="the same seed, the same curve"
    )


class TrainNextBody(Params):
    """`POST /api/train/next`: the run, and how many steps to compute now."""

    what: ClassVar[str] = "key"
    job: Job
    count: Annotated[int, Between(1, CHUNK_LIMIT)] = Field(5, description="steps in this chunk")


class TrainStopBody(Params):
    what: ClassVar[str] = "key"
    job: Job


@dataclass
class _Entry:
    run: Run
    steps: list[Step] = field(default_factory=list)
    busy: bool = False


class TrainJobs:
    """The runs this server keeps, by job name (thread-safe: handlers run on the event loop,
    the chunks' answers are taken there too)."""

    def __init__(self, limit: int = MAX_JOBS) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._jobs: OrderedDict[str, _Entry] = OrderedDict()

    def add(self, run: Run) -> str:
        job = secrets.token_urlsafe(9)
        with self._lock:
            self._jobs[job] = _Entry(run)
            while len(self._jobs) > self.limit:
                self._jobs.popitem(last=False)
        return job

    def take(self, job: str) -> _Entry:
        """The run `job`, marked busy (a second chunk of it at once is refused)."""
        with self._lock:
            entry = self._jobs.get(job)
            if entry is None:
                raise JobError(f"no run named {job!r}: it was stopped, or never started")
            if entry.busy:
                raise JobError(f"run {job!r} is computing a chunk already: ask again when it ends")
            entry.busy = True
            self._jobs.move_to_end(job)
            return entry

    def put(self, job: str, entry: _Entry, run: Run, chunk: list[Step]) -> bool:
        """Keep `run` after its chunk; False if the job was stopped meanwhile (dropped)."""
        with self._lock:
            entry.busy = False
            if self._jobs.get(job) is not entry:
                return False
            entry.run = run
            entry.steps.extend(chunk)
            return True

    def release(self, entry: _Entry) -> None:
        with self._lock:
            entry.busy = False

    def stop(self, job: str) -> _Entry:
        with self._lock:
            entry = self._jobs.pop(job, None)
        if entry is None:
            raise JobError(f"no run named {job!r}: it was stopped, or never started")
        return entry


def _jobs(request: Request) -> TrainJobs:
    app = request.app
    if not hasattr(app.state, "train_jobs"):
        app.state.train_jobs = TrainJobs()
    jobs: TrainJobs = app.state.train_jobs
    return jobs


async def _in_worker(request: Request, fn: object, *args: object) -> object:
    """`fn(*args)` in the training worker; WorkerGone if it died meanwhile."""
    future = executors_of(request).train.submit(fn, *args)  # type: ignore[arg-type]
    try:
        return await asyncio.wrap_future(future)
    except BrokenProcessPool as exc:
        raise WorkerGone(str(exc)) from exc


def _gone(request: Request) -> Response:
    seconds = executors_of(request).options.retry_after_seconds
    message = f"the training process stopped and is being restarted: try again in {seconds} s"
    return error_reply(message, None, 503, headers={"Retry-After": str(seconds)})


@cache
def _catalog() -> Response:
    return json_answer(encode_catalog())


@router.get("", response_model=TrainCatalogAnswer)
async def catalog(params: Annotated[NoParams, Query()]) -> Response:
    """The experiments (names, titles, what to watch for, step limits), the view's words and
    the chunk sizes a request may ask for."""
    return _catalog()


def _begin(name: str, steps: int | None, seed: int) -> Run:
    return begin(name, steps=steps, seed=seed)


@router.post(
    "/start", response_model=TrainStartAnswer, responses={**BODY_RESPONSES, **BUSY_RESPONSES}
)
async def start(params: TrainStartBody, request: Request) -> Response:
    """A new run: an unknown experiment, a step count beyond its largest or a seed outside
    0 … 2³² - 1 is refused by name."""
    check(params.experiment, steps=params.steps, seed=params.seed)  # refused here, by name
    try:
        run = await _in_worker(request, _begin, params.experiment, params.steps, params.seed)
    except WorkerGone:
        return _gone(request)
    assert isinstance(run, Run)
    job = _jobs(request).add(run)
    return json_answer(
        TrainStartAnswer(job=job, experiment=run.name, steps=run.steps, seed=run.seed)
    )


@router.post(
    "/next", response_model=TrainChunkAnswer, responses={**BODY_RESPONSES, **BUSY_RESPONSES}
)
async def next_chunk(params: TrainNextBody, request: Request) -> Response:
    """The run's next `count` steps (fewer at its end): curve points, checkpoints, words."""
    jobs = _jobs(request)
    entry = jobs.take(params.job)
    try:
        out = await _in_worker(request, advance, entry.run, params.count)
    except WorkerGone:
        jobs.release(entry)
        return _gone(request)
    except BaseException:
        jobs.release(entry)
        raise
    run, chunk = cast(tuple[Run, list[Step]], out)
    if not jobs.put(params.job, entry, run, chunk):
        raise JobError(f"run {params.job!r} was stopped while its chunk was computed")
    return json_answer(encode_chunk(params.job, run, chunk, entry.steps))


@router.post("/stop", response_model=TrainStopAnswer, responses=BODY_RESPONSES)
async def stop(params: TrainStopBody, request: Request) -> Response:
    """Forget the run at once: a chunk it is computing is dropped, the worker takes the next."""
    entry = _jobs(request).stop(params.job)
    at = entry.steps[-1].step if entry.steps else None
    return json_answer(TrainStopAnswer(job=params.job, stopped=True, at_step=at))
