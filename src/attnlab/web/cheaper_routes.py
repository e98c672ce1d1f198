"""The lab's Cheaper attention section: `GET /api/cheaper`.

    GET /api/cheaper   the lesson's parameters (as /api/lesson) and `tile`, the keys per tile
                       of the online softmax: the four cards' numbers and words (CheaperAnswer)

Run in the toy lesson's process pool, like /api/sweep: lesson/cheaper_lab.py computes the section
once, encode/cheaper_json.py encodes it.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import Field

from attnlab.encode.cheaper_json import CheaperAnswer, encode_cheaper
from attnlab.lesson.cheaper_lab import TILES, cheaper_lab
from attnlab.web.error_replies import ERROR_RESPONSES
from attnlab.web.executors import json_answer
from attnlab.web.offload import on_toy
from attnlab.web.request_fields import Between, Blank
from attnlab.web.requests_lesson import LessonQuery

__all__ = ["CheaperQuery", "router"]

router = APIRouter(prefix="/api", tags=["lesson"], responses=ERROR_RESPONSES)


class CheaperQuery(LessonQuery):
    """`GET /api/cheaper`: the lesson's parameters and the online softmax's tile."""

    tile: Blank[Annotated[int, Between(TILES[0], TILES[-1])]] = Field(
        2, description="keys per tile of the online softmax"
    )


def _cheaper(params: CheaperQuery) -> Response:
    c = cheaper_lab(params.sentence, params.options(), focus=params.focus, tile=params.tile)
    return json_answer(encode_cheaper(c))


@router.get("/cheaper", response_model=CheaperAnswer)
async def cheaper(params: Annotated[CheaperQuery, Query()], request: Request) -> Response:
    """The Cheaper attention cards for the lesson on screen, each checked against the exact
    formula: the online softmax tile by tile, MQA and MLA, windows and sinks, linear attention."""
    return await on_toy(request, _cheaper, params)
