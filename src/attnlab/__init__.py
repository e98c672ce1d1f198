"""attnlab: scaled dot-product attention, softmax(QKᵀ/√dₖ)V, step by step.

The core is `attend` (one head or many, every intermediate kept in a `Trace`); `lesson` holds
the hand-set toy head of the seed lesson; `Explanation` adds the six narrated beats.
"""

from attnlab.attention import attend, causal_mask, merge_heads, self_attend, split_heads
from attnlab.errors import (
    AttnlabError,
    EmptySequenceError,
    FocusError,
    MaskError,
    NonFiniteError,
    ShapeError,
    TooLongError,
    UnknownModeError,
    UnknownWordError,
)
from attnlab.explain import Explanation, explain_lesson
from attnlab.softmax import entropy_bits, softmax
from attnlab.trace import Trace

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
    "UnknownModeError",
    "UnknownWordError",
    "attend",
    "causal_mask",
    "entropy_bits",
    "explain_lesson",
    "merge_heads",
    "self_attend",
    "softmax",
    "split_heads",
]
__version__ = "0.1.0"
