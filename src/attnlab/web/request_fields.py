"""The kinds of value the API's parameters take, declared once as pydantic types.

`Params` is the base of every request model (query string or JSON body): a parameter it does
not declare is refused by name. The annotated types add what pydantic does not do by itself:

    Blank[T]         a blank value ("mode=") means the parameter's default, as it always has
    Between(lo, hi)  a whole number in lo..hi, refused as "heads must be between 1 and 2, got 3"
    Text             text, stripped, at most MAX_CHARS characters (checked before tokenizing)
    Position         a focus: digits 0-9 are a position (at most 6 of them), other text a word;
                     text that only looks like a number ("²", "--5", "٣") is refused
    NotNumber        a word that must not be a number or look like one
    Beat             the step of the lesson an offline file opens at, 0..5

Pydantic's own refusals (not a number, not one of the choices) are put into words by
error_replies.py; the messages written here already are.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, TypeVar

from annotated_types import GroupedMetadata
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    StringConstraints,
    ValidationInfo,
    WithJsonSchema,
    model_validator,
)
from pydantic_core import PydanticCustomError, PydanticUseDefault

from attnlab.words.page import BEAT_TITLES

__all__ = [
    "MAX_CHARS",
    "MAX_INDEX_DIGITS",
    "Beat",
    "Between",
    "Blank",
    "NotNumber",
    "Params",
    "Position",
    "Text",
]

MAX_CHARS = 500
"""No text parameter may be longer than this many characters (checked before tokenizing)."""

MAX_INDEX_DIGITS = 6
"""A position longer than this many digits is refused before it is read as a number."""

T = TypeVar("T")
_INDEX = re.compile(r"[+-]?[0-9]+")


def _looks_numeric(text: str) -> bool:
    """Digits of any script, superscripts or signs around them: what str.isdigit reads as a
    number although int() does not ("²", "--5", "٣")."""
    return any(c.isdigit() or c.isnumeric() for c in text) and all(
        c.isdigit() or c.isnumeric() or c in "+-" for c in text
    )


def _position_or_word(value: Any, info: ValidationInfo) -> Any:
    if isinstance(value, bool) or not isinstance(value, int | str):
        return value  # refused by the field's own type
    text = str(value).strip()
    name = info.field_name or "focus"
    if _INDEX.fullmatch(text):
        if len(text.lstrip("+-")) > MAX_INDEX_DIGITS:
            raise PydanticCustomError(
                "index_too_long",
                "{name} {got}… is a position far outside any text",
                {"name": name, "got": text[:12], "field": name},
            )
        return int(text)
    if isinstance(value, str) and _looks_numeric(text):
        raise PydanticCustomError(
            "number_like",
            "{name} {got} looks like a number but is not one: give a position in the "
            "digits 0-9 or a word of the text",
            {"name": name, "got": repr(text[:20]), "field": name},
        )
    return value


def _not_number(value: Any, info: ValidationInfo) -> Any:
    if isinstance(value, str) and _looks_numeric(value.strip()):
        name = info.field_name or "word"
        raise PydanticCustomError(
            "number_word",
            "{name} must be a word, got the number {got}",
            {"name": name, "got": repr(value.strip()[:20]), "field": name},
        )
    return value


Position = BeforeValidator(_position_or_word)
"""Put in an `Annotated[int | str | None, ...]` focus: see the module's docstring."""
NotNumber = BeforeValidator(_not_number)
"""Put in an `Annotated[str, ...]` word that must not be a number."""


def _blank_is_default(value: Any) -> Any:
    if isinstance(value, str):
        value = value.strip()
        if not value:
            raise PydanticUseDefault()
    return value


Blank = Annotated[T, BeforeValidator(_blank_is_default)]
"""A parameter whose blank value means its default; others are stripped."""

Text = Annotated[str, StringConstraints(strip_whitespace=True, max_length=MAX_CHARS)]
"""Text, stripped, of at most MAX_CHARS characters (a blank text stays blank: whatever reads
it refuses it, with the reason)."""


@dataclass(frozen=True)
class Between(GroupedMetadata):
    """`Annotated[int, Between(1, 2)]`: a whole number from `lo` to `hi` (None: no top)."""

    lo: int
    hi: int | None = None

    def __iter__(self) -> Iterator[object]:
        lo, hi = self.lo, self.hi
        bounds = f"between {lo} and {hi}" if hi is not None else f"{lo} or more"

        def check(n: int, info: ValidationInfo) -> int:
            if n < lo or (hi is not None and n > hi):
                raise PydanticCustomError(
                    "out_of_range",
                    "{name} must be {bounds}, got {got}",
                    {"name": info.field_name, "bounds": bounds, "got": n},
                )
            return n

        schema: dict[str, Any] = {"type": "integer", "minimum": lo}
        if hi is not None:
            schema["maximum"] = hi
        yield AfterValidator(check)
        yield WithJsonSchema(schema)


Beat = Annotated[int, Between(0, len(BEAT_TITLES) - 1)]


class Params(BaseModel):
    """A request's parameters: frozen once read, and every one of them declared.

    A subclass may give `hints`: a sentence added when a known mistake is refused (such as
    `set` in a JSON body, whose edits travel as an object).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    hints: ClassVar[dict[str, str]] = {}
    what: ClassVar[str] = "parameter"

    @model_validator(mode="before")
    @classmethod
    def _refuse_unknown(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        known = [f.alias or name for name, f in cls.model_fields.items()]
        for name in data:
            if name not in known:
                takes = f"expected one of {', '.join(known)}" if known else "it takes none"
                hint = cls.hints.get(name, takes)
                raise PydanticCustomError(
                    "unknown_parameter",
                    "unknown {what} {name}: {hint}",
                    {
                        "what": cls.what,
                        "name": repr(str(name)[:40]),
                        "hint": hint,
                        "field": str(name)[:40],
                    },
                )
        return data
