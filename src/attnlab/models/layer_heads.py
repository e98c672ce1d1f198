"""A layer's heads for the head view, computed once: `LayerHeads`.

BertViz's head view draws one line per weight. At 2,048 tokens one head is 4 M weights, and the
page neither can draw nor a learner read that many lines, so each query row keeps its `top`
strongest keys, exactly (`top_rows`). Nothing visible is lost: a row sums to 1, so at most `top`
of its weights can reach 1 / top, and every weight of at least 1 / top is among the kept ones
(`floor`). `share` says how much of a row's budget the kept weights hold; a row of at most `top`
keys is kept whole (share 1).

The means (over this layer's heads, and over every layer's heads) are streamed by blocks of
query rows, each recomputed by the trace's own `attend`: at most (heads, block, n) weights exist
at once, never (layers, heads, n, n), which ModelTrace.attentions would build (9.6 GiB at 2,048
SmolLM2 tokens). The mean over every layer recomputes every head of the model: it is computed up
to MEAN_LAYERS_MAX tokens only (at 1,761 SmolLM2 tokens it took 86 s of a shared 2-core machine,
one layer 2.7 s), and kept for the last few traces (`MEANS_KEPT`), so a layer switch recomputes
one layer, not thirty.
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from attnlab.models.model_trace import ModelTrace
from attnlab.types import FloatArray

__all__ = [
    "MEAN_LAYERS_MAX",
    "ROW_BLOCK",
    "TOP_KEYS",
    "LayerHeads",
    "TopRows",
    "layer_heads",
    "top_rows",
]

TOP_KEYS = 16
"""Keys kept per query row: 2,048 rows × 9 heads × 16 keys cross as 0.6 M uint16 pairs."""
ROW_BLOCK = 256
"""Query rows computed at once: 9 heads × 256 × 2,048 float32 weights are 19 MB."""
MEAN_LAYERS_MAX = 512
"""The most tokens the mean over every layer's heads is computed for: at 512 SmolLM2 tokens it
recomputes 270 heads of 512² weights, as many weights as 17 heads at 2,048."""
MEANS_KEPT = 4
"""Traces whose mean over every layer is kept (one (n, top) pair of arrays each)."""


@dataclass(frozen=True)
class TopRows:
    """The `top` strongest keys of each query row of a matrix (or a stack), strongest first."""

    keys: npt.NDArray[np.intp]  # (..., n, k) key indices
    weights: FloatArray  # (..., n, k) their weights, descending along the last axis
    share: FloatArray  # (...,) the kept weights' sum, averaged over the rows
    of: int  # m, the keys of a whole row

    @property
    def floor(self) -> float:
        """Every weight at least this large is kept: 1 / k (0 when rows are kept whole)."""
        k = int(self.keys.shape[-1])
        return 0.0 if k >= self.of else 1.0 / k


@dataclass(frozen=True)
class LayerHeads:
    """What the head view of one layer shows: each head's, the layer's mean's and the mean over
    every layer's top keys per query row."""

    layer: int
    n: int  # tokens
    top: int  # keys kept per row: min(n, TOP_KEYS)
    heads: TopRows  # (H, n, top)
    mean_heads: TopRows  # (n, top)
    mean_layers: TopRows | None  # (n, top); None beyond MEAN_LAYERS_MAX tokens
    mean_layers_max: int


def top_rows(w: FloatArray, top: int) -> TopRows:
    """The `top` largest entries of each last-axis row of `w` (..., n, m), descending; ties in
    key order. With top >= m every row is kept whole."""
    m = w.shape[-1]
    k = min(top, m)
    if k < m:
        part = np.argpartition(-w, k - 1, axis=-1)[..., :k]  # (..., n, k) unordered
    else:
        part = np.broadcast_to(np.arange(m), w.shape).copy()
    vals = np.take_along_axis(w, part, axis=-1)  # (..., n, k)
    order = np.lexsort((part, -vals), axis=-1)  # by weight down, then key up
    keys = np.take_along_axis(part, order, axis=-1).astype(np.intp)  # (..., n, k)
    weights = np.take_along_axis(vals, order, axis=-1)  # (..., n, k)
    share = weights.sum(axis=-1, dtype=np.float64).mean(axis=-1)  # (...,)
    return TopRows(keys=keys, weights=weights, share=share, of=m)


