"""The toy lesson's requests, declared once: the query strings of `/api/lesson`, `/api/sweep`,
`/api/shuffle`, `/api/cost` and `/api/export/lesson.html` (the lesson on screen as one offline
file, opening at `beat`), and the JSON body of `POST /api/lesson`.

Each model is read at the edge and turned, once, into what the lesson takes: `options()` is
the lesson's one `LessonOptions` (whose own checks, such as a temperature without mode
"scaled", answer with the control they concern), beside `sentence` and `focus`.

    ?sentence=&focus=&mode=&axis=&temperature=&positions=&causal=&heads=&shuffle=
     &set=TOKEN=x,y,z,w (repeatable; embeddings) &set_q= &set_k= &set_v= (head 1's q, k, v)
    POST {"sentence": ..., "edits": {"embeddings": {"bank": [1, 0, 0, 1]}, "queries": {...}}}
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

from pydantic import BeforeValidator, Field, FiniteFloat, model_validator
from pydantic_core import PydanticCustomError

from attnlab import lesson
from attnlab.core.cost import DEFAULT_MAX_N, MAX_N, D
from attnlab.core.positions import PositionKind
from attnlab.core.saturation import T_MAX, T_MIN, T_STEPS
from attnlab.lesson.edits import FIELDS, ROLES, Edits
from attnlab.lesson.options import SEED_LIMIT, LessonOptions
from attnlab.types import Axis, Mode
from attnlab.web.request_fields import Beat, Between, Blank, Params, Position, Text

__all__ = [
    "CostQuery", "LessonBody", "LessonFileQuery", "LessonQuery", "ShuffleQuery", "SweepQuery",
]  # fmt: skip

Focus = Annotated[
    int | Text | None,
    Position,
    Field(description="a word of the sentence or its position (default: the word of two senses)"),
]
Seed = Annotated[int, Between(0, SEED_LIMIT - 1)]
Head = Annotated[int, Between(1, 2)]
"""One of the toy's two heads, from 1 (or, for `heads`, how many run)."""
T_LOWEST, T_HIGHEST = 1e-3, 1e6
"""The temperatures a sweep may reach: below 1e-3 the toy's scores over T overflow float64
once edits make them large (1e4 / 5e-324 is inf, and the weights would be NaN)."""
_OPTIONS = {"mode", "axis", "temperature", "positions", "causal", "heads", "shuffle"}
"""The parameters that are LessonOptions' fields of the same name (edits are built apart)."""


def _lower(value: Any) -> Any:
    return value.lower() if isinstance(value, str) else value


class LessonParams(Params):
    """What the lesson explains and how: the parameters every lesson request shares."""

    sentence: Text = Field(lesson.DEFAULT_SENTENCE, description="words of the toy vocabulary")
    focus: Blank[Focus] = None
    mode: Blank[Mode] = "scaled"
    axis: Blank[Axis] = "keys"
    temperature: Blank[float | None] = Field(None, description="T in place of √dₖ")
    positions: Blank[Annotated[PositionKind, BeforeValidator(_lower)]] = "none"  # any case
    causal: Blank[bool] = False
    heads: Blank[Head] = 1
    shuffle: Blank[Seed | None] = Field(None, description="a seed: also run a shuffled sentence")

    def _edits(self) -> Edits:
        return Edits()

    def options(self) -> LessonOptions:
        """The lesson's one options object, built here and passed whole."""
        return LessonOptions(**self.model_dump(include=_OPTIONS), edits=self._edits())


class LessonQuery(LessonParams):
    """`GET /api/lesson`: the lesson's parameters as a query string, edits as TOKEN=x,y,z,w."""

    set: list[Text] = Field(default_factory=list, description="embeddings: TOKEN=x,y,z,w")
    set_q: list[Text] = Field(default_factory=list, description="head 1's queries")
    set_k: list[Text] = Field(default_factory=list, description="head 1's keys")
    set_v: list[Text] = Field(default_factory=list, description="head 1's values")

    def _edits(self) -> Edits:
        specs = {role: [s for s in getattr(self, FIELDS[role]) if s] for role in ROLES}
        return Edits.parse(specs, dim_names=lesson.DIM_NAMES)


class EditsBody(Params):
    """Edited vectors by role: {"bank": [1, 0, 0, 1]} replaces bank's numbers."""

    what: ClassVar[str] = "edit role"
    embeddings: dict[str, list[FiniteFloat]] = Field(default_factory=dict)
    queries: dict[str, list[FiniteFloat]] = Field(default_factory=dict)
    keys: dict[str, list[FiniteFloat]] = Field(default_factory=dict)
    values: dict[str, list[FiniteFloat]] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _checked(cls, data: Any) -> Any:
        Edits.from_json(data, dim_names=lesson.DIM_NAMES)  # its words; "1" is no JSON number
        return data


_BODY_EDITS = 'a body sends edits as {"edits": {"embeddings": {"bank": [1, 0, 0, 1]}}}'


class LessonBody(LessonParams):
    """`POST /api/lesson`: the same parameters as a JSON object, with edits as an object."""

    hints: ClassVar[dict[str, str]] = {name: _BODY_EDITS for name in FIELDS.values()}
    edits: EditsBody | None = None

    def _edits(self) -> Edits:
        data = self.edits.model_dump() if self.edits is not None else None
        return Edits.from_json(data, dim_names=lesson.DIM_NAMES)


class SweepQuery(LessonQuery):
    """`GET /api/sweep`: the lesson's parameters and the temperatures to sweep."""

    t_min: Blank[float] = Field(T_MIN, ge=T_LOWEST, le=T_HIGHEST, allow_inf_nan=False)
    t_max: Blank[float] = Field(T_MAX, ge=T_LOWEST, le=T_HIGHEST, allow_inf_nan=False)
    steps: Blank[Annotated[int, Between(2, 201)]] = T_STEPS
    head: Blank[Head] = Field(1, description="the toy's head, 1 or 2")

    @model_validator(mode="after")
    def _rising(self) -> SweepQuery:
        if not self.t_min < self.t_max:
            raise PydanticCustomError(
                "t_range",
                "t_min ({lo}) must be below t_max ({hi})",
                {"lo": f"{self.t_min:g}", "hi": f"{self.t_max:g}", "field": "t_min"},
            )
        return self


class ShuffleQuery(LessonQuery):
    """`GET /api/shuffle`: the lesson's parameters and the shuffle's seed."""

    seed: Blank[Seed] = 0


class CostQuery(Params):
    """`GET /api/cost`: how far to measure attention's time and memory against n."""

    max_n: Blank[Annotated[int, Between(8, MAX_N)]] = DEFAULT_MAX_N
    d: Blank[Annotated[int, Between(1, 512)]] = D
    per_octave: Blank[Annotated[int, Between(1, 8)]] = 2
    kv_cache: Blank[bool] = Field(
        False, description="also one more token: the n × n recompute against one cached row"
    )


class LessonFileQuery(LessonQuery):
    """`GET /api/export/lesson.html`: the lesson on screen and the step it opens at."""

    beat: Blank[Beat] = Field(0, description="the step the file opens at, from 0")


class NoParams(Params):
    """A route that takes no parameters (any is refused by name)."""
