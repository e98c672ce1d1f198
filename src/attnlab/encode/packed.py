"""Arrays as compact JSON: base64 of their bytes, not nested lists of decimal numbers.

A real model's head at 2,048 tokens holds millions of numbers; as JSON lists they weigh tens of
megabytes. Two forms cross to the page instead, each an object {dtype, shape, data, scale}:

* "float32": the array's float32 bytes, little-endian, base64. Exact to float32, and -inf
  (a masked score) and NaN travel as themselves.
* "uint16": values in [0, 1] (attention weights) as round(w / scale), scale = 1 / 65535, so a
  decoded weight is within scale / 2 ≈ 7.6e-6 of the true one. Half the bytes of float32.

The page decodes both with a typed array over the decoded bytes (static/packed.js);
`unpack` is the same reading in Python, for the tests.
"""

from __future__ import annotations

import base64
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from attnlab.encode.arrays import encode_array

__all__ = ["UINT16_STEP", "Packed", "pack_float32", "pack_uint16", "unpack", "unpacked"]

UINT16_STEP = 1.0 / 65535
"""The quantization step of the uint16 form: a weight is off by at most half of it."""

Packed = dict[str, Any]
PackedKind = Literal["float32", "uint16"]


def pack_float32(a: npt.ArrayLike) -> Packed:
    """Any real array as its float32 bytes (little-endian), base64."""
    x = np.ascontiguousarray(a, dtype="<f4")
    return {"dtype": "float32", "shape": list(x.shape), "data": _b64(x), "scale": None}


def pack_uint16(a: npt.ArrayLike) -> Packed:
    """Values in [0, 1] (clipped; NaN as 0) quantized to 16 bits: code = round(w / UINT16_STEP)."""
    x = np.nan_to_num(np.asarray(a, dtype=np.float64), nan=0.0)
    codes = np.rint(np.clip(x, 0.0, 1.0) * 65535).astype("<u2")
    shape = list(codes.shape)
    return {"dtype": "uint16", "shape": shape, "data": _b64(codes), "scale": UINT16_STEP}


def unpack(p: Packed) -> npt.NDArray[np.float64]:
    """The array a packed object holds, as float64 (uint16 codes times their scale)."""
    raw = base64.b64decode(p["data"])
    if p["dtype"] == "float32":
        return np.frombuffer(raw, dtype="<f4").astype(np.float64).reshape(p["shape"])
    codes = np.frombuffer(raw, dtype="<u2").astype(np.float64)
    return (codes * float(p["scale"])).reshape(p["shape"])


def _b64(x: np.ndarray) -> str:
    return base64.b64encode(x.tobytes()).decode("ascii")


def unpacked(value: Any) -> Any:
    """`value` with every packed object in it (at any depth) as nested lists of floats: the
    plain JSON a reader without packed.js gets (the CLI's --json), -inf and NaN named."""
    if isinstance(value, dict):
        if set(value) == {"dtype", "shape", "data", "scale"}:
            return encode_array(unpack(value))
        return {k: unpacked(v) for k, v in value.items()}
    if isinstance(value, list):
        return [unpacked(v) for v in value]
    return value
