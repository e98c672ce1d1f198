"""The toy lesson's routes: its explanation with the lab's options, and the lab's plots.

    GET  /api/presets  the presets, the vocabulary, the modes, the limits and the page's words
    GET  /api/lesson   the explanation (parameters: requests_lesson.LessonQuery)
    POST /api/lesson   the same from a JSON object, edits as an object (LessonBody)
    GET  /api/sweep    the focus row per temperature (SweepQuery)
    GET  /api/shuffle  one shuffle under every positions kind (ShuffleQuery)
    GET  /api/cost     time and memory of attention against n, and the key/value cache's
                       one new row against recomputing n × n (CostQuery)
    GET  /api/lab      the lab's choices and limits

Each handler has a plain function turn its request model into the lesson's options, run the
lesson and encode its declared answer (encode/answers_lesson.py, encode/answers_trace.py), in
the toy lesson's process pool, the cost in the measuring child (executors.py); measuring is
heavy work, answered 503 beyond the heavy queue. The presets and the lab's limits never change:
they are encoded once, and sent by the server itself. The 1-2 ms explanation runs in the pool
too: on the event loop it made every answer wait behind it (benchmarks/load.py has the numbers).
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from attnlab import lesson
from attnlab.core.cost import measure, measured_kv_cache, sizes
from attnlab.core.positions import KINDS
from attnlab.core.saturation import sweep, temperatures
from attnlab.encode.answers_lesson import LabAnswer, LessonAnswer, PresetsAnswer, ShuffleAnswer
from attnlab.encode.answers_trace import CostAnswer, SweepAnswer
from attnlab.encode.lesson_json import lesson_answer, shuffle_answer
from attnlab.encode.page_json import lab_answer, presets_answer
from attnlab.encode.trace_json import encode_cost, encode_sweep
from attnlab.lesson.shuffle import shuffle_every_kind
from attnlab.web.error_replies import BODY_RESPONSES, BUSY_RESPONSES, ERROR_RESPONSES
from attnlab.web.executors import json_answer
from attnlab.web.offload import on_measure, on_toy
from attnlab.web.requests_lesson import (
    CostQuery,
    LessonBody,
    LessonParams,
    LessonQuery,
    NoParams,
    ShuffleQuery,
    SweepQuery,
)

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["lesson"], responses=ERROR_RESPONSES)


@cache
def _presets() -> Response:
    return json_answer(presets_answer())


@router.get("/presets", response_model=PresetsAnswer)
async def presets(params: Annotated[NoParams, Query()]) -> Response:
    """The presets, the vocabulary, the modes and the limits, and the page's fixed words."""
    return _presets()


def _explain(params: LessonParams) -> Response:
    ex = lesson.explain_lesson(params.sentence, params.options(), focus=params.focus)
    return json_answer(lesson_answer(ex))


@router.get("/lesson", response_model=LessonAnswer)
async def lesson_get(params: Annotated[LessonQuery, Query()], request: Request) -> Response:
    """The lesson's explanation for a sentence, a focus, a mode and the lab's options."""
    return await on_toy(request, _explain, params)


@router.post("/lesson", response_model=LessonAnswer, responses=BODY_RESPONSES)
async def lesson_post(params: LessonBody, request: Request) -> Response:
    """The same as GET, from a JSON object whose edits are {"role": {"word": [numbers]}}."""
    return await on_toy(request, _explain, params)


def _sweep(params: SweepQuery) -> Response:
    plain = replace(params.options(), mode="scaled", axis="keys", temperature=None)
    run = lesson.compute(params.sentence, plain, head=params.head - 1)
    f = lesson.focus_index(run.trace.tokens, params.focus)
    ts = temperatures(params.t_min, params.t_max, steps=params.steps)
    return json_answer(SweepAnswer.model_validate(encode_sweep(sweep(run.trace, f, ts=ts))))


@router.get("/sweep", response_model=SweepAnswer)
async def sweep_temperatures(params: Annotated[SweepQuery, Query()], request: Request) -> Response:
    """The focus row of one head (with the lesson's positions, mask and edits) per T."""
    return await on_toy(request, _sweep, params)


def _shuffle(params: ShuffleQuery) -> Response:
    checks = shuffle_every_kind(params.sentence, params.options(), seed=params.seed)
    answers = {k: shuffle_answer(c) for k, c in checks.items()}
    return json_answer(ShuffleAnswer(seed=params.seed, kinds=list(KINDS), **answers))


@router.get("/shuffle", response_model=ShuffleAnswer)
async def shuffle(params: Annotated[ShuffleQuery, Query()], request: Request) -> Response:
    """One shuffle of the sentence's words under every positional scheme."""
    return await on_toy(request, _shuffle, params)


def _cost(params: CostQuery) -> Response:
    """Run in the measuring child (apart.py: tracemalloc beside other work miscounts and can
    crash its process)."""
    n = sizes(params.max_n, per_octave=params.per_octave)
    kv = measured_kv_cache(params.d) if params.kv_cache else None
    return json_answer(CostAnswer.model_validate(encode_cost(measure(n, d=params.d), kv)))


@router.get("/cost", response_model=CostAnswer, responses=BUSY_RESPONSES)
async def cost(params: Annotated[CostQuery, Query()], request: Request) -> Response:
    """Measured time and memory of one attention head against n, and the fitted curves.

    Heavy work (a few seconds): it answers 503 when the heavy queue is full.
    """
    return await on_measure(request, _cost, params)


@cache
def _lab() -> Response:
    return json_answer(lab_answer())


@router.get("/lab", response_model=LabAnswer)
async def lab(params: Annotated[NoParams, Query()]) -> Response:
    """The lab's choices and limits."""
    return _lab()
