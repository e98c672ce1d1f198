"""One beat's picture as SVG without a browser: the page's layout and SVG drawer under Node.js.

The picture is laid out by static/layout.js (a lesson) or static/model_layout.js (a real head)
and written by static/draw_svg.js, the same modules the page's Export menu uses, run by
static/svg_node.mjs with the trace's JSON on stdin; so there is one layout, not a second one in
Python. It needs `node` on the PATH (or ATTNLAB_NODE); without it the error says to save the
picture from the page or the notebook widget instead.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from importlib.resources import as_file, files
from typing import Any

from attnlab.encode.lesson_json import encode_lesson
from attnlab.encode.model_json import encode_head
from attnlab.errors import ExportError
from attnlab.lesson.explain import LessonExplanation
from attnlab.models.heads import explain_head
from attnlab.models.model_trace import ModelTrace
from attnlab.words.page import PAGE_WORDS

__all__ = ["SIZE", "svg_picture"]

SIZE = (900, 560)
"""The picture's width and height in CSS pixels (a real head's height follows its rows)."""


def _node() -> str:
    node = os.environ.get("ATTNLAB_NODE") or shutil.which("node")
    if not node or not os.access(node, os.X_OK):
        raise ExportError(
            "an SVG from Python or the command line is drawn by the page's own layout under "
            "Node.js, and node is not on the PATH: install Node.js, or save the picture from the "
            "Export menu of the page (attnlab serve) or the notebook widget"
        )
    return node


def svg_picture(
    obj: LessonExplanation | ModelTrace,
    *,
    beat: int = 0,
    layer: int = 0,
    head: int = 0,
    focus: str | int | None = None,
    size: tuple[int, int] = SIZE,
) -> str:
    """The SVG text of beat `beat` (0..5) of a lesson, or of `layer`/`head` of a real model."""
    if isinstance(obj, ModelTrace):
        ex = explain_head(obj, layer=layer, head=head, focus=focus)
        kind, trace = "model", encode_head(obj, ex, layer=layer, head=head)
    else:
        kind, trace = "lesson", encode_lesson(obj)
    if not 0 <= beat < len(trace["narration"]):
        raise ExportError(f"beat must be between 0 and 5, got {beat}", field="beat")
    ask: dict[str, Any] = {
        "kind": kind, "trace": trace, "words": dict(PAGE_WORDS),
        "beat": beat, "width": size[0], "height": size[1],
    }  # fmt: skip
    with as_file(files("attnlab") / "static" / "svg_node.mjs") as script:
        done = subprocess.run(
            [_node(), str(script)],
            input=json.dumps(ask).encode("utf-8"),
            capture_output=True,
            timeout=60,
            check=False,
        )
    if done.returncode != 0:
        raise ExportError(f"node could not draw the SVG: {done.stderr.decode(errors='replace')}")
    return done.stdout.decode("utf-8")
