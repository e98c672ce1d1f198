"""The lab's "Cheaper attention" section on the toy: each cheaper form run beside the exact one.

One frozen `CheaperLab` per (sentence, options, focus, tile), computed once for the page, the
widget and the terminal, every number from a run of the core (nothing is a constant):

* online: the focus row in tiles of `tile` keys (core/online_softmax.py), every step's m, ℓ, O
  and rescale, against the lesson's own Softmax and Blend numbers (max |Δ|);
* heads: the toy's two heads (meaning, structure) on one shared key/value head (MQA), compact
  against expanded (core/kv_heads.py), and the meaning head through a latent (MLA: W_UK
  absorbed into W_Q) against the lesson's scores; the cache numbers per token of each form;
* windows: under a causal mask, the keys the focus row keeps with a sliding window of w keys
  and with s sinks + a window, and the share of the full row's weight each throws away;
* linear: φ(q)·φ(k) (core/linear_attention.py) against the exact rows, and the sharpening.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from attnlab.core.attention import attend
from attnlab.core.kv_heads import (
    CacheForm,
    cache_forms,
    expanded_outputs,
    grouped_outputs,
    latent_factors,
    mla_outputs,
    mla_scores,
    pool_kv,
)
from attnlab.core.linear_attention import LinearComparison, compare_linear, sharpening
from attnlab.core.online_softmax import OnlineAttention, online_attend
from attnlab.core.trace import Trace
from attnlab.errors import ShapeError
from attnlab.lesson.compute import compute
from attnlab.lesson.explain import explain_lesson
from attnlab.lesson.options import LessonOptions
from attnlab.lesson.toy import DEFAULT_SENTENCE, HEADS
from attnlab.types import FloatArray

__all__ = ["SHARPEN", "TILES", "CheaperLab", "KeptKeys", "cheaper_lab"]

TILES = (1, 2, 3, 4)
"""The tile sizes the lab offers: a toy row has at most 12 keys."""
SHARPEN = (1.0, 2.0, 5.0, 10.0, 100.0)
"""The factors the focus query is scaled by to show the softmax becoming a lookup."""


@dataclass(frozen=True)
class KeptKeys:
    """One masking scheme for the focus row: the keys it keeps and the weight it throws away."""

    scheme: str  # "full", "window", "sinks"
    window: int | None
    sinks: int
    kept: tuple[int, ...]  # key indices
    dropped_mass: float  # the full causal row's weight on the keys dropped
    weights: FloatArray  # (n,) the row renormalised over the kept keys


@dataclass(frozen=True)
class CheaperLab:
    tokens: tuple[str, ...]
    focus: int
    tile: int
    online: OnlineAttention  # the focus row, (1, ·)
    exact_weights: FloatArray  # (n,) the lesson's Softmax beat
    exact_output: FloatArray  # (d_v,) the lesson's Blend beat
    online_diff: float  # max |Δ| over the weights and the output
    mqa_diff: float  # compact against expanded, both heads on one pooled key/value head
    mla_d_c: int  # the latent's width
    mla_score_diff: float  # absorbed scores against the lesson's raw scores
    mla_output_diff: float
    forms: tuple[CacheForm, ...]  # the toy's cache numbers per token: MHA, MQA, MLA
    kept: tuple[KeptKeys, ...]
    linear: LinearComparison
    linear_focus: FloatArray  # (n,) the focus row under linear attention
    sharpen: tuple[float, ...]
    sharpen_softmax: FloatArray  # (len(SHARPEN),) the softmax row's top weight
    sharpen_linear: FloatArray


def cheaper_lab(
    sentence: str = DEFAULT_SENTENCE,
    options: LessonOptions | None = None,
    *,
    focus: str | int | None = None,
    tile: int = 2,
) -> CheaperLab:
    """The Cheaper attention section for the lesson on screen (head 1, its options; Uniform
    ignores the scores, so the section then uses the Scaled scores)."""
    if tile not in TILES:
        raise ShapeError(f"a tile holds 1 to {TILES[-1]} keys here, got {tile!r}", field="tile")
    opts = replace(options or LessonOptions(), axis="keys", heads=1, shuffle=None)
    if opts.mode == "uniform":
        opts = replace(opts, mode="scaled", temperature=None)
    ex = explain_lesson(sentence, opts, focus=focus)
    t, f = ex.trace, ex.focus
    row = online_attend(t.queries[f : f + 1], t.keys, t.values, tile=tile,
                        mask=None if t.mask is None else t.mask[f : f + 1],
                        temperature=t.divisor)  # fmt: skip
    soft, lin = sharpening(t.queries[f], t.keys, SHARPEN)
    online_diff = max(float(np.abs(row.weights()[0] - t.weights[f]).max()),
                      float(np.abs(row.outputs[0] - t.outputs[f]).max()))  # fmt: skip
    return CheaperLab(
        tokens=t.tokens, focus=f, tile=tile, online=row,
        exact_weights=t.weights[f], exact_output=t.outputs[f], online_diff=online_diff,
        mqa_diff=_mqa_diff(sentence, opts), **_mla(t),
        kept=_kept(t.queries, t.keys, t.values, f, t.divisor),
        linear=compare_linear(t.queries, t.keys, t.values),
        linear_focus=compare_linear(t.queries, t.keys, t.values).linear[f],
        sharpen=SHARPEN, sharpen_softmax=soft, sharpen_linear=lin,
    )  # fmt: skip


def _mqa_diff(sentence: str, opts: LessonOptions) -> float:
    """Both toy heads' queries over one key/value head (their keys and values pooled): the
    compact form against the expanded one."""
    runs = [compute(sentence, opts, head=h).trace for h in range(len(HEADS))]
    q = np.stack([r.queries for r in runs])  # (2, n, 4)
    k = pool_kv(np.stack([r.keys for r in runs]), 1)  # (1, n, 4)
    v = pool_kv(np.stack([r.values for r in runs]), 1)  # (1, n, 4)
    return float(np.abs(grouped_outputs(q, k, v) - expanded_outputs(q, k, v)).max())


def _mla(t: Trace) -> dict[str, Any]:
    """The meaning head's W_K and W_V through the smallest latent; its scores from the latent.
    With word order or edited vectors the trace's q, k, v are not x W (NaN: not comparable)."""
    x = t.embeddings if t.embeddings is not None else np.zeros_like(t.queries)
    head = HEADS[0]
    lat = latent_factors(head.w_k, head.w_v)
    _, absorbed, c = mla_scores(x, head.w_q, lat)
    ok = t.queries.shape == (x @ head.w_q).shape and np.allclose(t.queries, x @ head.w_q)
    score_diff = float(np.abs(absorbed - t.raw_scores).max()) if ok else float("nan")
    out, _ = mla_outputs(t.weights, lat, c)
    out_ok = t.values.shape == (x @ head.w_v).shape and np.allclose(t.values, x @ head.w_v)
    return {
        "mla_d_c": lat.d_c,
        "mla_score_diff": score_diff,
        "mla_output_diff": float(np.abs(out - t.outputs).max()) if out_ok else float("nan"),
        "forms": cache_forms(
            n_heads=len(HEADS), d_k=head.w_k.shape[1], d_c=lat.d_c, bytes_per_number=8
        ),
    }


def _kept(
    q: FloatArray, k: FloatArray, v: FloatArray, f: int, divisor: float
) -> tuple[KeptKeys, ...]:
    """Under a causal mask: the full row, a window of 2 keys, 1 sink + a window of 2."""
    n = q.shape[0]
    full = attend(q[f : f + 1], k[: f + 1], v[: f + 1], temperature=divisor).weights[0]  # (f + 1,)
    out = []
    for scheme, w, s in (("full", None, 0), ("window", 2, 0), ("sinks", 2, 1)):
        keys = range(f + 1)
        kept = tuple(j for j in keys if w is None or j > f - w or j < s)
        row = np.zeros(n)
        sub = attend(q[f : f + 1], k[list(kept)], v[list(kept)], temperature=divisor).weights[0]
        row[list(kept)] = sub
        dropped = float(sum(full[j] for j in keys if j not in kept))
        out.append(KeptKeys(scheme, w, s, kept, dropped, row))
    return tuple(out)
