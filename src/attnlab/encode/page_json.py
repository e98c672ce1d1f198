"""The page's fixed payloads as plain dicts: the presets and words, and the lab's limits.

The web page asks `/api/presets` and `/api/lab` for these; a host without a
server (the notebook widget, a standalone file) puts the same dicts on its model as "presets",
"choices", "words" and "lab". tests/encode/test_page_json.py checks they equal what the
routes answer, so the two hosts cannot drift apart.
"""

from __future__ import annotations

import math
from typing import Any

from attnlab import lesson
from attnlab.core.cost import DEFAULT_MAX_N, MAX_N, D
from attnlab.core.positions import KINDS
from attnlab.core.saturation import T_MAX, T_MIN, T_STEPS
from attnlab.lesson.edits import FIELDS, LIMIT
from attnlab.types import AXES, MODES
from attnlab.words.page import BEAT_TITLES, MODE_CHOICES, PAGE_WORDS

__all__ = ["encode_lab", "encode_presets"]


def encode_presets() -> dict[str, Any]:
    """The presets, the vocabulary, the modes, the limits, the choices and the page's words."""
    return {
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


def encode_lab() -> dict[str, Any]:
    """The lab's choices and limits."""
    return {
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
