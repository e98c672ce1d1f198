"""`save(obj, path)`: a lesson, a real model's trace or attention weights from elsewhere, written
in the format its suffix names (attnlab.save is this function, at the package face).

    .html  one self-contained page (standalone.py): opens from file://, steps, follows any token
    .json  the trace (trace_files.py)
    .csv   the long form of every score and weight, or with `table="matrix"` one head's weights
    .svg   one beat's picture, by the page's own layout and SVG drawer run under Node.js
           (svg_picture.py), when `node` is on the PATH

PNG and the GIF of the six beats need a canvas: they are saved from the page's or the notebook
widget's Export menu; asking for one here says so. Attention weights handed in from elsewhere
(AttentionMaps: no Q, K or V) save as .csv (the long form, scores empty, or one head's matrix)
and .json (their labels and weights): the offline page and the SVG draw the beats that need
the queries and keys, so those two formats are refused by name.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Literal

from attnlab.core.attention_maps import AttentionMaps
from attnlab.errors import ExportError
from attnlab.export.standalone import standalone_html
from attnlab.export.svg_picture import svg_picture
from attnlab.export.tables import (
    LONG_MAX_ROWS,
    long_row_count,
    long_table_csv,
    maps_long_csv,
    maps_matrix_csv,
    matrix_csv,
)
from attnlab.export.trace_files import lesson_json, maps_json, model_trace_json
from attnlab.lesson.explain import LessonExplanation, explain_lesson
from attnlab.models.model_trace import ModelTrace

__all__ = ["FORMATS", "MAPS_FORMATS", "PICTURES", "ExportError", "export_text", "format_of", "save"]

FORMATS = ("html", "json", "csv", "svg")
"""What `save` writes (svg through Node.js)."""
MAPS_FORMATS = ("csv", "json")
"""What `save` writes of weights from elsewhere (AttentionMaps): the numbers, not the beats."""
PICTURES = ("png", "gif")
"""What only the page's (or the widget's) Export menu draws: they need a browser's canvas."""

Saveable = LessonExplanation | ModelTrace | AttentionMaps
Table = Literal["long", "matrix"]


def format_of(path: str | os.PathLike[str], format: str | None = None) -> str:
    """The format to write: `format` when given, else the path's suffix (without the dot)."""
    name = (format or Path(path).suffix.lstrip(".")).lower()
    if name in PICTURES:
        raise ExportError(
            f"a .{name} picture is drawn by the page's layout: save it from the Export menu of "
            "the web page (attnlab serve) or the notebook widget; here choose one of "
            f"{', '.join(FORMATS)}"
        )
    if name not in FORMATS:
        got = f"format {format!r}" if format else f"the suffix of {str(path)!r}"
        raise ExportError(f"cannot tell what to write from {got}: expected one of "
                          f"{', '.join('.' + f for f in FORMATS)}")  # fmt: skip
    return name


def _is_widget(obj: object) -> bool:
    """Whether `obj` is one of attnlab's notebook widgets, told by its class's module and its
    own `save`, not by importing attnlab.widget (export sits below it: the layering test)."""
    module = getattr(type(obj), "__module__", "")
    return module.startswith("attnlab.widget.") and callable(getattr(obj, "save", None))


