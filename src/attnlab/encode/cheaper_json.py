"""The Cheaper attention section as JSON: `CheaperAnswer`, the declared contract of
`GET /api/cheaper` and of the notebook's `ask("cheaper")`, and its one encoder.

Every number is the `CheaperLab` run's (lesson/cheaper_lab.py), every sentence
words/cheaper_words.py's; the view only lays them out and draws them. A masked score is
"-inf" (arrays.py).
"""

from __future__ import annotations

from typing import Literal

from attnlab.core.cheaper_cost import FORMS, Price
from attnlab.encode.answers_trace import Answer, JsonNumber, Vector
from attnlab.encode.arrays import encode_array, encode_number
from attnlab.lesson.cheaper_lab import CheaperLab
from attnlab.words.cheaper_words import (
    END_CAPTION,
    END_CAPTION_AXIS,
    EXACT_BELOW,
    LINEAR_AXIS,
    NO_TILED_AXIS,
    WINDOWS_AXIS,
    approximate_badge,
    exact_badge,
    forms_text,
    kept_text,
    online_end_text,
    price_text,
    sharpen_text,
    tile_caption,
    tile_text,
    windows_badge,
)
from attnlab.words.grammar import token_names

__all__ = ["CheaperAnswer", "PriceAnswer", "encode_cheaper", "encode_price"]

Kind = Literal["exact", "approximate", "unchecked"]


class Badge(Answer):
    kind: Kind
    text: str


class TileAnswer(Answer):
    start: int
    stop: int
    scores: Vector
    m_old: JsonNumber
    m_new: JsonNumber
    rescale: JsonNumber
    ell: JsonNumber
    o: Vector
    seen: Vector  # exp(s − m) of every key so far, m this tile's running maximum
    caption: str  # what the canvas writes over it
    text: str


class OnlineAnswer(Answer):
    badge: Badge
    note: str | None  # "axis": the lesson's softmax runs over queries, no tiled form
    steps: list[TileAnswer]
    weights: Vector  # exp(s − m) / ℓ at the end
    output: Vector  # O / ℓ
    exact_weights: Vector  # the Softmax beat's row
    exact_output: Vector  # the Blend beat's output
    end_text: str
    end_caption: str


class FormAnswer(Answer):
    name: str
    numbers: int
    bytes: int


class HeadsAnswer(Answer):
    mqa: Badge
    mla: Badge
    d_c: int
    forms: list[FormAnswer]
    forms_text: str


class SchemeAnswer(Answer):
    scheme: Literal["full", "window", "sinks"]
    window: int | None
    sinks: int
    kept: list[int]
    dropped_mass: JsonNumber
    weights: Vector
    text: str


class LinearAnswer(Answer):
    badge: Badge
    note: str | None  # "axis": the lesson's softmax runs over queries, compared over keys
    note_text: str | None
    exact_row: Vector
    linear_row: Vector
    mean_abs: JsonNumber  # over every row
    focus_mean_abs: JsonNumber  # over the focus row, the table's
    max_abs: JsonNumber
    top1_kept: JsonNumber
    top1_tied: bool  # every exact row's top weight is shared: no top-1 to keep
    entropy_exact: JsonNumber
    entropy_linear: JsonNumber
    sharpen_scales: Vector
    sharpen_softmax: Vector
    sharpen_linear: Vector
    sharpen_text: str


class CheaperAnswer(Answer):
    """The four cards: the online softmax, fewer key/value heads, windows, linear attention."""

    tokens: list[str]
    focus: int
    tile: int
    tiles: list[int]  # the tile sizes offered
    online: OnlineAnswer
    heads: HeadsAnswer
    windows: list[SchemeAnswer]
    windows_badge: Badge  # the window's (the first scheme that is not the full row)
    windows_note: str | None  # the lesson's softmax runs over queries: these are over keys
    linear: LinearAnswer


def _exact(diff: float) -> Badge:
    ok = diff == diff and diff < EXACT_BELOW
    kind: Kind = "unchecked" if diff != diff else "exact" if ok else "approximate"
    return Badge(kind=kind, text=exact_badge(diff))


