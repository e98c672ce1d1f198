"""The JSON form of a real model's other answers: one head's matrix as a picture
(models/matrix_view.py), a row on demand and two contexts compared, built as their declared
answers (answers_model.py); one head's explanation with its grid is encode/head_json.py's.

Arrays cross compactly (packed.py): a row as float32 bytes, weights for pictures as uint16
codes. `encode_head` is head_json's answer of an explanation already made, read back as plain
JSON, for the CLI's --json and the SVG picture.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from attnlab.core.trace import Trace
from attnlab.encode.answers_model import (
    CompareSide,
    ComparisonAnswer,
    MatrixAnswer,
    ModelSizes,
    RowAnswer,
)
from attnlab.encode.answers_model_views import SharedKeys
from attnlab.encode.head_json import PLACES, STATS, encode_head_view, float32, uint16
from attnlab.models.compare import Comparison
from attnlab.models.head_view import FULL_GRID_AT, GRID_ROWS_AT, Grid, view_of
from attnlab.models.heads import HeadSummary
from attnlab.models.matrix_view import PICTURE_SIDE, SPECIALS, MatrixView, Specials
from attnlab.models.model_trace import ModelTrace
from attnlab.models.pieces import Word
from attnlab.types import FloatArray
from attnlab.words.explanation import Explanation
from attnlab.words.model_help import specials_named

__all__ = [
    "FULL_GRID_AT",
    "GRIDS",
    "GRID_ROWS_AT",
    "PICTURE_SIDE",
    "PLACES",
    "SPECIALS",
    "STATS",
    "Grid",
    "Specials",
    "encode_comparison",
    "encode_head",
    "encode_matrix",
    "encode_row",
    "encode_summary",
]

GRIDS: tuple[Grid, ...] = ("focus", "full", "none")
_EXTRAS = {"gqa", "decoder", "grid", "word", "text", "spans"}


def encode_head(mt: ModelTrace, ex: Explanation, *, layer: int, head: int) -> dict[str, Any]:
    """One head's explanation, arrays packed and cut to the shown window, and where it sits:
    /api/model/trace's answer without its extras (GQA, decoder, grid, word, text)."""
    v = view_of(mt, ex, layer=layer, head=head, grid="none")
    out: dict[str, Any] = encode_head_view(v).model_dump(mode="json", exclude=_EXTRAS)
    return out


def encode_matrix(m: MatrixView) -> MatrixAnswer:
    """One head's whole matrix as a picture: uint16 codes of its pooled cells."""
    r = int(m.cells.shape[0])
    return MatrixAnswer(
        layer=m.layer, head=m.head, n=m.n, shown=m.shown, cells=r, pool=m.how,
        pooled=r < m.shown, factor=math.ceil(m.shown / r), specials=m.specials,
        kept=m.kept.tolist(), edges=m.edges.tolist(), causal=m.causal, window=m.window,
        hidden_mean=round(float(m.hidden.mean()), PLACES) if m.hidden is not None else None,
        specials_named=(
            specials_named(m.present) if m.present and m.present != ("[CLS]", "[SEP]") else None
        ),
        row_max=float32(m.cells.max(axis=-1)),  # (r,) for a per-row colour scale
        weights=uint16(m.cells),  # (r, r)
    )  # fmt: skip


def encode_row(t: Trace, row: int, *, layer: int, head: int) -> RowAnswer:
    """Query `row`'s whole row of weights, float32, with where the causal mask starts."""
    w = t.weights[row]  # (n,)
    visible = int(t.mask[row].sum()) if t.mask is not None else t.n
    return RowAnswer(
        layer=layer, head=head, row=row, token=t.tokens[row], visible=visible,
        sum=round(float(w.sum()), 6), weights=float32(w),
    )  # fmt: skip


def encode_summary(s: HeadSummary, tokens: tuple[str, ...]) -> dict[str, Any]:
    return {
        "layer": s.layer, "head": s.head, "top": s.top, "top_token": tokens[s.top],
        "top_weight": s.top_weight, "entropy_bits": s.entropy_bits,
    }  # fmt: skip


def encode_comparison(c: Comparison) -> ComparisonAnswer:
    """The word's attention rows in both texts, the cosine of its vectors layer by layer, and
    A − B on the keys both texts hold."""

    def side(t: ModelTrace, w: Word | None, i: int, rows: FloatArray, found: Any) -> CompareSide:
        pieces = [i] if w is None else list(w.pieces)
        return CompareSide(
            tokens=list(t.tokens), index=i, rows=_round(rows), pieces=pieces,
            occurrences=[o.token for o in found],
        )  # fmt: skip

    return ComparisonAnswer(
        word=c.word,
        a=side(c.a, c.word_a, c.index_a, c.rows_a, c.occurrences_a),
        b=side(c.b, c.word_b, c.index_b, c.rows_b, c.occurrences_b),
        cosine=[round(float(x), PLACES) for x in c.cosine],
        cosine_labels=["embeddings"] + [f"layer {i}" for i in range(c.layers)],
        note=c.note,
        model=ModelSizes(name=c.a.model, n_layers=c.a.n_layers, n_heads=c.a.n_heads),
        shared=SharedKeys(
            tokens=[c.a.tokens[i] for i, _ in c.shared],
            a=[i for i, _ in c.shared],
            b=[j for _, j in c.shared],
            difference=c.difference_at(PLACES).tolist(),  # (L, H, S) of the rows as sent
        ),
    )


def _round(a: FloatArray) -> Any:
    """`a` to PLACES decimals, rounded in float64 (as Comparison.difference_at rounds)."""
    return np.round(np.asarray(a, dtype=np.float64), PLACES).tolist()
