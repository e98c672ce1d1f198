"""The lab's Cheaper attention section: `GET /api/cheaper`.

    GET /api/cheaper        the lesson's parameters (as /api/lesson) and `tile`, the keys per
                            tile of the online softmax: the cards' numbers and words
    GET /api/cheaper/price  each form's time and peak memory at n = 256 … 4,096 (PriceAnswer),
                            in the measuring child, as /api/cost is

Run in the toy lesson's process pool, like /api/sweep: lesson/cheaper_lab.py computes the section
once, encode/cheaper_json.py encodes it.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import Field

from attnlab.core.cheaper_cost import measure_price
from attnlab.encode.cheaper_json import CheaperAnswer, PriceAnswer, encode_cheaper, encode_price
from attnlab.lesson.cheaper_lab import cheaper_lab
from attnlab.lesson.toy import MAX_TOKENS
from attnlab.web.error_replies import BUSY_RESPONSES, ERROR_RESPONSES
from attnlab.web.executors import json_answer
from attnlab.web.offload import on_measure, on_toy
from attnlab.web.request_fields import Between, Blank
from attnlab.web.requests_lesson import LessonQuery, NoParams

__all__ = ["CheaperQuery", "router"]

router = APIRouter(prefix="/api", tags=["lesson"], responses=ERROR_RESPONSES)


class CheaperQuery(LessonQuery):
    """`GET /api/cheaper`: the lesson's parameters and the online softmax's tile."""

    tile: Blank[Annotated[int, Between(1, MAX_TOKENS)]] = Field(
        2, description="keys per tile of the online softmax: 1 to the sentence's length"
    )


def _cheaper(params: CheaperQuery) -> Response:
    c = cheaper_lab(params.sentence, params.options(), focus=params.focus, tile=params.tile)
    return json_answer(encode_cheaper(c))


@router.get("/cheaper", response_model=CheaperAnswer)
async def cheaper(params: Annotated[CheaperQuery, Query()], request: Request) -> Response:
    """The Cheaper attention cards for the lesson on screen, each checked against the exact
    formula: the online softmax tile by tile, MQA and MLA, windows and sinks, linear attention."""
    return await on_toy(request, _cheaper, params)


def _price(params: NoParams) -> Response:
    """Run in the measuring child (tracemalloc, as /api/cost)."""
    return json_answer(encode_price(measure_price()))


@router.get("/cheaper/price", response_model=PriceAnswer, responses=BUSY_RESPONSES)
async def price(params: Annotated[NoParams, Query()], request: Request) -> Response:
    """Time and peak memory of the n × n form, FlashAttention's tiles and linear attention
    against n. Heavy work (a few seconds): it answers 503 when the heavy queue is full."""
    return await on_measure(request, _price, params)
