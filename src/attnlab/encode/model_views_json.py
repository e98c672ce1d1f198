"""The JSON form of the Real model's extra views: a layer's heads for the head view and a
masking run layer by layer (a word's pieces are head_json.py's, Compare's shared keys
model_json.py's).

Each is built as its declared answer (answers_heads.py, answers_model_views.py). The head view's
strongest keys cross packed (encode/packed.py): weights as uint16 codes (within 7.6e-6), key
indices as uint16 with scale 1 (exact). The masking's distances cross with SIGNIFICANT
significant digits, not model_json.PLACES decimals: 4 places wrote a vector change of 0.00016 as
0.0002 and a smaller one as 0, under a panel that says 0 means nothing moved. What is below the
arithmetic's resolution crosses as 0: a row or a distance of float32 numbers below
WEIGHT_NOISE (layer 0's row under a mask moves by ~1e-8, float32's rounding), a 1 − cosine
below COSINE_NOISE (2.2e-16 for a cosine of equal vectors). Every number is finite.
"""

from __future__ import annotations

import base64
from typing import Any

import numpy as np

from attnlab.core.trace import Trace
from attnlab.encode.answers_heads import HeadsAnswer, TopKeys
from attnlab.encode.answers_model import PackedArray
from attnlab.encode.answers_model_views import MaskAnswer, MaskTarget
from attnlab.encode.packed import Packed, pack_float32, pack_uint16
from attnlab.models.layer_heads import TOP_KEYS, LayerHeads, TopRows, layer_heads, top_rows
from attnlab.models.masking import Masking
from attnlab.models.model_trace import ModelTrace
from attnlab.types import FloatArray
from attnlab.words.model_views import heads_note, mask_note

__all__ = [
    "encode_layer_heads",
    "encode_lesson_heads",
    "encode_masking",
]


SIGNIFICANT = 6
WEIGHT_NOISE = 1e-6
COSINE_NOISE = 1e-10


def _significant(a: FloatArray, noise: float = WEIGHT_NOISE) -> Any:
    """`a` with SIGNIFICANT significant digits, |x| < `noise` as 0, as nested lists."""
    x = np.asarray(a, dtype=np.float64)
    flat = [0.0 if abs(v) < noise else float(f"{v:.{SIGNIFICANT - 1}e}") for v in x.ravel()]
    return np.asarray(flat, dtype=np.float64).reshape(x.shape).tolist()


def _pack_keys(keys: np.ndarray) -> Packed:
    """Key indices as uint16 codes with scale 1 (value = code), float32 past 65,535 keys."""
    if int(keys.max(initial=0)) > 0xFFFF:
        return pack_float32(keys)  # exact up to 2²⁴
    codes = np.ascontiguousarray(keys, dtype="<u2")
    data = base64.b64encode(codes.tobytes()).decode("ascii")
    return {"dtype": "uint16", "shape": list(codes.shape), "data": data, "scale": 1.0}


def _top_keys(t: TopRows | None) -> TopKeys | None:
    if t is None:
        return None
    return TopKeys(
        keys=PackedArray.model_validate(_pack_keys(t.keys)),
        weights=PackedArray.model_validate(pack_uint16(t.weights)),
        share=[float(x) for x in np.atleast_1d(t.share)],
    )


def _heads_answer(
    lh: LayerHeads, *, source: str, name: str, tokens: list[str], n_layers: int, n_heads: int
) -> HeadsAnswer:
    heads = _top_keys(lh.heads)
    assert heads is not None
    note = heads_note(
        n=lh.n, top=lh.top, floor=lh.heads.floor, shares=heads.share,
        mean_layers=lh.mean_layers is not None, mean_layers_max=lh.mean_layers_max,
        n_layers=n_layers, n_heads=n_heads,
    )  # fmt: skip
    return HeadsAnswer.model_validate(
        {
            "source": source,
            "name": name,
            "tokens": tokens,
            "layer": lh.layer,
            "n_layers": n_layers,
            "n_heads": n_heads,
            "top": lh.top,
            "floor": lh.heads.floor,
            "heads": heads,
            "mean_heads": _top_keys(lh.mean_heads),
            "mean_layers": _top_keys(lh.mean_layers),
            "mean_layers_max": lh.mean_layers_max,
            "note": note,
        }
    )


def encode_layer_heads(mt: ModelTrace, layer: int) -> HeadsAnswer:
    """Each head of `layer`, their mean and the mean of every layer's heads, as each query
    row's strongest keys (models/layer_heads.py)."""
    return _heads_answer(
        layer_heads(mt, layer), source="model", name=mt.model, tokens=list(mt.tokens),
        n_layers=mt.n_layers, n_heads=mt.n_heads,
    )  # fmt: skip


def encode_lesson_heads(traces: tuple[Trace, ...], name: str) -> HeadsAnswer:
    """The toy lesson's heads in the same form (one layer; its mean over layers is that layer)."""
    w = np.stack([t.weights for t in traces])  # (H, n, n)
    mean = top_rows(w.mean(axis=0), TOP_KEYS)  # (n, top)
    n = w.shape[-1]
    lh = LayerHeads(
        layer=0, n=n, top=min(TOP_KEYS, n), heads=top_rows(w, TOP_KEYS), mean_heads=mean,
        mean_layers=mean, mean_layers_max=n,
    )  # fmt: skip
    return _heads_answer(
        lh, source="lesson", name=name, tokens=list(traces[0].tokens), n_layers=1,
        n_heads=len(traces),
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
        edited_text=m.edited_text,
        tv=_significant(m.tv),  # (L, H)
        tv_mean=_significant(m.tv_mean),  # (L,)
        target_weight=_significant(m.target_weight),  # (L, H)
        cosine_distance=_significant(np.maximum(m.cosine_distance, 0.0), COSINE_NOISE),  # (L + 1,)
        l2=_significant(m.l2),  # (L + 1,)
        labels=["in"] + [str(i) for i in range(layers)],
        note=note,
    )
