"""The self-contained HTML file's requests: the state on screen, as the page asks for it.

    GET /api/export/lesson.html   the lesson's parameters (requests_lesson.LessonQuery) + beat
    GET /api/export/model.html    a model trace's (requests_model.HeadQuery, focus) + beat

The file opens at `beat` (0..5), following the focus, on the asked layer and head (a model).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from attnlab.web.request_fields import Between, Blank
from attnlab.web.requests_lesson import LessonQuery
from attnlab.web.requests_model import HeadQuery, ModelFocus
from attnlab.words.page import BEAT_TITLES

__all__ = ["LessonFileQuery", "ModelFileQuery"]

Beat = Annotated[int, Between(0, len(BEAT_TITLES) - 1)]


class LessonFileQuery(LessonQuery):
    """`GET /api/export/lesson.html`: the lesson on screen and the step it opens at."""

    beat: Blank[Beat] = Field(0, description="the step the file opens at, from 0")


class ModelFileQuery(HeadQuery):
    """`GET /api/export/model.html`: the text, the head and the token followed, and the step."""

    focus: ModelFocus = Field(
        None, description="the token followed or its index (default: the last word)"
    )
    beat: Blank[Beat] = Field(0, description="the step the file opens at, from 0")
