"""A decoder layer's attention under any key mask, in blocks of query rows, through `attend`.

causal_blocks.py computes the causal mask's blocks fast; a sliding window, sinks or any other
rule (a `KeyMask`: the rows asked → which keys each sees) goes here: query rows r0..r1 against
keys 0..r1 (every rule here sees no key after its query), the mask of those rows, one `attend`
per block with query head i reading key/value head i // g. Peak memory is a block's
(h, block, r1) arrays, never (h, n, n).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from attnlab.core.attention import attend
from attnlab.core.grouped import kv_heads
from attnlab.errors import MaskError
from attnlab.types import BoolArray, FloatArray

__all__ = ["BLOCK_ROWS", "KeyMask", "attend_masked"]

BLOCK_ROWS = 128

KeyMask = Callable[[int, slice], BoolArray]
"""(n, rows) → (rows, n) booleans: True where a query row may see a key."""


def attend_masked(
    q: FloatArray, k: FloatArray, v: FloatArray, key_mask: KeyMask, *, block: int = BLOCK_ROWS
) -> FloatArray:
    """softmax(q kᵀ / √d_k + mask) v of q (h, n, d_k) over k, v (h_kv, n, d): (h, n, d_v)."""
    h, n = q.shape[0], q.shape[1]
    index = kv_heads(h, k.shape[0])  # (h,)
    k_h, v_h = k[index], v[index]  # (h, n, d) each query head's keys and values
    out = np.empty((h, n, v.shape[-1]), dtype=np.result_type(q, v))  # (h, n, d_v)
    for r0 in range(0, n, block):
        r1 = min(n, r0 + block)
        allowed = key_mask(n, slice(r0, r1))  # (nb, n)
        if allowed[:, r1:].any():
            raise MaskError("a key mask here must not show a query the keys after it")
        out[:, r0:r1] = attend(q[:, r0:r1], k_h[:, :r1], v_h[:, :r1],
                               mask=allowed[:, :r1]).outputs  # fmt: skip
    out.flags.writeable = False
    return out
