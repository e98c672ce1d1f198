"""The words of the Cheaper attention section: each card's badge and its sentences, from numbers.

A badge says whether a cheaper form is the same arithmetic as the exact formula or an
approximation of it, with the measured difference: "exact: max |Δ| = 2.2e-16" or "approximate:
mean |Δ| = 0.09, top-1 key kept in 75 % of rows". The online softmax's steps are told tile by
tile with the symbols of FlashAttention's paper (m, ℓ, O). Numbers follow numfmt.py; differences
near rounding are written in scientific notation, since 0.00 would hide them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from attnlab.core.kv_heads import CacheForm
from attnlab.core.online_softmax import TileStep
from attnlab.words.numfmt import num, vec

__all__ = [
    "END_CAPTION",
    "END_CAPTION_AXIS",
    "EXACT_BELOW",
    "LINEAR_AXIS",
    "NO_TILED_AXIS",
    "WINDOWS_AXIS",
    "approximate_badge",
    "cache_row_text",
    "delta",
    "exact_badge",
    "forms_text",
    "kept_text",
    "kv_badge",
    "kv_text",
    "online_end_text",
    "price_text",
    "sharpen_text",
    "tile_caption",
    "tile_text",
    "windows_badge",
]

EXACT_BELOW = 1e-12
"""A float64 difference below this is rounding: the two computations are the same arithmetic."""


def delta(x: float) -> str:
    """A difference as it is: 0, 2.2e-16, 0.093."""
    if math.isnan(x):
        return "not comparable"
    if x == 0:
        return "0"
    return f"{x:.1e}" if x < 1e-3 else f"{x:.2g}"


def exact_badge(max_abs: float) -> str:
    """'exact: max |Δ| = 2.2e-16', or the approximation's words when it is not below rounding."""
    if math.isnan(max_abs):
        return "not checked: with word order or edited vectors the keys are not x W_K"
    if max_abs < EXACT_BELOW:
        return f"exact: max |Δ| = {delta(max_abs)}"
    return f"not exact: max |Δ| = {delta(max_abs)}"


def approximate_badge(
    mean_abs: float,
    top1_kept: float,
    *,
    rows: int,
    token: str,
    focus_mean: float,
    tied: bool = False,
    over_keys: bool = False,
) -> str:
    """'approximate: mean |Δ| = 0.093 over all 4 rows (0.18 on bank's row, the table's), top-1
    key kept in 75 % of rows'. `tied`: every exact row's top weight is shared, so there is no
    top-1 to keep; `over_keys`: the lesson's softmax runs over queries, and this compares with
    the softmax over the keys, which it names."""
    against = " against the softmax over the keys" if over_keys else ""
    top1 = ("the exact rows are all ties: no top-1 to keep" if tied
            else f"top-1 key kept in {round(100 * top1_kept)} % of rows")  # fmt: skip
    return (
        f"approximate{against}: mean |Δ| = {delta(mean_abs)} over all {rows} rows "
        f"({delta(focus_mean)} on {token}'s row, the table's), {top1}"
    )


LINEAR_AXIS = (
    "The lesson's softmax runs over the queries (down a column), but linear attention is "
    "defined along a row of keys: φ(q)·φ(k) summed over the keys. So this card compares it "
    "with the softmax over the keys (the table's first column), not with the lesson's column."
)
"""The linear card's note when the lesson normalises the wrong axis."""

WINDOWS_AXIS = (
    "The lesson's softmax runs over the queries, but a window cuts a row of keys: these numbers "
    "use the softmax over the keys of the focus row, under a causal mask."
)
"""The windows card's note when the lesson normalises the wrong axis."""


def windows_badge(kept: int, seen: int, dropped: float, token: str) -> str:
    """The window's badge: 'approximate: keeps 2 of 4 keys, throws away 18 % of bank's
    attention', or exact when it keeps every key the row may see."""
    if kept >= seen:
        return (
            f"exact: the window keeps every key the focus row ({token}) may see, none thrown away"
        )
    return (
        f"approximate: keeps {kept} of {seen} keys, throws away {round(100 * dropped)} % of "
        f"{token}'s attention"
    )


