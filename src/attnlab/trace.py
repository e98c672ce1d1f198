"""The Trace: every intermediate of one attention computation, frozen, plus its JSON form.

A Trace is what `attend` returns. It holds the paper's quantities for one head (or a stack of
heads, as leading dimensions): Q, K, V, the raw scores QKᵀ, the scores that enter the softmax,
the weights W and the outputs Z = WV. Row i, column j of a score or weight matrix always means
query token i attends to key token j.

JSON has no NaN or infinity, so `to_dict` writes non-finite numbers as the strings "inf",
"-inf" and "nan" (a masked score is "-inf"); `from_dict` and the front end read them back.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from attnlab.types import Axis, BoolArray, FloatArray, Mode

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
    return [encode_array(row) for row in a]


def decode_array(x: Any, *, dtype: type = np.float64) -> np.ndarray:
    """The inverse of `encode_array`."""
    if dtype is np.bool_:
        return np.asarray(x, dtype=np.bool_)

    def walk(y: Any) -> Any:
        return [walk(e) for e in y] if isinstance(y, list) else decode_number(y)

    return np.asarray(walk(x), dtype=dtype)


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.array(a)  # a private copy, so the caller's array can change without touching ours
    a.flags.writeable = False
    return a


_ARRAYS = ("embeddings", "queries", "keys", "values", "raw_scores", "scores", "weights", "outputs")


@dataclass(frozen=True)
class Trace:
    """One attention computation, every step kept. Shapes for one head:

    queries (n, d_k), keys (m, d_k), values (m, d_v), raw_scores/scores/weights (n, m),
    outputs (n, d_v), mask (n, m) or None, embeddings (n, d_model) or None. A stack of heads
    adds the same leading dimensions to every array but `embeddings`.
    """

    tokens: tuple[str, ...]
    queries: FloatArray
    keys: FloatArray
    values: FloatArray
    raw_scores: FloatArray  # QKᵀ, before any scaling
    scores: FloatArray  # what enters the softmax: QKᵀ/divisor, -inf where masked
    weights: FloatArray  # softmax(scores): rows sum to 1 when axis == "keys"
    outputs: FloatArray  # weights @ values
    mode: Mode
    d_k: int
    divisor: float  # √dₖ (scaled), 1 (unscaled) or inf (uniform: the scores are ignored)
    axis: Axis = "keys"
    mask: BoolArray | None = None
    embeddings: FloatArray | None = None
    dim_names: tuple[str, ...] | None = None  # names of the embedding/value dimensions, if known
    key_tokens: tuple[str, ...] | None = field(default=None)  # when keys differ from queries
    temperature: float | None = None  # when set, the divisor is this T instead of √dₖ

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, np.ndarray):
                object.__setattr__(self, f.name, _frozen(value))

    @property
    def n(self) -> int:
        """The number of query tokens."""
        return int(self.queries.shape[-2])

    @property
    def columns(self) -> tuple[str, ...]:
        """The key tokens, i.e. the column labels of the score and weight matrices."""
        return self.key_tokens if self.key_tokens is not None else self.tokens

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; matrices are lists of rows, non-finite numbers are named."""
        out: dict[str, Any] = {
            "tokens": list(self.tokens),
            "mode": self.mode,
            "axis": self.axis,
            "d_k": self.d_k,
            "divisor": encode_number(self.divisor),
            "temperature": self.temperature,
            "dim_names": list(self.dim_names) if self.dim_names is not None else None,
            "key_tokens": list(self.key_tokens) if self.key_tokens is not None else None,
            "mask": self.mask.tolist() if self.mask is not None else None,
        }
        for name in _ARRAYS:
            value = getattr(self, name)
            out[name] = encode_array(value) if value is not None else None
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Trace:
        """Rebuild a Trace from `to_dict`'s output (arrays come back as float64)."""

        def opt_tuple(x: Sequence[str] | None) -> tuple[str, ...] | None:
            return tuple(x) if x is not None else None

        arrays = {
            name: decode_array(data[name]) if data.get(name) is not None else None
            for name in _ARRAYS
        }
        mask = data.get("mask")
        return cls(
            tokens=tuple(data["tokens"]),
            mode=data["mode"],
            axis=data.get("axis", "keys"),
            d_k=int(data["d_k"]),
            divisor=decode_number(data["divisor"]),
            temperature=data.get("temperature"),
            dim_names=opt_tuple(data.get("dim_names")),
            key_tokens=opt_tuple(data.get("key_tokens")),
            mask=np.asarray(mask, dtype=np.bool_) if mask is not None else None,
            **arrays,  # type: ignore[arg-type]
        )
