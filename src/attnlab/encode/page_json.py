"""The page's fixed answers, built as their declared models: the presets and words, and the
lab's limits.

The web page asks `/api/presets` and `/api/lab` for these (`presets_answer`, `lab_answer`); a
host without a server (the notebook widget, a standalone file) puts the same answers, as plain
dicts (`encode_presets`, `encode_lab`), on its model as "presets", "choices", "words" and
"lab". tests/encode/test_page_json.py checks they equal what the routes answer, so the two
hosts cannot drift apart.
"""

from __future__ import annotations

import math
from typing import Any

from attnlab import lesson
from attnlab.core.cost import DEFAULT_MAX_N, MAX_N, D
from attnlab.core.positions import KINDS
from attnlab.core.saturation import T_MAX, T_MIN, T_STEPS
from attnlab.encode.answers_lesson import (
    BeatChoice,
    ChoicesAnswer,
    CostLimits,
    LabAnswer,
    ModeChoice,
    PresetAnswer,
    PresetsAnswer,
    TemperatureRange,
)
from attnlab.lesson.edits import FIELDS, LIMIT
from attnlab.types import AXES, MODES
from attnlab.words.page import BEAT_TITLES, MODE_CHOICES, PAGE_WORDS

__all__ = ["encode_lab", "encode_presets", "lab_answer", "presets_answer"]


def presets_answer() -> PresetsAnswer:
    """The presets, the vocabulary, the modes, the limits, the choices and the page's words."""
    return PresetsAnswer(
        presets=[
            PresetAnswer(name=p.name, sentence=p.sentence, focus=p.focus, blurb=p.blurb)
            for p in lesson.PRESETS
        ],
        vocabulary=sorted(lesson.VOCABULARY),
        dim_names=list(lesson.DIM_NAMES),
        modes=list(MODES),
        axes=list(AXES),
        max_tokens=lesson.MAX_TOKENS,
        choices=ChoicesAnswer(
            modes=[ModeChoice(value=v, label=lab, help=h) for v, lab, h in MODE_CHOICES],
            axes=list(AXES),
            positions=list(KINDS),
            beats=[BeatChoice(key=k, title=t) for k, t in BEAT_TITLES],
        ),
        words=dict(PAGE_WORDS),
    )


def lab_answer() -> LabAnswer:
    """The lab's choices and limits."""
    return LabAnswer(
        positions=list(KINDS),
        heads=[1, 2],
        head_names=[h.name for h in lesson.HEADS],
        temperature=TemperatureRange(
            min=T_MIN, max=T_MAX, steps=T_STEPS, sqrt_d_k=math.sqrt(lesson.D_MODEL)
        ),
        edit_limit=LIMIT,
        edit_params={name: role for role, name in FIELDS.items()},
        sinusoidal_scale=lesson.SINUSOIDAL_SCALE,
        rope_speed=lesson.ROPE_SPEED,
        cost=CostLimits(max_n=MAX_N, d=D, default_max_n=DEFAULT_MAX_N),
    )


def encode_presets() -> dict[str, Any]:
    """`presets_answer()` as a plain dict."""
    return presets_answer().model_dump(mode="json")


def encode_lab() -> dict[str, Any]:
    """`lab_answer()` as a plain dict."""
    return lab_answer().model_dump(mode="json")