def encode_cheaper(c: CheaperLab) -> CheaperAnswer:
    """The section's answer, every sentence written from the run's numbers."""
    o = c.online
    steps = [
        TileAnswer(
            start=s.start,
            stop=s.stop,
            scores=encode_array(s.scores[0]),
            m_old=encode_number(float(s.m_old[0])),
            m_new=encode_number(float(s.m_new[0])),
            rescale=encode_number(float(s.rescale[0])),
            ell=encode_number(float(s.ell[0])),
            o=encode_array(s.o[0]),
            seen=encode_array(o.seen(i)[0]),
            caption=tile_caption(s, i + 1, len(o.steps)),
            text=tile_text(s, c.tokens, i + 1),
        )
        for i, s in enumerate(o.steps)
    ]
    badge = (Badge(kind="unchecked", text=NO_TILED_AXIS) if c.online_note == "axis"
             else _exact(c.online_diff))  # fmt: skip
    online = OnlineAnswer(
        badge=badge, note=c.online_note, steps=steps, weights=encode_array(o.weights()[0]),
        output=encode_array(o.outputs[0]), exact_weights=encode_array(c.exact_weights),
        exact_output=encode_array(c.exact_output),
        end_caption=END_CAPTION_AXIS if c.online_note == "axis" else END_CAPTION,
        end_text=online_end_text(o.outputs[0].tolist(), float(o.ell[0]), c.online_diff,
                                 note=c.online_note),
    )  # fmt: skip
    mla_diff = max(c.mla_score_diff, c.mla_output_diff)
    heads = HeadsAnswer(
        mqa=_exact(c.mqa_diff), mla=_exact(mla_diff), d_c=c.mla_d_c,
        forms=[FormAnswer(name=f.name, numbers=f.numbers, bytes=f.bytes) for f in c.forms],
        forms_text=forms_text(c.forms),
    )  # fmt: skip
    windows = [
        SchemeAnswer(
            scheme=k.scheme,
            window=k.window,
            sinks=k.sinks,
            kept=list(k.kept),
            dropped_mass=encode_number(k.dropped_mass),
            weights=encode_array(k.weights),
            text=kept_text(
                k.scheme,
                k.window,
                k.sinks,
                [token_names(c.tokens)[j] for j in k.kept],
                k.dropped_mass,
            ),
        )
        for k in c.kept
    ]
    lin = c.linear
    linear = LinearAnswer(
        badge=Badge(kind="approximate", text=approximate_badge(
            lin.mean_abs, lin.top1_kept, rows=len(c.tokens), token=c.tokens[c.focus],
            focus_mean=c.linear_focus_mean, tied=c.linear_top1_tied,
            over_keys=c.linear_note == "axis")),
        note=c.linear_note, note_text=LINEAR_AXIS if c.linear_note == "axis" else None,
        exact_row=encode_array(c.linear_exact), linear_row=encode_array(c.linear_focus),
        mean_abs=lin.mean_abs, focus_mean_abs=c.linear_focus_mean, max_abs=lin.max_abs,
        top1_kept=lin.top1_kept, top1_tied=c.linear_top1_tied,
        entropy_exact=lin.entropy_exact, entropy_linear=lin.entropy_linear,
        sharpen_scales=list(c.sharpen), sharpen_softmax=encode_array(c.sharpen_softmax),
        sharpen_linear=encode_array(c.sharpen_linear),
        sharpen_text=sharpen_text(c.sharpen, c.sharpen_softmax.tolist(),
                                  c.sharpen_linear.tolist(), keys=c.sharpen_keys,
                                  uniform=c.uniform),
    )  # fmt: skip
    full, win = c.kept[0], next(k for k in c.kept if k.scheme == "window")
    w_kind: Kind = "exact" if len(win.kept) >= len(full.kept) else "approximate"
    w_text = windows_badge(len(win.kept), len(full.kept), win.dropped_mass, c.tokens[c.focus])
    w_badge = Badge(kind=w_kind, text=w_text)
    return CheaperAnswer(tokens=list(c.tokens), focus=c.focus, tile=c.tile,
                         tiles=list(range(1, len(c.tokens) + 1)),
                         online=online, heads=heads, windows=windows, windows_badge=w_badge,
                         windows_note=WINDOWS_AXIS if c.online_note == "axis" else None,
                         linear=linear)  # fmt: skip


class PricePoint(Answer):
    n: int
    exact_seconds: float
    tiled_seconds: float
    linear_seconds: float
    exact_bytes: float
    tiled_bytes: float
    linear_bytes: float


class PriceAnswer(Answer):
    """Each form's time and peak memory against n (core/cheaper_cost.py), and what they say."""

    d: int
    tile: int
    points: list[PricePoint]
    text: str


def encode_price(p: Price) -> PriceAnswer:
    points = [
        PricePoint(
            n=n,
            **{f"{f}_seconds": float(p.seconds[f][i]) for f in FORMS},
            **{f"{f}_bytes": float(p.bytes[f][i]) for f in FORMS},
        )
        for i, n in enumerate(p.n)
    ]
    text = price_text(p.n, *(p.bytes[f].tolist() for f in FORMS))
    return PriceAnswer(d=p.d, tile=p.tile, points=points, text=text)
