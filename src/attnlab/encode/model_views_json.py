"""The JSON form of the Real model's extra views: a layer's heads for the head view, a masking
run layer by layer, a word's pieces, and Compare contexts' shared keys with A − B.

Weights round to model_json.PLACES decimals like the heads grid; every number is finite.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from attnlab.core.trace import Trace
from attnlab.encode.model_json import PLACES
from attnlab.models.compare import Comparison
from attnlab.models.masking import Masking
from attnlab.models.model_trace import ModelTrace, word_like
from attnlab.models.pieces import split_words
from attnlab.types import FloatArray
from attnlab.words.model_views import PieceWhy, mask_note, pieces_note

__all__ = [
    "encode_differences",
    "encode_layer_heads",
    "encode_lesson_heads",
    "encode_masking",
    "encode_word",
]


def _round(a: FloatArray) -> Any:
    return np.round(np.asarray(a, dtype=np.float64), PLACES).tolist()


def encode_layer_heads(mt: ModelTrace, layer: int) -> dict[str, Any]:
    """Every head of `layer` whole, the mean of its heads, and the mean of every layer's heads."""
    a = mt.attentions  # (L, H, n, n)
    return {
        "source": "model", "name": mt.model, "tokens": list(mt.tokens), "layer": layer,
        "n_layers": mt.n_layers, "n_heads": mt.n_heads,
        "heads": _round(a[layer]),  # (H, n, n)
        "mean_heads": _round(a[layer].mean(axis=0)),  # (n, n)
        "mean_layers": _round(a.mean(axis=(0, 1))),  # (n, n)
    }  # fmt: skip


def encode_lesson_heads(traces: tuple[Trace, ...], name: str) -> dict[str, Any]:
    """The toy lesson's heads in the same form (one layer; its mean over layers is that layer)."""
    w = np.stack([t.weights for t in traces])  # (H, n, n)
    mean = w.mean(axis=0)
    return {
        "source": "lesson", "name": name, "tokens": list(traces[0].tokens), "layer": 0,
        "n_layers": 1, "n_heads": len(traces), "heads": _round(w),
        "mean_heads": _round(mean), "mean_layers": _round(mean),
    }  # fmt: skip


def encode_word(mt: ModelTrace, focus: int) -> dict[str, Any] | None:
    """The word the focus token belongs to when it has several pieces, else None; its token
    and note name the piece followed, the focus (the steps' token)."""
    for w in split_words(mt.tokens, mt.special):
        if focus in w.pieces and len(w.pieces) > 1:
            pieces = [mt.tokens[j] for j in w.pieces]
            word_like_last = [j for j in w.pieces if word_like(mt.tokens[j])][-1:] == [focus]
            why: PieceWhy = "last" if focus == w.token else "word" if word_like_last else "chosen"
            note = pieces_note(w.text, pieces, mt.tokens[focus], why=why)
            return {"text": w.text, "pieces": list(w.pieces), "token": focus, "note": note}
    return None


def encode_masking(m: Masking, *, mask_name: str) -> dict[str, Any]:
    """The masking run layer by layer: row and vector distances beside the plain run."""
    target = m.target
    layers = m.base.n_layers
    note = mask_note(
        how=m.how, word="" if target is None else target.text, focus=m.base.tokens[m.focus],
        tv_last=float(m.tv_mean[-1]), cos_last=float(max(m.cosine_distance[-1], 0.0)),
        layers=layers, mask=mask_name,
    )  # fmt: skip
    return {
        "how": m.how,
        "tokens": list(m.base.tokens),
        "edited_tokens": list(m.edited.tokens),
        "focus": m.focus,
        "edited_focus": m.edited_focus,
        "target": None if target is None else {"text": target.text, "pieces": list(target.pieces)},
        "layers": layers,
        "heads": m.base.n_heads,
        "tv": _round(m.tv),  # (L, H)
        "tv_mean": _round(m.tv_mean),  # (L,)
        "target_weight": _round(m.target_weight),  # (L, H)
        "cosine_distance": _round(np.maximum(m.cosine_distance, 0.0)),  # (L + 1,)
        "l2": _round(m.l2),  # (L + 1,)
        "labels": ["in"] + [str(i) for i in range(layers)],
        "note": note,
    }


def encode_differences(c: Comparison) -> dict[str, Any]:
    """The keys both sentences share and A − B on them, per layer and head."""
    d = c.difference  # (L, H, S)
    return {
        "tokens": [c.a.tokens[i] for i, _ in c.shared],
        "a": [i for i, _ in c.shared],
        "b": [j for _, j in c.shared],
        "difference": _round(d),
    }
