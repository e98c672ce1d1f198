"""attnlab: scaled dot-product attention, softmax(QKᵀ/√dₖ)V, step by step.

The package follows the data flow, one folder a stage:

    core/     attend(q, k, v) -> Trace: every intermediate, NumPy only
    words/    every sentence a learner reads: the six beats, the lab's notes, numbers
    lesson/   the seed's hand-set toy head, its options (LessonOptions) and lab experiments
    models/   real pretrained transformers run through the same attend
    encode/   JSON (the API's declared contract) and terminal text
    web/, widget/, cli/  the hosts: the local web app, the notebook widget, the `attnlab` command

`explain_lesson(sentence, LessonOptions(...), focus=...)` is the toy's explanation;
`load_model("minilm")` runs a real encoder (it needs the `models` extra, imported when called);
`show(...)` is the notebook widget (the `notebook` extra) for either, or for attention weights
from any library; `save(obj, path)` writes any of them to a file (.html, .json, .csv, .svg).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from attnlab.core.attention import attend, causal_mask, merge_heads, self_attend, split_heads
from attnlab.core.softmax import entropy_bits, softmax
from attnlab.core.trace import Trace
from attnlab.errors import (
    AttnlabError,
    EmptySequenceError,
    FocusError,
    MaskError,
    NonFiniteError,
    ShapeError,
    TooLongError,
    UnknownHeadError,
    UnknownModeError,
    UnknownModelError,
    UnknownWordError,
    WeightsError,
)
from attnlab.lesson.explain import LessonExplanation, explain_lesson
from attnlab.lesson.options import LessonOptions
from attnlab.words.explanation import Explanation

if TYPE_CHECKING:
    from pathlib import Path

    from attnlab.core.attention_maps import AttentionMaps
    from attnlab.models import Model, ModelTrace
    from attnlab.widget.show import Widget

__all__ = [
    "AttnlabError",
    "EmptySequenceError",
    "Explanation",
    "FocusError",
    "LessonExplanation",
    "LessonOptions",
    "MaskError",
    "NonFiniteError",
    "ShapeError",
    "TooLongError",
    "Trace",
    "UnknownHeadError",
    "UnknownModeError",
    "UnknownModelError",
    "UnknownWordError",
    "WeightsError",
    "attend",
    "causal_mask",
    "entropy_bits",
    "explain_lesson",
    "load_model",
    "merge_heads",
    "save",
    "self_attend",
    "show",
    "softmax",
    "split_heads",
]
__version__ = "0.1.0"


def load_model(name_or_path: str | os.PathLike[str] = "minilm") -> Model:
    """A real encoder by name ("minilm") or from a Hugging Face-layout folder (attnlab.models)."""
    from attnlab.models import load_model as load

    return load(name_or_path)


def save(
    obj: LessonExplanation | ModelTrace | AttentionMaps,
    path: str | os.PathLike[str],
    **options: Any,
) -> Path:
    """Write a lesson, a real model's trace or attention weights from elsewhere to `path`, in
    the format its suffix names (or `format=`); returns the path. A lesson or a trace saves as
    .html (one page that works offline), .json, .csv (every score and weight; one head's matrix
    with `table="matrix"`) or .svg (one beat, needs `node`); weights from elsewhere as .csv or
    .json. `options` (attnlab.export.save): format, table, beat, layer, head, focus."""
    from attnlab.export import save as save_file  # the exports sit above every input: lazily

    return save_file(obj, path, **options)


def show(*args: Any, **kwargs: Any) -> Widget:
    """A notebook widget for a lesson, a model's trace, or attention weights (attnlab.widget)."""
    try:
        import anywidget  # noqa: F401
    except ImportError:
        raise ImportError(
            "attnlab.show needs the notebook extra: pip install 'attnlab[notebook]'"
        ) from None
    from attnlab.widget import show as show_widget

    return show_widget(*args, **kwargs)
