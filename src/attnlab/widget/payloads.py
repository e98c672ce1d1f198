"""What the model view reads, built in Python: there is no server in a notebook.

The web page's host (static/model_host.js) asks /api/model/info, /api/model/trace,
/api/model/matrix and /api/model/row; the widget puts the same answers on its model as traits:
"info" (sizes), "trace" (one head's explanation), "grid" (every head at a glance), "matrix"
(one head's whole matrix as a picture: models/matrix_view.py through encode_matrix, the
route's one path), "row" (one query row's weights, encode_row) and "mask" (the Mask a token
panel's run: models/masking.py through encode_masking, /api/model/mask's path). For a real
model's `ModelTrace` these are the one head view
(models/head_view.py) through the one encoder (encode/head_json.py) the routes use, so the
widget's answer is the page's. For weights handed in alone (`AttentionMaps`) they are
models/maps_view.py's view through encode/maps_json.py: the weights and no Q, K or V, the
narration saying which beats need them (words/weights_only.py).
`plain` makes any of them JSON the widget can send; `words_for` picks the words for what is
shown (words/model_help.py).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from attnlab.core.attention_maps import AttentionMaps
from attnlab.core.pooling import Pool
from attnlab.encode.head_json import encode_head_view, encode_info
from attnlab.encode.maps_json import (
    encode_maps_grid,
    encode_maps_head,
    encode_maps_info,
    encode_maps_row,
)  # fmt: skip
from attnlab.encode.model_json import GRIDS, encode_matrix, encode_row
from attnlab.encode.model_views_json import encode_masking
from attnlab.models import Model, ModelTrace
from attnlab.models.compare import DEFAULT_A, DEFAULT_B, DEFAULT_WORD
from attnlab.models.head_view import FULL_GRID_AT, Grid, head_view, summary_of
from attnlab.models.maps_view import maps_grid_view, maps_matrix_view, maps_view
from attnlab.models.masking import How, mask_of, masked_run
from attnlab.models.matrix_view import Specials, matrix_view
from attnlab.words.model_help import model_words
from attnlab.words.notebook import notebook_words
from attnlab.words.weights_only import MAPS_WORDS, sized

__all__ = [
    "FULL_GRID_MAX",
    "maps_grid",
    "maps_head",
    "maps_info",
    "mask_answer",
    "matrix_answer",
    "model_answer",
    "model_info",
    "plain",
    "row_answer",
    "words_for",
]

FULL_GRID_MAX = FULL_GRID_AT
"""Up to this many tokens the grid holds whole matrices, beyond it focus rows (model_host.js)."""


def plain(value: dict[str, Any]) -> dict[str, Any]:
    """`value` as JSON-ready Python (NumPy scalars and arrays to numbers and lists)."""

    def default(x: Any) -> Any:
        if isinstance(x, np.generic):
            return x.item()
        if isinstance(x, np.ndarray):
            return x.tolist()
        raise TypeError(f"cannot send {type(x).__name__} to the page")

    out: dict[str, Any] = json.loads(json.dumps(value, default=default, allow_nan=False))
    return out


def model_info(mt: ModelTrace) -> dict[str, Any]:
    """What /api/model/info answers, for the model behind `mt` (its summary)."""
    return encode_info(
        summary_of(mt), known_models=[mt.model], grids=GRIDS, max_text_chars=None,
        compare_defaults=(DEFAULT_WORD, DEFAULT_A, DEFAULT_B),
    ).model_dump(mode="json")  # fmt: skip


def model_answer(
    mt: ModelTrace, *, layer: int, head: int, focus: int | None, grid: bool = True
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """/api/model/trace's answer split as the page's host splits it: (the head, the grid), the
    grid of whole matrices for a short text and of focus rows for a long one (None: not asked)."""
    kind: Grid = ("full" if mt.n <= FULL_GRID_MAX else "focus") if grid else "none"
    answer = encode_head_view(head_view(mt, layer=layer, head=head, focus=focus, grid=kind))
    held = answer.grid
    return (
        answer.model_dump(mode="json", exclude={"grid"}),
        None if held is None else held.model_dump(mode="json"),
    )


def matrix_answer(
    source: ModelTrace | AttentionMaps, *, layer: int, head: int, pool: Pool, specials: Specials
) -> dict[str, Any]:
    """/api/model/matrix's answer: head (layer, head) of a model's pass, or of weights handed
    in alone, as the matrix panel's picture (one path: matrix_view.weights_matrix_view)."""
    if isinstance(source, AttentionMaps):
        view = maps_matrix_view(source, layer=layer, head=head, how=pool, specials=specials)
    else:
        t = source.head(layer, head)
        view = matrix_view(source, t, layer=layer, head=head, how=pool, specials=specials)
    return encode_matrix(view).model_dump(mode="json", by_alias=True)


def row_answer(
    source: ModelTrace | AttentionMaps, *, layer: int, head: int, row: int
) -> dict[str, Any]:
    """/api/model/row's answer: query `row`'s weights over every key, for the matrix panel."""
    if isinstance(source, AttentionMaps):
        answer = encode_maps_row(source, row, layer=layer, head=head)
    else:
        answer = encode_row(source.head(layer, head), row, layer=layer, head=head)
    return answer.model_dump(mode="json", by_alias=True)


def maps_info(maps: AttentionMaps) -> dict[str, Any]:
    """The sizes of weights handed in alone; `weights_only` tells the view there is no Q, K, V."""
    return encode_maps_info(maps).model_dump(mode="json")


def maps_head(maps: AttentionMaps, *, layer: int, head: int, focus: int) -> dict[str, Any]:
    """One head of weights handed in alone, in the trace's keys: weights, no Q, K or V."""
    view = maps_view(maps, layer=layer, head=head, focus=focus)
    return encode_maps_head(view).model_dump(mode="json")


def maps_grid(maps: AttentionMaps, focus: int) -> dict[str, Any]:
    """Every head at a glance: whole matrices for a short text, the focus rows for a long one."""
    return encode_maps_grid(maps_grid_view(maps, focus)).model_dump(mode="json", exclude_unset=True)


def words_for(
    words: dict[str, str], *, causal: bool = False, special: tuple[str, ...] = (),
    tokens: tuple[str, ...] = (), source: str | None = None, weights_only: bool = False,
    sizes: tuple[int, int] | None = None,
) -> dict[str, str]:  # fmt: skip
    """The page's words and the weights-only words, one dict, with the help and intro of the
    model or weights shown (words/model_help.py), said as a notebook says them (no address
    bar: words/notebook.py); `sizes` (layers, heads) counts the weights' in their intro."""
    out = model_words(
        notebook_words({**words, **MAPS_WORDS}), causal=causal, special=special, tokens=tokens,
        source=source, weights_only=weights_only,
    )  # fmt: skip
    return out if sizes is None else sized(out, n_layers=sizes[0], n_heads=sizes[1])


def mask_answer(
    model: Model, mt: ModelTrace, *, focus: int, word: str | int, how: How, occurrence: int = 1
) -> dict[str, Any]:
    """/api/model/mask's answer (web/model_views_routes.py `_mask`, the same two calls):
    `word` masked (or dropped) in `mt`'s text, the model run again, the focus's drift per layer.
    A model that cannot rerun edited tokens, or an edit too long to run, is refused by field."""
    m = masked_run(model, mt, focus=focus, word=word, occurrence=occurrence, how=how)
    mask = mask_of(model)
    return encode_masking(m, mask_name=mask[0] if mask else "").model_dump(mode="json")
