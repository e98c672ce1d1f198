"""Saving what attnlab shows: CSV and JSON of the numbers, one self-contained HTML file.

`save(obj, path)` (also `attnlab.save`) writes a `LessonExplanation` (attnlab.explain_lesson)
or a `ModelTrace` (model.trace(text)) in the format its suffix names: .html (a page that works
from file://), .json (the trace), .csv (a long form, or the weights matrix with
`table="matrix"`), .svg (one beat, by the page's own layout and drawer under Node.js), and
attention weights from elsewhere (`AttentionMaps`) as .csv or .json. PNG and the GIF of the
steps need a canvas, so they come from the page's Export menu or the notebook widget's (see the
README).
"""

from __future__ import annotations

from attnlab.export.saving import FORMATS, MAPS_FORMATS, PICTURES, ExportError, export_text, save
from attnlab.export.standalone import standalone_html
from attnlab.export.svg_picture import svg_picture
from attnlab.export.tables import (
    long_rows,
    long_table_csv,
    maps_long_csv,
    maps_matrix_csv,
    matrix_csv,
)
from attnlab.export.trace_files import lesson_json, maps_json, model_trace_json

__all__ = [
    "FORMATS",
    "MAPS_FORMATS",
    "PICTURES",
    "ExportError",
    "export_text",
    "lesson_json",
    "long_rows",
    "long_table_csv",
    "maps_json",
    "maps_long_csv",
    "maps_matrix_csv",
    "matrix_csv",
    "model_trace_json",
    "save",
    "standalone_html",
    "svg_picture",
]
