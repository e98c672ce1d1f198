"""The toy lesson: the seed's hand-set 4-dimensional head and the lab's experiments on it.

toy.py holds the vocabulary, the hand-set heads and the presets; options.py the one options
object; compute.py runs a head; edits.py, shuffle.py are lab experiments; explain.py puts
it all together as a `LessonExplanation`.
"""

from attnlab.lesson.compute import LessonRun, compute, concat_outputs, run
from attnlab.lesson.edits import Edits
from attnlab.lesson.explain import LessonExplanation, LessonNotes, explain_lesson
from attnlab.lesson.options import LessonOptions
from attnlab.lesson.toy import (
    D_MODEL,
    DEFAULT_SENTENCE,
    DIM_NAMES,
    HEADS,
    MAX_TOKENS,
    PRESETS,
    ROPE_SPEED,
    SINUSOIDAL_SCALE,
    VOCABULARY,
    W_K,
    W_Q,
    W_V,
    Head,
    Preset,
    embed,
    focus_index,
    tokenize,
)

__all__ = [
    "DEFAULT_SENTENCE",
    "DIM_NAMES",
    "D_MODEL",
    "HEADS",
    "MAX_TOKENS",
    "PRESETS",
    "ROPE_SPEED",
    "SINUSOIDAL_SCALE",
    "VOCABULARY",
    "W_K",
    "W_Q",
    "W_V",
    "Edits",
    "Head",
    "LessonExplanation",
    "LessonNotes",
    "LessonOptions",
    "LessonRun",
    "Preset",
    "compute",
    "concat_outputs",
    "embed",
    "explain_lesson",
    "focus_index",
    "run",
    "tokenize",
]
