"""Scaled dot-product attention, softmax(QKᵀ/√dₖ)V, with every intermediate returned.

Follows "Attention Is All You Need" (Vaswani et al., 2017), section 3.2.1, equation (1):

    Attention(Q, K, V) = softmax(QKᵀ / √dₖ) V

`attend` is that equation in three numbered moves (score, softmax, blend) and returns a
`Trace`. Two diagnostic modes break it on purpose: "unscaled" drops the √dₖ and "uniform"
ignores the scores, giving every unmasked key the same weight. A `temperature` T turns the
divisor into a continuous knob, softmax(QKᵀ/T): T = √dₖ is the paper's rule, T = 1 is
"unscaled", T → 0 approaches the hard argmax lookup and T → ∞ the uniform row. `self_attend`
adds the projection step (Q = XW_Q, K = XW_K, V = XW_V); `split_heads` and `merge_heads` cut a model
dimension into heads and join them back, as multi-head attention does.

Arrays may carry leading dimensions (heads, batch): q (..., n, d_k), k (..., m, d_k),
v (..., m, d_v). A mask is boolean, broadcastable to (..., n, m), True where attending is allowed
(the same convention as torch.nn.functional.scaled_dot_product_attention).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from attnlab.core.checks import as_float, labels, whole_number
from attnlab.core.softmax import stable_softmax
from attnlab.core.trace import Trace
from attnlab.errors import (
    EmptySequenceError,
    MaskError,
    NonFiniteError,
    ScoreOverflowError,
    ShapeError,
    TemperatureError,
    UnknownModeError,
)
from attnlab.types import AXES, MODES, Axis, BoolArray, FloatArray, Mode

__all__ = [
    "attend",
    "causal_mask",
    "check_temperature",
    "merge_heads",
    "self_attend",
    "split_heads",
]

MAX_MASK = 16_384
"""The largest n `causal_mask` builds: n² booleans, 256 MiB at this size."""


def attend(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    v: npt.ArrayLike,
    *,
    mode: Mode = "scaled",
    mask: npt.ArrayLike | None = None,
    axis: Axis = "keys",
    temperature: float | None = None,
    tokens: Sequence[str] | None = None,
    key_tokens: Sequence[str] | None = None,
    check_finite: bool = True,
    cap: float | None = None,
) -> Trace:
    """Attend queries `q` to keys `k` and blend values `v`; return every step as a Trace.

    `tokens` label the query rows (default "0", "1", ...); `key_tokens` label the key columns
    when they differ. `axis="queries"` normalises down the columns instead of across the
    rows: the common mistake, computed for real so that it can be shown. `temperature`, with
    mode "scaled" only, replaces √dₖ as the divisor: softmax(QKᵀ/T). `cap` c soft-caps the
    scores before the mask, s → c · tanh(s / c), as Gemma 2 does (attn_logit_softcapping).
    """
    temperature = _check_options(mode, axis, temperature)
    q_, k_, v_ = _as_float(q, "queries"), _as_float(k, "keys"), _as_float(v, "values")
    _check_shapes(q_, k_, v_)
    if check_finite:
        for name, a in (("queries", q_), ("keys", k_), ("values", v_)):
            _check_finite(a, name)
    n, m, d_k = q_.shape[-2], k_.shape[-2], q_.shape[-1]
    allowed = _check_mask(mask, n, m)
    names = (
        labels(tokens, n, "tokens", per="queries")
        if tokens is not None
        else tuple(map(str, range(n)))
    )
    key_names = None if key_tokens is None else labels(key_tokens, m, "key_tokens", per="keys")
    if d_k == 0:
        raise ShapeError(
            f"queries and keys have width d_k = 0 (shapes {q_.shape}, {k_.shape}): "
            "there is nothing to compare, and √dₖ = 0 would divide by zero"
        )

    # 1. Score: how well each query matches each key, divided by the mode's divisor.
    raw = _raw_scores(q_, k_)  # (..., n, m) QKᵀ, in float64 where float32/16 would overflow
    scores, divisor = _scores(raw, mode=mode, d_k=d_k, temperature=temperature)  # (..., n, m)
    if cap is not None:  # soft-capping: every score into (−c, c), order kept
        c = scores.dtype.type(cap)
        np.multiply(np.tanh(scores / c), c, out=scores)  # (..., n, m) c · tanh(s / c)
    if allowed is not None:  # masked keys can never win; scores is this call's own array
        np.copyto(scores, -np.inf, where=~allowed)  # (..., n, m) in place

    # 2. Softmax: turn each row of scores into weights that sum to 1 (or each column, by mistake).
    weights = stable_softmax(scores, axis=-1 if axis == "keys" else -2)  # (..., n, m)

    # 3. Blend: each output is the weights' mixture of the values.
    outputs = weights @ v_  # (..., n, d_v)

    for fresh in (raw, scores, weights, outputs):  # computed here: the Trace keeps them uncopied
        fresh.flags.writeable = False

    return Trace(
        tokens=names,
        key_tokens=key_names,
        queries=q_,
        keys=k_,
        values=v_,
        raw_scores=raw,
        scores=scores,
        weights=weights,
        outputs=outputs,
        mode=mode,
        axis=axis,
        d_k=int(d_k),
        divisor=divisor,
        temperature=temperature,
        cap=cap,
        mask=None if allowed is None else np.broadcast_to(allowed, raw.shape),
    )


def _raw_scores(q: FloatArray, k: FloatArray) -> FloatArray:
    """QKᵀ (..., n, m) in the inputs' dtype; recomputed in float64 when that overflows.

    Finite float32 entries of 1e19 (or float16 entries of 100) give products beyond the dtype's
    largest number (3.4e38, 65504): the scores turn to ±inf and the softmax to NaN. float64 holds
    any product of finite float32 numbers; beyond float64 (entries near 1e154) no softmax can be
    computed, and ScoreOverflowError says so."""
    with np.errstate(over="ignore", invalid="ignore"):
        raw = q @ np.swapaxes(k, -1, -2)  # (..., n, m)
        if np.isfinite(raw).all():
            return raw
        raw = q.astype(np.float64) @ np.swapaxes(k, -1, -2).astype(np.float64)  # (..., n, m)
    if not np.isfinite(raw).all():
        raise ScoreOverflowError(
            f"the scores QKᵀ overflow even in float64 (queries up to {float(np.abs(q).max()):.3g}, "
            f"keys up to {float(np.abs(k).max()):.3g}): scale the vectors down"
        )
    return raw


def _check_options(mode: Mode, axis: Axis, temperature: float | None) -> float | None:
    """The temperature as a float (or None) once the mode and the axis are known ones."""
    if not isinstance(mode, str) or mode not in MODES:
        raise UnknownModeError(f"unknown mode {mode!r}: expected one of {', '.join(MODES)}")
    if not isinstance(axis, str) or axis not in AXES:
        raise UnknownModeError(
            f"unknown softmax axis {axis!r}: expected one of {', '.join(AXES)}", field="axis"
        )
    return None if temperature is None else check_temperature(temperature, mode=mode)


def _scores(
    raw: FloatArray, *, mode: Mode, d_k: int, temperature: float | None
) -> tuple[FloatArray, float]:
    """QKᵀ divided by the mode's divisor (√dₖ, 1, or T), and that divisor; ∞ for Uniform,
    whose scores are all 0 (every key ties)."""
    divisor = {"scaled": math.sqrt(d_k), "unscaled": 1.0, "uniform": math.inf}[mode]
    if temperature is not None:
        divisor = temperature  # T replaces √dₖ
    if mode == "uniform":
        return np.zeros_like(raw), divisor  # (..., n, m) the scores are ignored
    with np.errstate(over="ignore"):
        scores = raw / np.asarray(divisor, dtype=raw.dtype)  # (..., n, m)
    if temperature is not None and not np.isfinite(scores).all():
        raise TemperatureError(
            f"temperature {temperature!r} is so small that the scores overflow "
            f"(the largest raw score is {float(np.max(np.abs(raw))):.3g}): use a larger one"
        )
    return scores, divisor


def check_temperature(temperature: object, *, mode: Mode = "scaled") -> float:
    """`temperature` as a float if it is a positive finite number; TemperatureError otherwise."""
    if mode != "scaled":
        raise TemperatureError(
            f"a temperature replaces √dₖ, so it needs mode 'scaled'; got mode {mode!r} "
            f"with temperature {temperature!r}"
        )
    if isinstance(temperature, bool) or not isinstance(temperature, int | float | np.number):
        raise TemperatureError(f"temperature must be a number, got {temperature!r}")
    try:
        t = float(temperature)
    except OverflowError:  # a whole number beyond float's range
        t = math.inf
    if not math.isfinite(t) or t <= 0:
        shown = repr(temperature) if len(repr(temperature)) <= 24 else f"{repr(temperature)[:20]}…"
        raise TemperatureError(f"temperature must be positive and finite, got {shown}")
    return t


def self_attend(
    x: npt.ArrayLike,
    w_q: npt.ArrayLike,
    w_k: npt.ArrayLike,
    w_v: npt.ArrayLike,
    *,
    tokens: Sequence[str],
    mode: Mode = "scaled",
    mask: npt.ArrayLike | None = None,
    axis: Axis = "keys",
    temperature: float | None = None,
    dim_names: Sequence[str] | None = None,
) -> Trace:
    """Project embeddings `x` (n, d_model) into Q, K, V, then `attend`; the trace keeps `x`."""
    x_ = _as_float(x, "embeddings")
    if x_.ndim != 2:
        raise ShapeError(f"expected embeddings of shape (n, d_model), got {x_.shape}")
    tokens = labels(tokens, x_.shape[0], "tokens")
    _check_finite(x_, "embeddings", tokens)
    projections = [_as_float(w, name) for w, name in ((w_q, "W_Q"), (w_k, "W_K"), (w_v, "W_V"))]
    for w, name in zip(projections, ("W_Q", "W_K", "W_V"), strict=True):
        if w.ndim != 2 or w.shape[0] != x_.shape[1]:
            raise ShapeError(f"{name} has shape {w.shape}; expected ({x_.shape[1]}, d)")
    q = x_ @ projections[0]  # (n, d_k)
    k = x_ @ projections[1]  # (n, d_k)
    v = x_ @ projections[2]  # (n, d_v)
    trace = attend(q, k, v, mode=mode, mask=mask, axis=axis, temperature=temperature, tokens=tokens)
    return _with_inputs(trace, x_, dim_names)


def _with_inputs(trace: Trace, x: FloatArray, dim_names: Sequence[str] | None) -> Trace:
    from dataclasses import replace

    names = tuple(dim_names) if dim_names is not None else None
    return replace(trace, embeddings=x, dim_names=names)


def causal_mask(n: int) -> BoolArray:
    """A decoder's mask (n, n): token i may attend to tokens 0..i only."""
    n = whole_number(n, "a causal mask's n", lo=1, hi=MAX_MASK)
    i = np.arange(n)  # (n,)
    return i[:, None] >= i[None, :]  # (n, n) np.tril of ones, without the n × n ones


