"""The sliding-window table as a line plot in SVG: perplexity against the window, one line per s.

Layout apart from drawing (d3-shape's habit): `plot_layout` turns the rows of
models/sliding_windows.py's `window_table` and a size into points, ticks and labels in pixels,
testable without a browser; `plot_svg` only writes them as SVG elements. The x axis is log₂ of
the window (64, 128, … 1,024 evenly spaced), the y axis linear in perplexity from a little below
the lowest to a little above the highest; full attention is a dashed horizontal line.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from attnlab.errors import ShapeError
from attnlab.models.sliding_windows import Loss
from attnlab.words.numfmt import num
from attnlab.words.window_words import FULL_LABEL, PLOT_TITLE, X_LABEL, Y_LABEL, sinks_label

__all__ = ["SIZE", "PlotLayout", "Series", "plot_layout", "plot_svg"]

SIZE = (720, 440)
"""The plot's width and height in pixels."""

MARGIN = (80, 30, 60, 40)
"""Left, right, bottom, top margins in pixels: room for the tick labels and the axis names."""

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b")


@dataclass(frozen=True)
class Series:
    """One line: its legend, colour and points (x px, y px), and the values they stand for."""

    label: str
    colour: str
    points: tuple[tuple[float, float], ...]
    values: tuple[tuple[int, float], ...]  # (w, perplexity)


@dataclass(frozen=True)
class PlotLayout:
    width: int
    height: int
    plot: tuple[float, float, float, float]  # x0, y0 (top), x1, y1 (bottom) of the axes' box
    series: tuple[Series, ...]
    full_y: float | None  # the dashed full-attention line's y, None without a full row
    full_value: float | None
    x_ticks: tuple[tuple[float, str], ...]
    y_ticks: tuple[tuple[float, str], ...]
    title: str = PLOT_TITLE
    x_label: str = X_LABEL
    y_label: str = Y_LABEL


def _nice_step(span: float, target: int = 6) -> float:
    """A step of 1, 2 or 5 × 10^k giving about `target` ticks over `span`."""
    raw = span / target
    power = 10 ** math.floor(math.log10(raw))
    return float(next(m * power for m in (1, 2, 5, 10) if m * power >= raw))


def plot_layout(rows: Sequence[Loss], size: tuple[int, int] = SIZE) -> PlotLayout:
    """The plot's geometry for `window_table`'s rows (a full row optional, windowed rows needed)."""
    windowed = [r for r in rows if r.scheme.window is not None]
    if not windowed:
        raise ShapeError("a window plot needs at least one row with a window")
    width, height = size
    left, right, bottom, top = MARGIN
    x0, x1, y0, y1 = left, width - right, top, height - bottom
    full = next((r.perplexity for r in rows if r.scheme.window is None), None)
    ws = sorted({int(r.scheme.window) for r in windowed if r.scheme.window is not None})
    values = [r.perplexity for r in windowed] + ([full] if full is not None else [])
    lo, hi = min(values), max(values)
    pad = max((hi - lo) * 0.08, 0.05 * max(abs(hi), 1e-9))
    lo, hi = lo - pad, hi + pad
    lx0, lx1 = math.log2(ws[0]), math.log2(ws[-1])

    def x_of(w: int) -> float:
        if lx1 == lx0:
            return (x0 + x1) / 2
        return x0 + (math.log2(w) - lx0) / (lx1 - lx0) * (x1 - x0)

    def y_of(p: float) -> float:
        return y1 - (p - lo) / (hi - lo) * (y1 - y0)

    series = []
    for i, s in enumerate(sorted({r.scheme.sinks for r in windowed})):
        mine = sorted((int(r.scheme.window or 0), r.perplexity)
                      for r in windowed if r.scheme.sinks == s)  # fmt: skip
        series.append(Series(sinks_label(s), COLOURS[i % len(COLOURS)],
                             tuple((x_of(w), y_of(p)) for w, p in mine), tuple(mine)))  # fmt: skip
    step = _nice_step(hi - lo)
    first = math.ceil(lo / step) * step
    count = math.floor((hi - first) / step) + 1
    places = max(0, -math.floor(math.log10(step)))
    y_ticks = tuple((y_of(first + k * step), num(first + k * step, places=places))
                    for k in range(count))  # fmt: skip
    return PlotLayout(
        width, height, (x0, y0, x1, y1), tuple(series),
        None if full is None else y_of(full), full,
        tuple((x_of(w), f"{w:,}") for w in ws), y_ticks,
    )  # fmt: skip


