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
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np

from attnlab.core.attention_maps import AttentionMaps
from attnlab.errors import MapShapeError, MapValueError
from attnlab.types import FloatArray

__all__ = ["BFLOAT16_EPS", "EMPTY", "Kind", "as_numpy", "attention_maps", "pretty"]

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


EMPTY = (
    "got an empty {kind}: no attention layers in it. With transformers 5, BertViz's "
    "`outputs[-1]` is the model's cross-attention, empty for a model without a decoder; pass "
    "`outputs.attentions` (a tuple of one (batch, heads, n, n) tensor per layer, from "
    'model(..., output_attentions=True) with attn_implementation="eager")'
)
"""What an empty tuple of attention says: what was passed, what was expected."""


def _layers(attention: Any) -> _Array:
    """A tuple or list of per-layer tensors stacked to (L, ...); anything else as one array."""
    if isinstance(attention, list | tuple) and not attention:
        raise MapShapeError(EMPTY.format(kind=type(attention).__name__))
    if isinstance(attention, list | tuple) and any(layer is None for layer in attention):
        at = next(i for i, layer in enumerate(attention) if layer is None)
        raise MapShapeError(
            f"layer {at} of the {len(attention)} handed in is None: the model computed no "
            'attention weights; load it with attn_implementation="eager" and call it with '
            "output_attentions=True"
        )
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


def pretty(tokens: Sequence[str]) -> list[str]:
    """BertViz's `prettify_tokens`: Ġ (byte-level BPE) and ▁ (SentencePiece) as spaces, `</w>`
    (the end-of-word mark of older BPE vocabularies) dropped."""
    return [str(t).replace("Ġ", " ").replace("▁", " ").replace("</w>", "") for t in tokens]


def _is_number_list(x: Sequence[Any]) -> bool:
    """Nested lists of plain numbers (read as one array), not a list of tensors or arrays."""
    while isinstance(x, list | tuple) and x:
        x = x[0]
    return isinstance(x, int | float) and not isinstance(x, bool)


def _is_tensor(x: Any) -> bool:
    """A torch tensor, by what it does (torch is never imported here)."""
    return all(callable(getattr(x, name, None)) for name in ("detach", "cpu", "numpy"))


def _shaped(a: _Array, *, batch: int | None, nested: bool, tensor: bool) -> FloatArray:
    """(n, m), (H, n, m), (L, H, n, m) or (L, B, H, n, m) as (L, H, n, m). One 4-dim tensor is
    TransformerLens' cache["pattern", layer], (batch, H, n, m), when batch= says which text or
    holds one; a NumPy stack (L, H, n, m) is layers, with no batch axis to pick from: batch=
    on it is refused (picking would read the same array as (batch, H, n, m) instead)."""
    w = a.values
    if w.ndim == 5:
        return _pick(w, batch, axis=1, names="layers, batch, heads, queries, keys")
    if w.ndim == 4 and not nested and not tensor and batch is not None:
        raise MapShapeError(
            f"batch={batch} was given, but one NumPy array shaped {w.shape} is read as "
            "(layers, heads, queries, keys): it has no batch axis. For one text of a batch "
            "(batch, heads, queries, keys), pass that text's own array (attention[i]) or a list "
            "of one (batch, heads, queries, keys) array per layer with batch=",
            field="batch",
        )
    if w.ndim == 4 and not nested and (batch is not None or (tensor and w.shape[0] > 1)):
        if batch is None:
            raise MapShapeError(
                f"one tensor shaped {w.shape}: TransformerLens' cache['pattern', layer] is one "
                f"layer of a batch of {w.shape[0]} texts (batch, heads, queries, keys): choose "
                f"the text with batch=0..{w.shape[0] - 1}; if they are {w.shape[0]} layers of "
                "one text, pass them as a list, one tensor per layer",
                field="batch",
            )
        return _pick(w[None], batch, axis=1, names="batch, heads, queries, keys")
    if batch not in (None, 0):
        raise MapShapeError(
            f"batch={batch} was given, but the weights shaped {w.shape} hold one text (no batch "
            "axis): leave batch out",
            field="batch",
        )
    if w.ndim in (2, 3):
        return w.reshape((1,) * (4 - w.ndim) + w.shape)
    if w.ndim != 4:
        what = "per-layer arrays" if nested else "an array"
        raise MapShapeError(
            f"expected attention weights shaped (heads, n, m), (layers, heads, n, m) or "
            f"{what} of (batch, heads, n, m) per layer; got shape {w.shape}"
        )
    return w


def _pick(w: FloatArray, batch: int | None, *, axis: int, names: str) -> FloatArray:
    """Text `batch` of the batch axis `axis` (1) of (L, B, H, n, m): (L, H, n, m)."""
    size = w.shape[axis]
    shape = w.shape[1:] if names.startswith("batch") else w.shape
    if batch is None and size != 1:
        raise MapShapeError(
            f"the weights hold a batch of {size} texts, shaped {shape} ({names}): choose one "
            f"with batch=0..{size - 1}",
            field="batch",
        )
    i = 0 if batch is None else batch
    if isinstance(i, bool) or not isinstance(i, int | np.integer) or not 0 <= i < size:
        raise MapShapeError(
            f"batch {i!r} is outside 0..{size - 1} (weights shaped {shape})", field="batch"
        )
    return w[:, int(i)]


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
    include_layers: Sequence[int] | None = None,
    include_heads: Sequence[int] | None = None,
    heads: Sequence[int] | None = None,
    prettify_tokens: bool = False,
) -> AttentionMaps:
    """The weights of any of the layouts above, checked, as (layers, heads, n, m) maps.

    BertViz's encoder-decoder form: `kind` picks "encoder" (encoder tokens both ways),
    "decoder" (decoder tokens both ways) or "cross" (decoder queries over encoder keys);
    by default the first one given. BertViz's `include_layers` and `include_heads` (or
    head_view's `heads`) keep those layers and heads alone, each keeping its own number;
    `prettify_tokens` writes byte-level BPE's Ġ and SentencePiece's ▁ as spaces and drops
    `</w>`, as BertViz does."""
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
        if isinstance(attention, list | tuple) and not attention:
            raise MapShapeError(EMPTY.format(kind=type(attention).__name__))
        if tokens is None:
            raise MapShapeError("attention weights need their tokens: show(attention, tokens)")
        tokens, key_tokens = list(tokens), list(tokens)
    if prettify_tokens not in (True, False):
        raise MapValueError(f"prettify_tokens must be True or False, got {prettify_tokens!r:.40}")
    if prettify_tokens:
        tokens, key_tokens = pretty(tokens), pretty(key_tokens)
    nested = isinstance(attention, list | tuple) and not _is_number_list(attention)
    a = _layers(attention)
    w = _shaped(a, batch=batch, nested=nested, tensor=_is_tensor(attention))  # (L, H, n, m)
    maps = AttentionMaps(w, tuple(tokens), tuple(key_tokens), source, a.eps)
    if heads is not None and include_heads is not None and list(heads) != list(include_heads):
        raise MapShapeError(
            f"heads={list(heads)} and include_heads={list(include_heads)} disagree: both name "
            "the heads to show; give one",
            field="heads",
        )
    if include_layers is not None or include_heads is not None or heads is not None:
        maps = maps.only(layers=include_layers, heads=include_heads if heads is None else heads)
    if sentence_b_start is not None:
        maps = replace(maps, sentence_b_start=sentence_b_start)
    return maps
