"""Two GGUF block formats decoded in whole-tensor NumPy passes: Q4_1 and Q8_0.

SmolLM2-135M-Instruct.Q4_1.gguf stores 210 of its matrices as Q4_1 and its embedding as Q8_0.
The `gguf` package decodes every format, but 16 rows at a time (2.0 of the 3.3 s a load took);
these two formats are simple enough to decode in a few passes over the whole tensor, to the same
float32 numbers (tests/models/test_gguf_quants.py compares them with `gguf.quants.dequantize`
bit for bit). Any other format still goes through `gguf.quants`.

    Q4_1, 20 bytes per 32 weights: d, m (float16), then 16 bytes of 4-bit q, the low nibbles
          weights 0..15 and the high ones 16..31:    w = d · q + m
    Q8_0, 34 bytes per 32 weights: d (float16), then 32 signed bytes q:   w = d · q
"""

from __future__ import annotations

import numpy as np

from attnlab.types import FloatArray

__all__ = ["BLOCK", "FAST", "dequantize_fast"]

BLOCK = 32
"""Weights per block in both formats."""

_Q4_1 = np.dtype([("d", "<f2"), ("m", "<f2"), ("qs", "u1", (BLOCK // 2,))])  # 20 bytes
_Q8_0 = np.dtype([("d", "<f2"), ("qs", "i1", (BLOCK,))])  # 34 bytes

FAST = {3: _Q4_1, 8: _Q8_0}
"""ggml type number -> block layout, for the formats decoded here (GGMLQuantizationType)."""


def dequantize_fast(raw: np.ndarray, ggml_type: int, count: int) -> FloatArray:
    """`count` float32 weights from the bytes `raw` of a Q4_1 (3) or Q8_0 (8) tensor, flat."""
    blocks = np.frombuffer(raw, dtype=FAST[ggml_type], count=count // BLOCK)  # (b,) no copy
    d = blocks["d"].astype(np.float32)[:, None, None]  # (b, 1, 1) each block's scale
    out = np.empty((blocks.shape[0], 2, BLOCK // 2), dtype=np.float32)  # (b, 2, 16)
    if ggml_type == 3:
        qs = blocks["qs"]  # (b, 16) two 4-bit weights per byte
        np.bitwise_and(qs, 0x0F, out=out[:, 0], casting="unsafe")  # (b, 16) weights 0..15
        np.right_shift(qs, 4, out=out[:, 1], casting="unsafe")  # (b, 16) weights 16..31
        out *= d
        out += blocks["m"].astype(np.float32)[:, None, None]  # w = d q + m
    else:
        out.reshape(-1, BLOCK)[:] = blocks["qs"]  # (b, 32) int8 -> float32
        out *= d  # w = d q
    return out.reshape(-1)