def split_heads(x: npt.ArrayLike, n_heads: int) -> FloatArray:
    """(n, d_model) -> (n_heads, n, d_model / n_heads): each head takes a slice of the width."""
    x_ = _as_float(x, "hidden states")
    if x_.ndim < 2:
        raise ShapeError(f"hidden states must be (n, d_model), got shape {x_.shape}")
    _check_finite(x_, "hidden states")
    d_model = x_.shape[-1]
    n_heads = whole_number(n_heads, "n_heads", lo=1, hi=max(d_model, 1), error=ShapeError)
    if d_model % n_heads:
        raise ShapeError(f"cannot split width {d_model} into {n_heads} heads evenly")
    heads = x_.reshape(*x_.shape[:-1], n_heads, d_model // n_heads)  # (..., n, h, d_head)
    return np.swapaxes(heads, -3, -2)  # (..., h, n, d_head)


def merge_heads(x: npt.ArrayLike) -> FloatArray:
    """(n_heads, n, d_head) -> (n, n_heads * d_head): the inverse of `split_heads`."""
    x_ = _as_float(x, "head outputs")
    if x_.ndim < 3:
        raise ShapeError(f"head outputs must be (n_heads, n, d_head), got shape {x_.shape}")
    _check_finite(x_, "head outputs")
    *lead, h, n, d_head = x_.shape
    return np.swapaxes(x_, -3, -2).reshape(*lead, n, h * d_head)  # (..., n, h·d_head)


def _as_float(a: npt.ArrayLike, name: str) -> FloatArray:
    return as_float(a, name)


def _check_shapes(q: FloatArray, k: FloatArray, v: FloatArray) -> None:
    for name, a in (("queries", q), ("keys", k), ("values", v)):
        if a.ndim < 2:
            raise ShapeError(f"{name} must be at least 2-D (tokens, dims), got shape {a.shape}")
        if a.shape[-2] == 0:
            raise EmptySequenceError(f"{name} hold no tokens (shape {a.shape}): nothing to attend")
    if q.shape[-1] != k.shape[-1]:
        raise ShapeError(
            f"queries and keys must have the same width d_k to be dotted: "
            f"got {q.shape[-1]} and {k.shape[-1]} (shapes {q.shape}, {k.shape})"
        )
    if k.shape[-2] != v.shape[-2]:
        raise ShapeError(
            f"every key needs a value: got {k.shape[-2]} keys and {v.shape[-2]} values "
            f"(shapes {k.shape}, {v.shape})"
        )
    try:
        np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    except ValueError:
        raise ShapeError(
            f"leading (head/batch) dimensions do not match: {q.shape}, {k.shape}, {v.shape}"
        ) from None


def _check_finite(a: FloatArray, name: str, tokens: Sequence[str] | None = None) -> None:
    if np.isfinite(a).all():
        return
    bad = ~np.isfinite(a)
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        value = a[where]
        place = f"token {tokens[where[0]]!r}, dimension {where[1]}" if tokens else f"at {where}"
        raise NonFiniteError(f"{name} contain {value} ({place}); every entry must be finite")


def _check_mask(mask: npt.ArrayLike | None, n: int, m: int) -> BoolArray | None:
    if mask is None:
        return None
    allowed = np.asarray(mask)
    if allowed.dtype != np.bool_:
        raise MaskError(f"a mask must be boolean (True = may attend), got dtype {allowed.dtype}")
    if allowed.ndim < 2 or allowed.shape[-2:] not in {(n, m), (1, m), (n, 1), (1, 1)}:
        raise MaskError(f"mask of shape {allowed.shape} does not fit {n} queries × {m} keys")
    full = np.broadcast_to(allowed, (*allowed.shape[:-2], n, m))
    empty = ~full.any(axis=-1)
    if empty.any():
        row = int(np.argwhere(empty)[0][-1])
        raise MaskError(f"the mask leaves query {row} with no key to attend to")
    return full
