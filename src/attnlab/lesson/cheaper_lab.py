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

__all__ = ["SHARPEN", "CheaperLab", "KeptKeys", "cheaper_lab"]

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
    online: OnlineAttention  # the focus row, (1, ·), on the lesson's scores
    online_note: str | None  # "axis": the lesson's softmax runs over queries, no tiled form
    exact_weights: FloatArray  # (n,) the lesson's Softmax beat
    exact_output: FloatArray  # (d_v,) the lesson's Blend beat
    online_diff: float  # max |Δ| over the weights and the output
    mqa_diff: float  # compact against expanded, both heads on one pooled key/value head
    mla_d_c: int  # the latent's width
    mla_score_diff: float  # absorbed scores against the lesson's raw scores
    mla_output_diff: float
    forms: tuple[CacheForm, ...]  # the toy's cache numbers per token: MHA, MQA, MLA
    kept: tuple[KeptKeys, ...]
    linear: (
        LinearComparison  # against `linear_exact`'s run: over the keys whatever the lesson's axis
    )
    linear_note: (
        str | None
    )  # "axis": the lesson's softmax runs over queries; linear compares over keys
    linear_exact: FloatArray  # (n,) the softmax row the linear card compares with (keys axis)
    linear_top1_tied: bool  # every exact row's top weight is shared (Uniform): no top-1 to keep
    linear_focus: FloatArray  # (n,) the focus row under linear attention
    linear_focus_mean: float  # mean |Δ| on the focus row alone (linear.mean_abs: every row)
    sharpen: tuple[float, ...]
    sharpen_softmax: FloatArray  # (len(SHARPEN),) the softmax row's top weight
    sharpen_linear: FloatArray
    sharpen_keys: int  # the keys the focus row may see (the causal mask's)
    uniform: bool  # the lesson's mode is Uniform: the scores are ignored


def cheaper_lab(
    sentence: str = DEFAULT_SENTENCE,
    options: LessonOptions | None = None,
    *,
    focus: str | int | None = None,
    tile: int = 2,
) -> CheaperLab:
    """The Cheaper attention section for the lesson on screen (head 1, its options).

    The online softmax and linear attention run on the lesson's own scores and compare with its
    own row: Uniform's equal scores, the temperature, the causal mask. Softmax over the queries
    has no tiled form (the tiles run along a row of keys): `online_note` is then "axis" and the
    badge says so instead of a check. The heads and windows cards use the keys axis, and the
    Scaled scores under Uniform (which ignores them)."""
    lesson_opts = replace(options or LessonOptions(), heads=1, shuffle=None)
    opts = replace(lesson_opts, axis="keys")
    if opts.mode == "uniform":
        opts = replace(opts, mode="scaled", temperature=None)
    lesson = explain_lesson(sentence, lesson_opts, focus=focus).trace  # what the lesson shows
    ex = explain_lesson(sentence, opts, focus=focus)
    t, f = ex.trace, ex.focus
    n = len(t.tokens)
    if isinstance(tile, bool) or not isinstance(tile, int) or not 1 <= tile <= n:
        raise ShapeError(
            f"a tile holds 1 to {n} keys here (the sentence's {n} words), got {tile!r}",
            field="tile",
        )
    row, online_diff, note = _online(lesson, f, tile)
    mask_row = slice(None) if lesson.mask is None else lesson.mask[f]
    temperature = lesson.divisor if lesson.mode == "scaled" else None
    soft, lin = sharpening(lesson.queries[f], lesson.keys[mask_row], SHARPEN,
                           mode=lesson.mode, temperature=temperature)  # fmt: skip
    # φ(q)·φ(k) sums along a row of keys: with the lesson's softmax over queries it is compared
    # with the softmax over the keys (the same mode, temperature and mask), and says so.
    over_keys = (
        lesson
        if lesson.axis == "keys"
        else explain_lesson(sentence, replace(lesson_opts, axis="keys"), focus=focus).trace
    )
    linear = compare_linear(lesson.queries, lesson.keys, lesson.values,
                            causal=lesson_opts.causal, exact=over_keys)  # fmt: skip
    top = over_keys.weights.max(axis=-1, keepdims=True)
    tied = bool((np.isclose(over_keys.weights, top, rtol=0, atol=1e-12).sum(axis=-1) > 1).all())
    return CheaperLab(
        tokens=t.tokens, focus=f, tile=tile, online=row, online_note=note,
        exact_weights=lesson.weights[f], exact_output=lesson.outputs[f], online_diff=online_diff,
        mqa_diff=_mqa_diff(sentence, opts), **_mla(t),
        kept=_kept(t.queries, t.keys, t.values, f, t.divisor),
        linear=linear, linear_note=None if lesson.axis == "keys" else "axis",
        linear_exact=over_keys.weights[f], linear_top1_tied=tied, linear_focus=linear.linear[f],
        linear_focus_mean=float(np.abs(linear.linear[f] - over_keys.weights[f]).mean()),
        sharpen=SHARPEN, sharpen_softmax=soft, sharpen_linear=lin,
        sharpen_keys=int(lesson.keys[mask_row].shape[0]), uniform=lesson.mode == "uniform",
    )  # fmt: skip


def _online(lesson: Trace, f: int, tile: int) -> tuple[OnlineAttention, float, str | None]:
    """The focus row in tiles on the lesson's scores, its max |Δ| from the lesson's row, and
    why there is no check ("axis": the lesson normalises over queries) or None.

    Uniform ignores the scores, the same as equal scores: the tiles then run on q = 0, every
    score 0 (T = √dₖ; any T gives 0)."""
    q = (
        np.zeros_like(lesson.queries[f : f + 1])
        if lesson.mode == "uniform"
        else lesson.queries[f : f + 1]
    )
    temperature = None if lesson.mode == "uniform" else lesson.divisor
    row = online_attend(q, lesson.keys, lesson.values, tile=tile,
                        mask=None if lesson.mask is None else lesson.mask[f : f + 1],
                        temperature=temperature)  # fmt: skip
    if lesson.axis != "keys":
        return row, float("nan"), "axis"
    diff = max(float(np.abs(row.weights()[0] - lesson.weights[f]).max()),
               float(np.abs(row.outputs[0] - lesson.outputs[f]).max()))  # fmt: skip
    return row, diff, None


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
