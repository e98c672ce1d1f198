"""The toy lesson's routes: its explanation with the lab's options, and the lab's plots.

    GET  /api/presets  the presets, the vocabulary, the modes, the limits and the page's words
    GET  /api/lesson   the explanation (parameters: requests_lesson.LessonQuery)
    POST /api/lesson   the same from a JSON object, edits as an object (LessonBody)
    GET  /api/sweep    the focus row per temperature (SweepQuery)
    GET  /api/shuffle  one shuffle under every positions kind (ShuffleQuery)
    GET  /api/cost     time and memory of attention against n, and the key/value cache's
                       one new row against recomputing n × n (CostQuery)
    GET  /api/lab      the lab's choices and limits

Each handler is a plain function (FastAPI runs it in its thread pool) that turns its request
model into the lesson's options, runs the lesson and validates the encoder's dict into the
declared answer (schemas_lesson.py, schemas_trace.py).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Annotated

from fastapi import APIRouter, Query

from attnlab import lesson
from attnlab.core.cost import DEFAULT_MAX_N, MAX_N, D, measure, measured_kv_cache, sizes
from attnlab.core.positions import KINDS
from attnlab.core.saturation import T_MAX, T_MIN, T_STEPS, sweep, temperatures
from attnlab.encode.lesson_json import encode_lesson, encode_shuffle
from attnlab.encode.trace_json import encode_cost, encode_sweep
from attnlab.lesson.edits import FIELDS, LIMIT
from attnlab.lesson.shuffle import shuffle_every_kind
from attnlab.types import AXES, MODES
from attnlab.web.error_replies import ERROR_RESPONSES
from attnlab.web.requests_lesson import (
    CostQuery,
    LessonBody,
    LessonParams,
    LessonQuery,
    NoParams,
    ShuffleQuery,
    SweepQuery,
)
from attnlab.web.schemas_lesson import LabAnswer, LessonAnswer, PresetsAnswer, ShuffleAnswer
from attnlab.web.schemas_trace import CostAnswer, SweepAnswer
from attnlab.words.page import BEAT_TITLES, MODE_CHOICES, PAGE_WORDS

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["lesson"], responses=ERROR_RESPONSES)


@router.get("/presets")
def presets(params: Annotated[NoParams, Query()]) -> PresetsAnswer:
    """The presets, the vocabulary, the modes and the limits, and the page's fixed words."""
    return PresetsAnswer.model_validate(
        {
            "presets": [
                {"name": p.name, "sentence": p.sentence, "focus": p.focus, "blurb": p.blurb}
                for p in lesson.PRESETS
            ],
            "vocabulary": sorted(lesson.VOCABULARY),
            "dim_names": list(lesson.DIM_NAMES),
            "modes": list(MODES),
            "axes": list(AXES),
            "max_tokens": lesson.MAX_TOKENS,
            "choices": {
                "modes": [{"value": v, "label": lab, "help": h} for v, lab, h in MODE_CHOICES],
                "axes": list(AXES),
                "positions": list(KINDS),
                "beats": [{"key": k, "title": t} for k, t in BEAT_TITLES],
            },
            "words": dict(PAGE_WORDS),
        }
    )


def _explain(params: LessonParams) -> LessonAnswer:
    ex = lesson.explain_lesson(params.sentence, params.options(), focus=params.focus)
    return LessonAnswer.model_validate(encode_lesson(ex))


@router.get("/lesson")
def lesson_get(params: Annotated[LessonQuery, Query()]) -> LessonAnswer:
    """The lesson's explanation for a sentence, a focus, a mode and the lab's options."""
    return _explain(params)


@router.post("/lesson")
def lesson_post(params: LessonBody) -> LessonAnswer:
    """The same as GET, from a JSON object whose edits are {"role": {"word": [numbers]}}."""
    return _explain(params)


@router.get("/sweep")
def sweep_temperatures(params: Annotated[SweepQuery, Query()]) -> SweepAnswer:
    """The focus row of one head (with the lesson's positions, mask and edits) per T."""
    plain = replace(params.options(), mode="scaled", axis="keys", temperature=None)
    run = lesson.compute(params.sentence, plain, head=params.head - 1)
    f = lesson.focus_index(run.trace.tokens, params.focus)
    ts = temperatures(params.t_min, params.t_max, steps=params.steps)
    return SweepAnswer.model_validate(encode_sweep(sweep(run.trace, f, ts=ts)))


@router.get("/shuffle")
def shuffle(params: Annotated[ShuffleQuery, Query()]) -> ShuffleAnswer:
    """One shuffle of the sentence's words under every positional scheme."""
    checks = shuffle_every_kind(params.sentence, params.options(), seed=params.seed)
    encoded = {k: encode_shuffle(c) for k, c in checks.items()}
    return ShuffleAnswer.model_validate({"seed": params.seed, "kinds": list(KINDS), **encoded})


@router.get("/cost")
def cost(params: Annotated[CostQuery, Query()]) -> CostAnswer:
    """Measured time and memory of one attention head against n, and the fitted curves."""
    n = sizes(params.max_n, per_octave=params.per_octave)
    kv = measured_kv_cache(params.d) if params.kv_cache else None  # measured once per d
    return CostAnswer.model_validate(encode_cost(measure(n, d=params.d), kv))


@router.get("/lab")
def lab(params: Annotated[NoParams, Query()]) -> LabAnswer:
    """The lab's choices and limits."""
    return LabAnswer.model_validate(
        {
            "positions": list(KINDS),
            "heads": [1, 2],
            "head_names": [h.name for h in lesson.HEADS],
            "temperature": {
                "min": T_MIN,
                "max": T_MAX,
                "steps": T_STEPS,
                "sqrt_d_k": math.sqrt(lesson.D_MODEL),
            },
            "edit_limit": LIMIT,
            "edit_params": {name: role for role, name in FIELDS.items()},
            "sinusoidal_scale": lesson.SINUSOIDAL_SCALE,
            "rope_speed": lesson.ROPE_SPEED,
            "cost": {"max_n": MAX_N, "d": D, "default_max_n": DEFAULT_MAX_N},
        }
    )
