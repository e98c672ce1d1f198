"""attnlab: scaled dot-product attention, softmax(QKᵀ/√dₖ)V, step by step.

The core is `attend` (one head or many, every intermediate kept in a `Trace`); `lesson` holds
the hand-set toy head of the seed lesson; `Explanation` adds the six narrated beats.
`load_model("minilm")` runs a real pretrained encoder through the same `attend` (it needs the
`models` extra, imported only when called).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from attnlab.attention import attend, causal_mask, merge_heads, self_attend, split_heads
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
from attnlab.explain import Explanation, explain_lesson
from attnlab.softmax import entropy_bits, softmax
from attnlab.trace import Trace

if TYPE_CHECKING:
    from attnlab.models import BertEncoder

__all__ = [
    "AttnlabError",
    "EmptySequenceError",
    "Explanation",
    "FocusError",
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
    "self_attend",
    "softmax",
    "split_heads",
]
__version__ = "0.1.0"


def load_model(name_or_path: str | os.PathLike[str] = "minilm") -> BertEncoder:
    """A real encoder by name ("minilm") or from a Hugging Face-layout folder (attnlab.models)."""
    from attnlab.models import load_model as load

    return load(name_or_path)
