"""The core: equation (1) of "Attention Is All You Need" and what is read off it, in NumPy only.

attention.py (attend, masks, heads) returns a frozen Trace (trace.py); softmax.py and
saturation.py measure its rows; positions.py adds word order; cost.py times it against n.
Nothing here knows JSON, words, the toy lesson or a model.
"""

from attnlab.core.attention import attend, causal_mask, merge_heads, self_attend, split_heads
from attnlab.core.softmax import entropy_bits, softmax
from attnlab.core.trace import Trace

__all__ = [
    "Trace",
    "attend",
    "causal_mask",
    "entropy_bits",
    "merge_heads",
    "self_attend",
    "softmax",
    "split_heads",
]