def export_text(
    obj: Saveable,
    format: str,
    *,
    table: Table = "long",
    beat: int = 0,
    layer: int = 0,
    head: int = 0,
    focus: str | int | None = None,
) -> str:
    """The file's text in `format` (one of FORMATS). `beat` is the step an HTML file opens at;
    `layer`, `head` pick the head of a matrix CSV or an HTML file, `focus` the token followed
    (a lesson given one is explained again from it)."""
    if not isinstance(obj, LessonExplanation | ModelTrace | AttentionMaps):
        if _is_widget(obj):
            raise ExportError(
                "a notebook widget saves itself, at the step, head and token it shows: "
                "w.save(path) (attnlab.save takes what the widget shows: "
                "w.explanation, w.model_trace or w.maps)",
                field="obj",
            )
        raise ExportError(
            f"save takes a LessonExplanation (attnlab.explain_lesson), a ModelTrace "
            f"(model.trace(text)) or AttentionMaps (weights from elsewhere), got "
            f"{type(obj).__name__}",
            field="obj",
        )
    if not isinstance(table, str) or table not in ("long", "matrix"):
        raise ExportError(f"table must be 'long' or 'matrix', got {table!r:.60}", field="table")
    for name, i in (("beat", beat), ("layer", layer), ("head", head)):
        if isinstance(i, bool) or not isinstance(i, int):
            raise ExportError(f"{name} must be a whole number, got {i!r:.60}", field=name)
    if isinstance(obj, LessonExplanation) and focus is not None:
        obj = explain_lesson(obj.sentence, obj.options, focus=focus)  # the lesson, refocused
    if isinstance(obj, AttentionMaps):
        return _maps_text(obj, format, table=table, layer=layer, head=head)
    if format == "html":
        return standalone_html(obj, beat=beat, layer=layer, head=head, focus=focus)
    if format == "svg":
        return svg_picture(obj, beat=beat, layer=layer, head=head, focus=focus)
    if format == "json":
        data = lesson_json(obj) if isinstance(obj, LessonExplanation) else model_trace_json(obj)
        return json.dumps(data, ensure_ascii=False)
    if table == "matrix":
        if isinstance(obj, ModelTrace):
            return matrix_csv(obj.head(layer, head))
        if not 0 <= head < len(obj.runs):
            raise ExportError(f"head {head} is outside 0..{len(obj.runs) - 1}", field="head")
        return matrix_csv(obj.runs[head].trace)
    rows = long_row_count(obj)
    if rows > LONG_MAX_ROWS:
        raise ExportError(
            f"the long form of {obj.model if isinstance(obj, ModelTrace) else 'this lesson'} "
            f"would be {rows:,} rows (every layer, head, query and key), over the "
            f"{LONG_MAX_ROWS:,} a CSV is written with: take one head's whole matrix instead "
            "(--table matrix with --layer and --head; table='matrix', layer=, head= in Python), "
            "or a shorter text",
            field="table",
        )
    return long_table_csv(obj)


def _maps_text(maps: AttentionMaps, format: str, *, table: Table, layer: int, head: int) -> str:
    """Weights from elsewhere as CSV or JSON; the formats that draw the beats are refused."""
    if format not in MAPS_FORMATS:
        came = f"from {maps.source}" if maps.source else "handed in (AttentionMaps)"
        raise ExportError(
            f"attention weights {came} have no "
            f"queries, keys or values for a .{format} file's beats: save them as "
            f"{' or '.join('.' + f for f in MAPS_FORMATS)}",
            field="format",
        )
    if format == "json":
        return json.dumps(maps_json(maps), ensure_ascii=False)
    if table == "matrix":
        return maps_matrix_csv(maps, layer, head)  # a head outside the weights: UnknownHeadError
    return maps_long_csv(maps)


def save(
    obj: Saveable,
    path: str | os.PathLike[str],
    *,
    format: str | None = None,
    table: Table = "long",
    beat: int = 0,
    layer: int = 0,
    head: int = 0,
    focus: str | int | None = None,
) -> Path:
    """Write `obj` to `path` in the format its suffix names (or `format`); returns the path."""
    if not isinstance(path, str | os.PathLike):
        raise ExportError(f"path must be a file name, got {path!r:.60}", field="path")
    if format is not None and not isinstance(format, str):
        raise ExportError(f"format must be one of {', '.join(FORMATS)}, got {format!r:.60}")
    kind = format_of(path, format)
    text = export_text(obj, kind, table=table, beat=beat, layer=layer, head=head, focus=focus)
    out = Path(path)
    out.write_text(text, encoding="utf-8")
    return out
