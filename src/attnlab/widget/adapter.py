"""Attention weights from any library, as one checked `AttentionMaps`, without importing torch.

What the field's tools take, all read here:

    transformers   outputs.attentions: a tuple of one (batch, heads, n, n) tensor per layer
    BertViz        head_view(attention, tokens, sentence_b_start, ...) or its encoder_attention /
                   decoder_attention / cross_attention with encoder_tokens / decoder_tokens
    CircuitsVis    attention_heads(attention (heads, n, n), tokens)
    NumPy          a stack (layers, heads, n, m), or nested lists of numbers

A tensor is recognised by what it does, not by its type (`detach`, `cpu`, `numpy`), so torch is
never imported here; bfloat16 and float16 are upcast to float32 and keep their own precision
for the row-sum check (core/attention_maps.py: half precision is off by ~1e-3 per row). What
cannot be attention (a rank or size that does not fit, NaN, rows that do not sum to 1, a token
count that does not match) is an `AttentionMapError` saying what was expected.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from attnlab.core.attention_maps import AttentionMaps
from attnlab.errors import MapShapeError, MapValueError
from attnlab.types import FloatArray

__all__ = ["BFLOAT16_EPS", "Kind", "as_numpy", "attention_maps"]

BFLOAT16_EPS = 2.0**-7
"""bfloat16's machine epsilon (8 bits of mantissa, 7 stored): NumPy has no such dtype."""

Kind = Literal["encoder", "decoder", "cross"]


@dataclass(frozen=True)
class _Array:
    values: FloatArray  # float32 or float64
    eps: float | None  # the epsilon of the dtype it came in, when upcast


def as_numpy(x: Any) -> tuple[FloatArray, float | None]:
    """One array or tensor as a NumPy float array, and the epsilon of its own dtype if upcast.

    torch: `x.detach().cpu()`, bfloat16/float16 through `.float()`, then `.numpy()`; TensorFlow
    and JAX through `.numpy()` or `np.asarray`; lists and NumPy arrays as they are."""
    eps: float | None = None
    if all(callable(getattr(x, name, None)) for name in ("detach", "cpu", "numpy")):
        t = x.detach().cpu()
        dtype = str(getattr(t, "dtype", ""))
        if dtype.endswith(("bfloat16", "float16")):
            eps = BFLOAT16_EPS if dtype.endswith("bfloat16") else float(np.finfo(np.float16).eps)
            t = t.float()
        a = np.asarray(t.numpy())
    elif callable(getattr(x, "numpy", None)) and not isinstance(x, np.ndarray):
        a = np.asarray(x.numpy())
    else:
        try:
            a = np.asarray(x)
        except (TypeError, ValueError) as exc:
            raise MapValueError(
                f"the attention weights are not one array of numbers ({exc}): pass arrays, "
                "tensors or nested lists whose rows all have the same length"
            ) from None
    if a.dtype.name == "bfloat16":  # JAX's and ml_dtypes' bfloat16
        eps, a = BFLOAT16_EPS, a.astype(np.float32)
    elif a.dtype == np.float16:
        eps, a = float(np.finfo(np.float16).eps), a.astype(np.float32)
    elif a.dtype.kind in "iub" and a.size:
        raise MapValueError(f"attention weights must be floating point, got dtype {a.dtype}")
    elif a.dtype == object:
        raise MapValueError(
            "the attention weights are not one array of numbers: rows of different lengths, or "
            "something other than numbers, inside them"
        )
    return a, eps


def _layers(attention: Any) -> _Array:
    """A tuple or list of per-layer tensors stacked to (L, ...); anything else as one array."""
    if isinstance(attention, list | tuple) and attention and not _is_number_list(attention):
        parts = [as_numpy(layer) for layer in attention]
        shapes = {p[0].shape for p in parts}
        if len(shapes) != 1:
            raise MapShapeError(
                f"expected one attention array per layer, all of one shape, got shapes "
                f"{sorted(shapes)}"
            )
        eps = max((p[1] for p in parts if p[1] is not None), default=None)
        return _Array(np.stack([p[0] for p in parts]), eps)  # (L, ...)
    a, eps = as_numpy(attention)
    return _Array(a, eps)


