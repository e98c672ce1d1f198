"""The JSON form of a real model's results: one head's explanation, the heads grid, the summaries
and two contexts compared.

`encode_head` is the lesson's `encode_explanation` (the same contract, so the page shows a real
head as it shows the toy) plus which model, layer and head it is. Grids and comparisons round
their weights to `PLACES` decimals: plenty for a heatmap, a fifth of the bytes.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from attnlab.core.softmax import entropy_bits
from attnlab.encode.trace_json import encode_explanation
from attnlab.models.compare import Comparison
from attnlab.models.heads import HeadSummary
from attnlab.models.model_trace import ModelTrace
from attnlab.models.pieces import Word
from attnlab.types import FloatArray
from attnlab.words.explanation import Explanation

__all__ = ["GRIDS", "PLACES", "encode_comparison", "encode_grid", "encode_head", "encode_summary"]

PLACES = 4
GRIDS = ("focus", "full", "none")
Grid = Literal["focus", "full", "none"]


def encode_head(mt: ModelTrace, ex: Explanation, *, layer: int, head: int) -> dict[str, Any]:
    """One head's explanation, plus "model": its name, the layer and head, and the sizes."""
    out = encode_explanation(ex)
    out["model"] = {
        "name": mt.model, "layer": layer, "head": head,
        "n_layers": mt.n_layers, "n_heads": mt.n_heads,
    }  # fmt: skip
    return out


def encode_grid(mt: ModelTrace, focus: int, kind: Grid) -> dict[str, Any] | None:
    """Every head at a glance: the focus row of each (layers, heads, n), or each full matrix."""
    if kind == "none":
        return None
    a = mt.attentions  # (L, h, n, n)
    rows = a[:, :, focus, :]  # (L, h, n) the focus token's budget in every head
    out: dict[str, Any] = {
        "kind": kind, "layers": mt.n_layers, "heads": mt.n_heads, "focus": focus,
        "top": rows.argmax(axis=-1).tolist(),  # (L, h) the key each head's row weights most
        "entropy_bits": _round(entropy_bits(rows.astype(np.float64))),  # (L, h)
    }  # fmt: skip
    if kind == "focus":
        out["rows"] = _round(rows)  # (L, h, n)
    else:
        out["attentions"] = _round(a)  # (L, h, n, n)
    return out


def encode_summary(s: HeadSummary, tokens: tuple[str, ...]) -> dict[str, Any]:
    return {
        "layer": s.layer, "head": s.head, "top": s.top, "top_token": tokens[s.top],
        "top_weight": s.top_weight, "entropy_bits": s.entropy_bits,
    }  # fmt: skip


def encode_comparison(c: Comparison) -> dict[str, Any]:
    """The word's attention rows in both texts and the cosine of its vectors, layer by layer."""

    def side(t: ModelTrace, w: Word | None, i: int, rows: FloatArray, found: Any) -> Any:
        pieces = [i] if w is None else list(w.pieces)
        return {
            "tokens": list(t.tokens), "index": i, "rows": _round(rows), "pieces": pieces,
            "occurrences": [o.token for o in found],
        }  # fmt: skip

    return {
        "word": c.word,
        "a": side(c.a, c.word_a, c.index_a, c.rows_a, c.occurrences_a),
        "b": side(c.b, c.word_b, c.index_b, c.rows_b, c.occurrences_b),
        "cosine": [round(float(x), PLACES) for x in c.cosine],
        "cosine_labels": ["embeddings"] + [f"layer {i}" for i in range(c.layers)],
        "note": c.note,
        "model": {"name": c.a.model, "n_layers": c.a.n_layers, "n_heads": c.a.n_heads},
    }


def _round(a: FloatArray) -> Any:
    return np.round(a, PLACES).tolist()
