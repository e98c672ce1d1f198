"""The window plot's layout: log₂ spacing of w, perplexity up is y down, one line per s."""

import math
import xml.etree.ElementTree as ET

import pytest

from attnlab.encode.window_plot import plot_layout, plot_svg
from attnlab.errors import ShapeError
from attnlab.models.sliding_windows import Loss, Scheme


def _rows() -> list[Loss]:
    ppl = {(None, 0): 20.0, (64, 0): 400.0, (128, 0): 200.0, (256, 0): 90.0,
           (64, 4): 30.0, (128, 4): 25.0, (256, 4): 21.0}  # fmt: skip
    return [Loss(Scheme(w, s), 512, math.log(p), 1.0) for (w, s), p in ppl.items()]


def test_windows_are_evenly_spaced_on_a_log_scale_and_higher_is_worse() -> None:
    lay = plot_layout(_rows(), (600, 400))
    xs = [x for x, _ in lay.x_ticks]
    assert [label for _, label in lay.x_ticks] == ["64", "128", "256"]
    assert xs[1] - xs[0] == pytest.approx(xs[2] - xs[1])
    alone, sinks = lay.series
    assert alone.label.startswith("window alone") and "4 sinks" in sinks.label
    assert [w for w, _ in alone.values] == [64, 128, 256]
    ys = [y for _, y in alone.points]
    assert ys[0] < ys[1] < ys[2]  # y grows downwards: 400 (w = 64) is the highest point
    assert alone.points[0][1] < sinks.points[0][1]  # 400 above 30 on the page
    x0, y0, x1, y1 = lay.plot
    assert lay.full_y is not None and y0 <= lay.full_y <= y1
    assert lay.full_y > sinks.points[-1][1]  # 20 (full) below 21 on the axis: lower on screen
    for s in lay.series:
        assert all(x0 <= x <= x1 and y0 <= y <= y1 for x, y in s.points)
    tick_values = [float(t) for _, t in lay.y_ticks]
    assert tick_values == sorted(tick_values) and min(tick_values) <= 30 <= max(tick_values)


def test_the_svg_is_one_document_with_its_axes_named() -> None:
    svg = plot_svg(plot_layout(_rows()))
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    texts = [t.text or "" for t in root.iter(f"{ns}text")]
    assert any("window w" in t for t in texts) and any("perplexity" in t for t in texts)
    assert any(t.startswith("full attention: 20") for t in texts)
    assert len([p for p in root.iter(f"{ns}path") if p.get("stroke-width") == "2"]) == 2
    assert len(list(root.iter(f"{ns}circle"))) == 6


def test_a_plot_without_a_window_is_refused() -> None:
    with pytest.raises(ShapeError, match="at least one row with a window"):
        plot_layout([Loss(Scheme(), 10, 1.0, 5.0)])