def _is_number_list(x: Sequence[Any]) -> bool:
    """Nested lists of plain numbers (read as one array), not a list of tensors or arrays."""
    while isinstance(x, list | tuple) and x:
        x = x[0]
    return isinstance(x, int | float) and not isinstance(x, bool)


def _shaped(a: _Array, *, batch: int | None, nested: bool) -> FloatArray:
    """(n, m), (H, n, m), (L, H, n, m) or (L, B, H, n, m) as (L, H, n, m)."""
    w = a.values
    if w.ndim == 5:
        size = w.shape[1]
        if batch is None and size != 1:
            raise MapShapeError(
                f"the weights hold a batch of {size} texts, shaped {w.shape} (layers, batch, "
                "heads, queries, keys): choose one with batch="
            )
        i = 0 if batch is None else batch
        if not 0 <= i < size:
            raise MapShapeError(f"batch {i} is outside 0..{size - 1} (weights shaped {w.shape})")
        return w[:, i]
    if w.ndim in (2, 3):
        return w.reshape((1,) * (4 - w.ndim) + w.shape)
    if w.ndim != 4:
        what = "per-layer arrays" if nested else "an array"
        raise MapShapeError(
            f"expected attention weights shaped (heads, n, m), (layers, heads, n, m) or "
            f"{what} of (batch, heads, n, m) per layer; got shape {w.shape}"
        )
    return w


def attention_maps(
    attention: Any = None,
    tokens: Sequence[str] | None = None,
    *,
    sentence_b_start: int | None = None,
    encoder_attention: Any = None,
    decoder_attention: Any = None,
    cross_attention: Any = None,
    encoder_tokens: Sequence[str] | None = None,
    decoder_tokens: Sequence[str] | None = None,
    kind: Kind | None = None,
    batch: int | None = None,
    source: str = "",
) -> AttentionMaps:
    """The weights of any of the layouts above, checked, as (layers, heads, n, m) maps.

    BertViz's encoder-decoder form: `kind` picks "encoder" (encoder tokens both ways),
    "decoder" (decoder tokens both ways) or "cross" (decoder queries over encoder keys);
    by default the first one given."""
    given = {"encoder": encoder_attention, "decoder": decoder_attention, "cross": cross_attention}
    if attention is None:
        present = [k for k, v in given.items() if v is not None]
        if not present:
            raise MapShapeError(
                "no attention given: pass show(attention, tokens), or BertViz's "
                "encoder_attention / decoder_attention / cross_attention with their tokens"
            )
        chosen: Kind = kind or present[0]  # type: ignore[assignment]
        if given[chosen] is None:
            raise MapShapeError(f"kind={chosen!r} but no {chosen}_attention was given")
        attention = given[chosen]
        queries = decoder_tokens if chosen in ("decoder", "cross") else encoder_tokens
        keys = encoder_tokens if chosen in ("encoder", "cross") else decoder_tokens
        if queries is None or keys is None:
            need = {"encoder": "encoder_tokens", "decoder": "decoder_tokens"}
            missing = [need[k] for k, v in (("encoder", encoder_tokens),
                                            ("decoder", decoder_tokens)) if v is None]  # fmt: skip
            raise MapShapeError(f"{chosen} attention needs {' and '.join(missing)}")
        tokens, key_tokens = list(queries), list(keys)
    else:
        if tokens is None:
            raise MapShapeError("attention weights need their tokens: show(attention, tokens)")
        tokens, key_tokens = list(tokens), list(tokens)
    nested = isinstance(attention, list | tuple) and not _is_number_list(attention)
    a = _layers(attention)
    w = _shaped(a, batch=batch, nested=nested)  # (L, H, n, m)
    maps = AttentionMaps(w, tuple(tokens), tuple(key_tokens), source, a.eps)
    if sentence_b_start is not None and not 0 < sentence_b_start < maps.n:
        raise MapShapeError(
            f"sentence_b_start {sentence_b_start} is not inside the {maps.n} tokens: expected "
            f"1..{maps.n - 1}, the index of sentence B's first token"
        )
    return maps
