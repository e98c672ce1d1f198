"""Attention weights handed in from elsewhere: a weights-only trace, checked and read-only.

A notebook may hold attention that attnlab did not compute: transformers' `outputs.attentions`
(a tuple of one (batch, heads, n, m) tensor per layer), CircuitsVis' (heads, n, m), or a stacked
NumPy (layers, heads, n, m). `AttentionMaps` holds such weights W, with no Q, K or V: they were
never given, so the type has no field for them. It checks what attention weights must be (finite,
non-negative, each row a softmax over the keys summing to 1 within the dtype's precision, one
label per row and per column) and offers what a host reads off weights alone: any focus token's
row in every head (`rows`) and the per-head diagnostics (diagnostics.py). `ModelTrace.maps()`
gives the same type for a real model's pass, so a host can show either through one interface,
`AttentionRows`. Row i, column j means query token i attends to key token j.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
import numpy.typing as npt

from attnlab.core.diagnostics import HeadStats, head_stats
from attnlab.errors import FocusError, MapShapeError, MapValueError, RowSumError, UnknownHeadError
from attnlab.types import FloatArray

__all__ = ["AttentionMaps", "AttentionRows", "row_tolerance"]


class AttentionRows(Protocol):
    """What a host reads from any attention: labels, sizes, a focus row per head, diagnostics."""

    @property
    def tokens(self) -> tuple[str, ...]: ...
    @property
    def n_layers(self) -> int: ...
    @property
    def n_heads(self) -> int: ...
    @property
    def stats(self) -> HeadStats: ...
    def rows(self, focus: int) -> FloatArray: ...


def row_tolerance(dtype: np.dtype[np.floating], m: int, *, eps: float | None = None) -> float:
    """How far from 1 a softmax row of `m` weights stored as `dtype` may sum: a few ulps per
    level of a pairwise sum, and never tighter than 1e-5 (weights computed in float32 and
    handed over as float64 carry float32's error). `eps` is the machine epsilon of the dtype
    the weights were computed in when they were upcast since (bfloat16 has no NumPy dtype)."""
    unit = float(np.finfo(dtype).eps) if eps is None else max(eps, float(np.finfo(dtype).eps))
    return max(1e-5, 4 * (math.log2(max(m, 2)) + 1) * unit)


@dataclass(frozen=True)
class AttentionMaps:
    """Attention weights of L layers and H heads, (L, H, n, m), with their token labels."""

    weights: FloatArray  # (L, H, n, m) rows sum to 1 over the keys
    tokens: tuple[str, ...]  # (n,) the query labels
    key_tokens: tuple[str, ...]  # (m,) the key labels
    source: str = ""  # where the weights came from, e.g. a model's name
    eps: float | None = None  # the epsilon of the dtype they were computed in, if upcast since
    layer_ids: tuple[int, ...] = ()  # (L,) each layer's own number; () means 0..L-1
    head_ids: tuple[int, ...] = ()  # (H,) each head's own number; () means 0..H-1
    sentence_b_start: int | None = None  # a pair's second sentence starts at this token
    stats: HeadStats = field(init=False, repr=False, compare=False)  # (L, H), from the weights

    def __post_init__(self) -> None:
        w = _checked(self.weights, self.eps)  # (L, H, n, m) a private read-only copy
        object.__setattr__(self, "weights", w)
        object.__setattr__(self, "tokens", tuple(str(t) for t in self.tokens))
        object.__setattr__(self, "key_tokens", tuple(str(t) for t in self.key_tokens))
        for labels, size, what in ((self.tokens, w.shape[2], "query rows"),
                                   (self.key_tokens, w.shape[3], "key columns")):  # fmt: skip
            if len(labels) != size:
                raise MapShapeError(
                    f"got {len(labels)} labels for {size} {what} of weights shaped {w.shape}"
                )
        for name, ids, size in (("layer_ids", self.layer_ids, w.shape[0]),
                                ("head_ids", self.head_ids, w.shape[1])):  # fmt: skip
            ids = tuple(int(i) for i in ids) or tuple(range(size))
            if len(ids) != size:
                raise MapShapeError(f"got {len(ids)} {name} for {size} of weights shaped {w.shape}")
            object.__setattr__(self, name, ids)
        b = self.sentence_b_start
        if b is not None and (isinstance(b, bool) or not isinstance(b, int | np.integer)
                              or not 0 < b < w.shape[2]):  # fmt: skip
            raise MapShapeError(
                f"sentence_b_start {b!r} is not inside the {w.shape[2]} tokens: expected "
                f"1..{w.shape[2] - 1}, the index of sentence B's first token",
                field="sentence_b_start",
            )
        if b is not None and self.tokens != self.key_tokens:
            raise MapShapeError(
                "sentence_b_start splits one text in two: the queries and keys must be the same "
                f"tokens, got {len(self.tokens)} queries and {len(self.key_tokens)} keys",
                field="sentence_b_start",
            )
        object.__setattr__(self, "sentence_b_start", None if b is None else int(b))
        object.__setattr__(self, "stats", head_stats(w))  # (L, H) computed once, when checked

    @classmethod
    def of(
        cls,
        weights: npt.ArrayLike | Sequence[npt.ArrayLike],
        tokens: Sequence[str],
        *,
        key_tokens: Sequence[str] | None = None,
        batch: int | None = None,
        source: str = "",
        eps: float | None = None,
    ) -> AttentionMaps:
        """From any usual layout: (n, m) one head, (H, n, m) one layer's heads (CircuitsVis),
        (L, H, n, m), or a list or tuple of per-layer (batch, H, n, m) arrays or CPU tensors
        (transformers' `outputs.attentions`; `batch` picks the text when there are several).
        `eps`: the machine epsilon of the dtype the weights were computed in (half precision
        upcast to float32 keeps half precision's row-sum error)."""
        w = _as_array(weights)
        if isinstance(weights, list | tuple) and w.ndim == 5:
            w = _pick(w, batch)  # (L, H, n, m) from (L, B, H, n, m)
        elif w.ndim in (2, 3):
            w = w.reshape((1,) * (4 - w.ndim) + w.shape)  # (L, H, n, m)
        keys = tokens if key_tokens is None else key_tokens
        return cls(w, tuple(tokens), tuple(keys), source, eps)

    @property
    def n_layers(self) -> int:
        return int(self.weights.shape[0])

    @property
    def n_heads(self) -> int:
        return int(self.weights.shape[1])

    @property
    def n(self) -> int:
        """The number of query rows."""
        return int(self.weights.shape[2])

    @property
    def m(self) -> int:
        """The number of key columns."""
        return int(self.weights.shape[3])

    @property
    def subset(self) -> bool:
        """Whether only some of the model's layers or heads are held (labelled by their ids)."""
        return self.layer_ids != tuple(range(self.n_layers)) or self.head_ids != tuple(
            range(self.n_heads)
        )

    def only(
        self, *, layers: Sequence[int] | None = None, heads: Sequence[int] | None = None
    ) -> AttentionMaps:
        """These layers and heads alone, by their own numbers, each keeping its number."""
        keep_l = self._positions(layers, self.layer_ids, "include_layers", "layers")
        keep_h = self._positions(heads, self.head_ids, "include_heads", "heads")
        w = self.weights[np.ix_(keep_l, keep_h)]  # (L', H', n, m)
        return AttentionMaps(
            w, self.tokens, self.key_tokens, self.source, self.eps,
            tuple(self.layer_ids[i] for i in keep_l), tuple(self.head_ids[i] for i in keep_h),
            self.sentence_b_start,
        )  # fmt: skip

    @staticmethod
    def _positions(
        wanted: Sequence[int] | None, ids: tuple[int, ...], field: str, what: str
    ) -> list[int]:
        """Where each wanted id sits in `ids`, in the order asked; every id when None."""
        if wanted is None:
            return list(range(len(ids)))
        if isinstance(wanted, int | str) or not all(
            isinstance(i, int | np.integer) and not isinstance(i, bool) for i in wanted
        ):
            raise MapShapeError(
                f"{field} must be a list of whole numbers, got {wanted!r:.60}", field=field
            )
        listed = [int(i) for i in wanted]
        if not listed:
            raise MapShapeError(f"{field} is empty: name at least one of the {what}", field=field)
        if len(set(listed)) != len(listed):
            raise MapShapeError(f"{field} {listed} names one of the {what} twice", field=field)
        missing = [i for i in listed if i not in ids]
        if missing:
            raise MapShapeError(
                f"{field} {listed}: {missing} not among the {len(ids)} {what} given, "
                f"numbered {', '.join(str(i) for i in ids)}",
                field=field,
            )
        return [ids.index(i) for i in listed]

    def rows(self, focus: int) -> FloatArray:
        """The focus query's row in every head: (L, H, m)."""
        if not 0 <= focus < self.n:
            raise FocusError(f"focus index {focus} is outside 0..{self.n - 1}")
        return self.weights[:, :, focus, :]  # (L, H, m)

    def head(self, layer: int, head: int) -> FloatArray:
        """One head's weights: (n, m)."""
        if not 0 <= layer < self.n_layers:
            raise UnknownHeadError(f"layer {layer} is outside 0..{self.n_layers - 1}")
        if not 0 <= head < self.n_heads:
            raise UnknownHeadError(f"head {head} is outside 0..{self.n_heads - 1}")
        one: FloatArray = self.weights[layer, head]  # (n, m)
        return one


def _as_array(weights: npt.ArrayLike | Sequence[npt.ArrayLike]) -> FloatArray:
    try:
        if isinstance(weights, list | tuple):
            return np.stack([np.asarray(layer) for layer in weights])  # (L, ...)
        return np.asarray(weights)
    except (TypeError, RuntimeError, ValueError) as exc:
        raise MapValueError(
            f"the attention weights are not one array of numbers ({exc}): pass NumPy arrays of "
            "one shape, or tensors as tensor.detach().float().cpu()"
        ) from None


def _pick(w: FloatArray, batch: int | None) -> FloatArray:
    """(L, B, H, n, m) -> (L, H, n, m): text `batch` of a batch, or the only one."""
    size = w.shape[1]
    if batch is None and size != 1:
        raise MapShapeError(f"the weights hold a batch of {size} texts: choose one with batch=")
    i = 0 if batch is None else batch
    if not 0 <= i < size:
        raise MapShapeError(f"batch {i} is outside 0..{size - 1} (weights shaped {w.shape})")
    return w[:, i]  # (L, H, n, m)


def _checked(weights: FloatArray, eps: float | None = None) -> FloatArray:
    """A private read-only copy of `weights` once it passes every check, or a named error."""
    w = np.array(weights)  # (L, H, n, m) a copy the caller cannot change
    if w.ndim != 4 or 0 in w.shape:
        raise MapShapeError(
            f"expected attention weights shaped (layers, heads, n, m), got {w.shape}"
        )
    if w.dtype.kind != "f":
        raise MapValueError(f"attention weights must be floating point, got dtype {w.dtype}")
    for bad, what in ((~np.isfinite(w), "is not finite"), (w < 0, "is negative")):
        if bad.any():
            where = tuple(int(i) for i in np.argwhere(bad)[0])
            raise MapValueError(
                f"the weight at (layer, head, row, column) {where} {what}: {w[where]}"
            )
    sums = w.sum(axis=-1, dtype=np.float64)  # (L, H, n)
    tol = row_tolerance(w.dtype, w.shape[-1], eps=eps)
    off = np.abs(sums - 1) > tol  # (L, H, n)
    if off.any():
        where = tuple(int(i) for i in np.argwhere(off)[0])
        raise RowSumError(
            f"row (layer, head, row) {where} sums to {sums[where]:.6g}, not 1 (within {tol:.1g}): "
            "attention weights are a softmax over the keys; were scores passed, or were the "
            "weights normalised over the queries?"
        )
    w.flags.writeable = False
    return w
