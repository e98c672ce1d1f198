"""The JSON form of the Real model's extra views: a layer's heads for the head view and a
masking run layer by layer (a word's pieces are head_json.py's, Compare's shared keys
model_json.py's).

Each is built as its declared answer (answers_model_views.py). Weights round to
model_json.PLACES decimals like the heads grid; every number is finite.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from attnlab.core.trace import Trace
from attnlab.encode.answers_model_views import HeadsAnswer, MaskAnswer, MaskTarget
from attnlab.encode.model_json import PLACES
from attnlab.models.masking import Masking
from attnlab.models.model_trace import ModelTrace
from attnlab.types import FloatArray
from attnlab.words.model_views import mask_note

__all__ = [
    "encode_layer_heads",
    "encode_lesson_heads",
    "encode_masking",
]


def _round(a: FloatArray) -> Any:
    return np.round(np.asarray(a, dtype=np.float64), PLACES).tolist()


def encode_layer_heads(mt: ModelTrace, layer: int) -> HeadsAnswer:
    """Every head of `layer` whole, the mean of its heads, and the mean of every layer's heads."""
    a = mt.attentions  # (L, H, n, n)
    return HeadsAnswer(
        source="model", name=mt.model, tokens=list(mt.tokens), layer=layer,
        n_layers=mt.n_layers, n_heads=mt.n_heads,
        heads=_round(a[layer]),  # (H, n, n)
        mean_heads=_round(a[layer].mean(axis=0)),  # (n, n)
        mean_layers=_round(a.mean(axis=(0, 1))),  # (n, n)
    )  # fmt: skip


def encode_lesson_heads(traces: tuple[Trace, ...], name: str) -> HeadsAnswer:
    """The toy lesson's heads in the same form (one layer; its mean over layers is that layer)."""
    w = np.stack([t.weights for t in traces])  # (H, n, n)
    mean = w.mean(axis=0)
    return HeadsAnswer(
        source="lesson", name=name, tokens=list(traces[0].tokens), layer=0, n_layers=1,
        n_heads=len(traces), heads=_round(w), mean_heads=_round(mean), mean_layers=_round(mean),
    )  # fmt: skip


def encode_masking(m: Masking, *, mask_name: str) -> MaskAnswer:
    """The masking run layer by layer: row and vector distances beside the plain run."""
    target = m.target
    layers = m.base.n_layers
    note = mask_note(
        how=m.how, word="" if target is None else target.text, focus=m.base.tokens[m.focus],
        tv_last=float(m.tv_mean[-1]), cos_last=float(max(m.cosine_distance[-1], 0.0)),
        layers=layers, mask=mask_name,
    )  # fmt: skip
    return MaskAnswer(
        how=m.how,
        tokens=list(m.base.tokens),
        edited_tokens=list(m.edited.tokens),
        focus=m.focus,
        edited_focus=m.edited_focus,
        target=None if target is None else MaskTarget(text=target.text, pieces=list(target.pieces)),
        layers=layers,
        heads=m.base.n_heads,
        tv=_round(m.tv),  # (L, H)
        tv_mean=_round(m.tv_mean),  # (L,)
        target_weight=_round(m.target_weight),  # (L, H)
        cosine_distance=_round(np.maximum(m.cosine_distance, 0.0)),  # (L + 1,)
        l2=_round(m.l2),  # (L + 1,)
        labels=["in"] + [str(i) for i in range(layers)],
        note=note,
    )