def _blocks(n: int, block: int) -> list[slice]:
    return [slice(r, min(r + block, n)) for r in range(0, n, block)]


def _join(parts: list[TopRows], n: int) -> TopRows:
    """Row blocks' TopRows as one: rows joined, shares weighted by each block's rows."""
    rows = np.array([p.keys.shape[-2] for p in parts], dtype=np.float64)  # (blocks,)
    shares = np.stack([p.share for p in parts], axis=-1)  # (..., blocks)
    return TopRows(
        keys=np.concatenate([p.keys for p in parts], axis=-2),
        weights=np.concatenate([p.weights for p in parts], axis=-2),
        share=(shares * rows).sum(axis=-1) / n,
        of=parts[0].of,
    )


def _layer(mt: ModelTrace, layer: int, top: int, block: int) -> tuple[TopRows, TopRows]:
    """Layer `layer`'s heads and their mean, by blocks of query rows."""
    heads, means = [], []
    for rows in _blocks(mt.n, block):
        w = mt._weights(mt.layers[layer], rows)  # (H, b, n): the trace's own attend
        heads.append(top_rows(w, top))
        means.append(top_rows(w.mean(axis=0, dtype=np.float64), top))  # (b, n)
    return _join(heads, mt.n), _join(means, mt.n)


def _over_layers(mt: ModelTrace, top: int, block: int) -> TopRows:
    """The mean of every layer's heads, by blocks of query rows: (b, n) summed over L layers."""
    parts = []
    for rows in _blocks(mt.n, block):
        total = np.zeros((rows.stop - rows.start, mt.n))  # (b, n) float64
        for keep in mt.layers:
            total += mt._weights(keep, rows).sum(axis=0, dtype=np.float64)  # (b, n)
        parts.append(top_rows(total / (mt.n_layers * mt.n_heads), top))
    return _join(parts, mt.n)


_kept: dict[int, tuple[weakref.ref[ModelTrace], int, TopRows]] = {}
_lock = threading.Lock()


def _mean_layers(mt: ModelTrace, top: int, block: int) -> TopRows:
    """`_over_layers`, kept for the last MEANS_KEPT traces (by identity, while they live)."""
    with _lock:
        found = _kept.get(id(mt))
    if found is not None and found[0]() is mt and found[1] == top:
        return found[2]
    out = _over_layers(mt, top, block)
    with _lock:
        _kept[id(mt)] = (weakref.ref(mt), top, out)
        for key in [k for k, (ref, _, _) in _kept.items() if ref() is None]:
            del _kept[key]
        while len(_kept) > MEANS_KEPT:
            del _kept[next(iter(_kept))]  # the oldest first
    return out


def layer_heads(
    mt: ModelTrace,
    layer: int,
    *,
    top: int = TOP_KEYS,
    block: int = ROW_BLOCK,
    mean_layers_max: int = MEAN_LAYERS_MAX,
) -> LayerHeads:
    """Layer `layer` of `mt` for the head view: each head's `top` keys per query row, the same of
    the mean over its heads and (up to `mean_layers_max` tokens) of every layer's heads."""
    mt._check(layer, 0)
    heads, mean_heads = _layer(mt, layer, top, block)
    over = _mean_layers(mt, top, block) if mt.n <= mean_layers_max else None
    return LayerHeads(
        layer=layer, n=mt.n, top=min(top, mt.n), heads=heads, mean_heads=mean_heads,
        mean_layers=over, mean_layers_max=mean_layers_max,
    )  # fmt: skip