NO_TILED_AXIS = (
    "no tiled form: the lesson's softmax runs over the queries (down a column), and "
    "FlashAttention's tiles run along a row of keys"
)
"""The online badge when the lesson normalises the wrong axis: nothing to check against."""


def _m(x: float) -> str:
    return num(x) if math.isfinite(x) else "−∞"


def tile_text(step: TileStep, tokens: Sequence[str], number: int) -> str:
    """One tile of the focus row, told: its keys, the new maximum, the rescale, ℓ and O."""
    keys = ", ".join(tokens[step.start : step.stop])
    scores = ", ".join(_m(float(s)) for s in step.scores[0])
    m_old, m_new, c = float(step.m_old[0]), float(step.m_new[0]), float(step.rescale[0])
    if not math.isfinite(m_old):
        rescale = "nothing came before, so there is nothing to rescale"
    elif m_new > m_old:
        rescale = (
            f"the maximum rose, so the sum and the output so far shrink by "
            f"exp({_m(m_old)} − {_m(m_new)}) = {num(c, places=3)}"
        )
    else:
        rescale = "the maximum stays, so what came before is kept as it is (× 1)"
    return (
        f"Tile {number} ({keys}): scores {scores}. The running maximum m goes from {_m(m_old)} "
        f"to {_m(m_new)}; {rescale}. Each key adds exp(s − m): the running sum ℓ = "
        f"{num(float(step.ell[0]), places=3)}, the running output O = {vec(step.o[0])}."
    )


def tile_caption(step: TileStep, number: int, total: int) -> str:
    """What the canvas writes over tile `number` of `total`: the running m and ℓ."""
    return (
        f"tile {number} of {total}: m = {_m(float(step.m_new[0]))}, "
        f"ℓ = {num(float(step.ell[0]), places=3)}"
    )


END_CAPTION = "the end: exp(s − m) / ℓ, the Softmax weights"
"""What the canvas writes over the finished row."""
END_CAPTION_AXIS = (
    "the end: exp(s − m) / ℓ over the keys; outlined, the lesson's weights over queries"
)
"""The same when the lesson's softmax runs over the queries: the outlines are not these bars."""


def online_end_text(
    output: Sequence[float], ell: float, diff: float, *, note: str | None = None
) -> str:
    """The last step: O / ℓ is the Blend beat's output (unless the lesson's softmax runs over
    the queries, `note` "axis": then the tiles' row is not the lesson's, and this says so)."""
    if note == "axis":
        return (
            f"At the end, O / ℓ = {vec(output)} with ℓ = {num(ell, places=3)}: softmax over the "
            "keys of this row. The lesson's Softmax step normalises over the queries instead (the "
            "wrong axis), which has no tiled form: its weights in a row are not these, and "
            "nothing here is checked against them. Set the axis back to keys to compare."
        )
    return (
        f"At the end, O / ℓ = {vec(output)}: the Blend step's output, and exp(s − m) / ℓ are "
        f"the Softmax step's weights (max |Δ| = {delta(diff)}, with ℓ = {num(ell, places=3)}). "
        "No row of n weights was ever stored: only m, ℓ and O."
    )


def forms_text(forms: Sequence[CacheForm]) -> str:
    """The cache per token per layer of each form, beside multi-head attention's."""
    full = forms[0]
    parts = [
        f"{f.name} {f.numbers} numbers"
        + ("" if f is full else f" ({num(f.ratio(full), places=1)}× fewer)")
        for f in forms
    ]
    return "Cached per token per layer: " + "; ".join(parts) + "."


def kept_text(
    scheme: str, window: int | None, sinks: int, kept: Sequence[str], dropped: float
) -> str:
    """Which keys one scheme keeps for the focus row and the weight it throws away."""
    name = {
        "full": "Full causal attention",
        "window": f"A window of the last {window} keys",
        "sinks": f"{sinks} sink{'s' if sinks != 1 else ''} + a window of {window}",
    }[scheme]
    return (
        f"{name} keeps {', '.join(kept)}; it throws away {round(100 * dropped)} % of the "
        "full row's attention."
    )


