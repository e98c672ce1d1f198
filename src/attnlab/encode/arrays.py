"""Numbers and arrays as JSON: JSON has no NaN or infinity, so they are spelled out.

A non-finite float is written as the string "inf", "-inf" or "nan" (a masked score is "-inf");
matrices are lists of rows. `decode_number` and `decode_array` read them back, as the page's
format.js does.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["JsonNumber", "decode_array", "decode_number", "encode_array", "encode_number"]

JsonNumber = float | str
"""A float, or one of "inf", "-inf", "nan" where JSON has no number for it."""

_NON_FINITE = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}


def encode_number(x: float) -> JsonNumber:
    """A JSON-safe number: the float itself when finite, otherwise its name."""
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return float(x)


def decode_number(x: JsonNumber) -> float:
    """The inverse of `encode_number`."""
    return _NON_FINITE[x] if isinstance(x, str) else float(x)


def encode_array(a: np.ndarray) -> Any:
    """Nested lists (matrices as lists of rows) with non-finite floats named."""
    if a.dtype == np.bool_:
        return a.tolist()
    if a.ndim == 0:
        return encode_number(float(a))
    if np.isfinite(a).all():
        return a.astype(np.float64).tolist()  # the common case, without a Python loop per number
    return [encode_array(row) for row in a]


def decode_array(x: Any, *, dtype: type = np.float64) -> np.ndarray:
    """The inverse of `encode_array`."""
    if dtype is np.bool_:
        return np.asarray(x, dtype=np.bool_)

    def walk(y: Any) -> Any:
        return [walk(e) for e in y] if isinstance(y, list) else decode_number(y)

    return np.asarray(walk(x), dtype=dtype)
