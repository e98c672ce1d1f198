"""What the model view reads, built in Python: there is no server in a notebook.

The web page's host (static/model_app.js) asks /api/model/info and /api/model/trace; the widget
puts the same answers on its model as traits: "info" (sizes), "trace" (one head's explanation)
and "grid" (every head at a glance). For a real model's `ModelTrace` these are the one head view
(models/head_view.py) through the one encoder (encode/head_json.py) the routes use, so the
widget's answer is the page's. For weights handed in alone (`AttentionMaps`) the trace carries
the weights and no Q, K or V; its narration says which beats need them (words/weights_only.py).
`plain` makes any of them JSON the widget can send; `words_for` picks the words for what is
shown (words/model_help.py).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from attnlab.core.attention_maps import AttentionMaps
from attnlab.core.softmax import entropy_bits
from attnlab.encode.head_json import PLACES, encode_head_view, encode_info
from attnlab.encode.model_json import GRIDS
from attnlab.encode.packed import pack_float32, pack_uint16
from attnlab.models import ModelTrace
from attnlab.models.compare import DEFAULT_A, DEFAULT_B, DEFAULT_WORD
from attnlab.models.head_view import FULL_GRID_AT, Grid, head_view, summary_of
from attnlab.words.model_help import model_words
from attnlab.words.numfmt import num
from attnlab.words.weights_only import MAPS_WORDS, WEIGHTS_BEATS, narrate_weights

__all__ = [
    "FULL_GRID_MAX",
    "maps_grid",
    "maps_head",
    "maps_info",
    "model_answer",
    "model_info",
    "plain",
    "words_for",
]

FULL_GRID_MAX = FULL_GRID_AT
"""Up to this many tokens the grid holds whole matrices; beyond it the focus rows (model_app.js)."""


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


def maps_info(maps: AttentionMaps) -> dict[str, Any]:
    """The sizes of weights handed in alone; `weights_only` tells the view there is no Q, K, V."""
    return {
        "model": maps.source, "description": maps.source, "n_layers": maps.n_layers,
        "n_heads": maps.n_heads, "d_model": None, "d_k": None, "max_tokens": maps.n,
        "max_text_chars": None, "known_models": [maps.source], "grids": ["full"],
        "compare_defaults": None, "weights_only": True,
    }  # fmt: skip


def maps_head(maps: AttentionMaps, *, layer: int, head: int, focus: int) -> dict[str, Any]:
    """One head of weights handed in alone, in the trace's contract: weights, no Q, K or V."""
    w = maps.head(layer, head)  # (n, m)
    row = [float(x) for x in maps.rows(focus)[layer, head]]  # (m,)
    beats = narrate_weights(maps.tokens, maps.key_tokens, row, focus)
    others = [j for j in range(maps.m) if j != focus] or [focus]
    pair = [focus, max(others, key=lambda j: row[j])]
    pi, pj = pair
    square = maps.n == maps.m
    pair_words = [
        f"{maps.tokens[pi]} → {maps.key_tokens[pj]}: {num(float(w[pi, pj]))}",
        f"{maps.tokens[pj]} → {maps.key_tokens[pi]}: {num(float(w[pj, pi]))}" if square else "",
    ]
    captions = {
        "beats": {k: {"heading": t, "description": text, "notes": []} for k, t, text in beats},
        "divisor": "", "budget": "", "pair": [p for p in pair_words if p],
    }  # fmt: skip
    missing = ("embeddings", "queries", "keys", "values", "raw_scores", "scores", "outputs")
    return plain({
        "tokens": list(maps.tokens), "key_tokens": list(maps.key_tokens),
        "mode": "scaled", "axis": "keys", "d_k": None, "divisor": "nan", "temperature": None,
        "dim_names": None, "mask": None, "weights": pack_float32(w),  # packed as encode_head's
        **dict.fromkeys(missing),
        "focus": focus, "focus_token": maps.tokens[focus], "pair": pair,
        "narration": [{"key": k, "title": t, "text": text} for k, t, text in beats],
        "saturation": None, "captions": captions, "readings": None, "weights_only": True,
        "drawn_beats": list(WEIGHTS_BEATS),
        "window": {  # every row shown: encode_head's window of a short text
            "rows": list(range(maps.n)), "n": maps.n, "whole": True,
            "all_tokens": list(maps.tokens), "focus": focus,
            "shown_weight": round(sum(row), PLACES), "focus_row": pack_float32(np.asarray(row)),
        },
        "model": {"name": maps.source, "layer": layer, "head": head,
                  "n_layers": maps.n_layers, "n_heads": maps.n_heads},
    })  # fmt: skip


def maps_grid(maps: AttentionMaps, focus: int) -> dict[str, Any]:
    """Every head at a glance, in encode_grid's contract: whole matrices for a short text, the
    focus rows for a long one."""
    rows = maps.rows(focus).astype(np.float64)  # (L, H, m)
    full = maps.n <= FULL_GRID_MAX
    out = {
        "kind": "full" if full else "focus", "layers": maps.n_layers, "heads": maps.n_heads,
        "focus": focus, "top": rows.argmax(axis=-1).tolist(),
        "entropy_bits": np.round(entropy_bits(rows), PLACES).tolist(),
    }  # fmt: skip
    if full:
        out["attentions"] = pack_uint16(maps.weights)  # (L, H, n, m), as encode_grid packs it
    else:
        out["rows"] = pack_uint16(rows)  # (L, H, m)
    return plain(out)


def words_for(
    words: dict[str, str], *, causal: bool = False, special: tuple[str, ...] = (),
    tokens: tuple[str, ...] = (), source: str | None = None, weights_only: bool = False,
) -> dict[str, str]:  # fmt: skip
    """The page's words and the weights-only words, one dict, with the help and intro of the
    model or weights shown (words/model_help.py)."""
    return model_words(
        {**words, **MAPS_WORDS}, causal=causal, special=special, tokens=tokens, source=source,
        weights_only=weights_only,
    )  # fmt: skip