def _f(x: float) -> str:
    return f"{x:.1f}"


def plot_svg(layout: PlotLayout) -> str:
    """The layout as one standalone SVG document."""
    p = layout
    x0, y0, x1, y1 = p.plot
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{p.width}" height="{p.height}" '
        f'viewBox="0 0 {p.width} {p.height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{p.width}" height="{p.height}" fill="white"/>',
        f'<text x="{_f((x0 + x1) / 2)}" y="20" text-anchor="middle" font-size="14">'
        f"{escape(p.title)}</text>",
        f'<path d="M{_f(x0)},{_f(y0)} V{_f(y1)} H{_f(x1)}" stroke="black" fill="none"/>',
    ]
    for x, label in p.x_ticks:
        out.append(f'<line x1="{_f(x)}" y1="{_f(y1)}" x2="{_f(x)}" y2="{_f(y1 + 5)}" '
                   'stroke="black"/>')  # fmt: skip
        out.append(
            f'<text x="{_f(x)}" y="{_f(y1 + 18)}" text-anchor="middle">{escape(label)}</text>'
        )
    for y, label in p.y_ticks:
        out.append(f'<line x1="{_f(x0 - 5)}" y1="{_f(y)}" x2="{_f(x1)}" y2="{_f(y)}" '
                   'stroke="#ddd"/>')  # fmt: skip
        out.append(
            f'<text x="{_f(x0 - 8)}" y="{_f(y + 4)}" text-anchor="end">{escape(label)}</text>'
        )
    out.append(f'<text x="{_f((x0 + x1) / 2)}" y="{_f(p.height - 12)}" text-anchor="middle">'
               f"{escape(p.x_label)}</text>")  # fmt: skip
    cy = (y0 + y1) / 2
    out.append(f'<text x="16" y="{_f(cy)}" text-anchor="middle" '
               f'transform="rotate(-90 16 {_f(cy)})">{escape(p.y_label)}</text>')  # fmt: skip
    legend = []
    if p.full_y is not None and p.full_value is not None:
        out.append(f'<line x1="{_f(x0)}" y1="{_f(p.full_y)}" x2="{_f(x1)}" y2="{_f(p.full_y)}" '
                   'stroke="#555" stroke-dasharray="6 4"/>')  # fmt: skip
        legend.append(("#555", f"{FULL_LABEL}: {num(p.full_value)}", "6 4"))
    for s in p.series:
        path = " ".join(
            f"{'M' if i == 0 else 'L'}{_f(x)},{_f(y)}" for i, (x, y) in enumerate(s.points)
        )
        out.append(f'<path d="{path}" stroke="{s.colour}" stroke-width="2" fill="none"/>')
        for (x, y), (w, v) in zip(s.points, s.values, strict=True):
            out.append(f'<circle cx="{_f(x)}" cy="{_f(y)}" r="3.5" fill="{s.colour}">'
                       f"<title>w = {w:,}: {num(v)}</title></circle>")  # fmt: skip
        legend.append((s.colour, s.label, ""))
    for i, (colour, label, dash) in enumerate(legend):
        ly = y0 + 14 + 18 * i
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<line x1="{_f(x1 - 200)}" y1="{_f(ly - 4)}" x2="{_f(x1 - 176)}" '
                   f'y2="{_f(ly - 4)}" stroke="{colour}" stroke-width="2"{extra}/>')  # fmt: skip
        out.append(f'<text x="{_f(x1 - 170)}" y="{_f(ly)}">{escape(label)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
