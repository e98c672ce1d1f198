"""Grouped-query attention: several query heads share one key/value head.

Follows "GQA" (Ainslie et al., 2023) as Llama-family models compute it (transformers'
`repeat_kv`): with h query heads and h_kv key/value heads, h_kv dividing h, consecutive groups of
g = h / h_kv query heads read the same keys and values,

    kv_head(i) = i // g,      so head i attends with keys[kv_head(i)] and values[kv_head(i)].

Multi-head attention is the case h_kv = h (g = 1, BERT); multi-query attention is h_kv = 1.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from attnlab.errors import ShapeError, UnknownHeadError

__all__ = ["group_size", "kv_head", "kv_heads"]


def group_size(n_heads: int, n_kv_heads: int) -> int:
    """g = h / h_kv, the number of query heads per key/value head; ShapeError if it is not whole."""
    if n_heads < 1 or n_kv_heads < 1 or n_heads % n_kv_heads:
        raise ShapeError(
            f"{n_heads} query heads cannot share {n_kv_heads} key/value heads evenly: "
            "the key/value heads must divide the query heads"
        )
    return n_heads // n_kv_heads


def kv_head(head: int, *, n_heads: int, n_kv_heads: int) -> int:
    """The key/value head that query head `head` reads: head // (n_heads / n_kv_heads)."""
    g = group_size(n_heads, n_kv_heads)
    if not 0 <= head < n_heads:
        raise UnknownHeadError(f"head {head} is outside 0..{n_heads - 1}")
    return head // g


def kv_heads(n_heads: int, n_kv_heads: int) -> npt.NDArray[np.intp]:
    """The map for every query head at once, (h,): [0, 0, 0, 1, 1, 1, 2, 2, 2] for 9 over 3."""
    return np.arange(n_heads) // group_size(n_heads, n_kv_heads)  # (h,)