def sharpen_text(
    scales: Sequence[float],
    softmax: Sequence[float],
    linear: Sequence[float],
    *,
    keys: int = 2,
    uniform: bool = False,
) -> str:
    """The focus query scaled by α: the softmax becomes a lookup, the linear row does not
    (`keys` the row may see: with one, both are 1; `uniform`: the lesson ignores the scores)."""
    pairs = "; ".join(f"α = {num(a)}: {num(s, places=4)} against {num(w, places=3)}"
                      for a, s, w in zip(scales, softmax, linear, strict=True))  # fmt: skip
    if keys == 1:
        return (
            f"Scale the query by α and read the top weight, softmax against linear: {pairs}. "
            "Under the causal mask this row sees one key, so both give it the whole budget "
            "whatever α is; pick a later word as the focus to see them part."
        )
    if uniform:
        return (
            f"Scale the query by α and read the top weight, softmax against linear: {pairs}. "
            "Uniform ignores the scores, so α changes nothing on the softmax side; set the mode "
            "back to Scaled to watch the softmax become a lookup while linear attention cannot."
        )
    return (
        f"Scale the query by α and read the top weight, softmax against linear: {pairs}. The "
        "softmax's weights are exp(α s) ratios, so one key takes the whole budget; the linear "
        "weights are ratios of dot products φ(q)·φ(k), which α cannot push past a fixed share: "
        "linear attention cannot make the sharp lookup."
    )


def _mb(b: float) -> str:
    return f"{b / 1e6:.3g} MB"


def price_text(
    n: Sequence[int],
    exact_bytes: Sequence[float],
    tiled_bytes: Sequence[float],
    linear_bytes: Sequence[float],
) -> str:
    """The largest n measured: each form's peak memory, how many times less the tiles hold, and
    how each grew over the last doubling of n."""
    e, t, li = exact_bytes[-1], tiled_bytes[-1], linear_bytes[-1]
    grew = (
        f" From {n[-2]:,} to {n[-1]:,} tokens the n × n form's memory grew "
        f"{e / exact_bytes[-2]:.1f}×, the tiles' {t / tiled_bytes[-2]:.1f}×."
        if len(n) > 1 else ""
    )  # fmt: skip
    return (
        f"At n = {n[-1]:,} the n × n form peaked at {_mb(e)}, FlashAttention's tiles at {_mb(t)} "
        f"({e / t:.0f}× less, and the same outputs), linear attention at {_mb(li)} (a different, "
        f"approximate row).{grew}"
    )


def _bytes(b: int) -> str:
    return f"{b:,} B"


def cache_row_text(name: str, source: str, n_layers: int, forms: Sequence[CacheForm]) -> str:
    """One real model's cache per token per layer in each form, and where its sizes come from."""
    where = {"weights": "its config", "gguf": "its GGUF header",
             "published": "its paper's published sizes"}[source]  # fmt: skip
    parts = ", ".join(f"{f.name} {_bytes(f.bytes)}" for f in forms)
    return f"{name} ({n_layers} layers, from {where}): per token per layer {parts}."


def kv_badge(max_row_diff: float, max_logit_diff: float, same_next: bool, dtype: str) -> str:
    """'exact: max |Δ| = 3.9e-06 (rows), 1.1e-04 (logits), float32 rounding; same next token'."""
    same = "the same next token everywhere" if same_next else "a different next token somewhere"
    return (
        f"exact: max |Δ| = {delta(max_row_diff)} on the attention rows, {delta(max_logit_diff)} "
        f"on the logits ({dtype} rounding); {same}"
    )


def kv_text(tokens: int, layers: int, numbers: int, model: str) -> str:
    """What the cache check ran."""
    return (
        f"{model} read {tokens} tokens one at a time, each step appending its key and value to "
        f"the cache ({numbers} numbers per token per layer, {layers} layers) and scoring only its "
        "own query; then the whole text in one pass. Every row and every logit was compared."
    )
