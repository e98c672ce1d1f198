"""The kinds of value the API's parameters take, declared once as pydantic types.

`Params` is the base of every request model (query string or JSON body): a parameter it does
not declare is refused by name. The annotated types add what pydantic does not do by itself:

    Blank[T]         a blank value ("mode=") means the parameter's default, as it always has
    Between(lo, hi)  a whole number in lo..hi, refused as "heads must be between 1 and 2, got 3"
    Text             text, stripped, at most MAX_CHARS characters (checked before tokenizing)

Pydantic's own refusals (not a number, not one of the choices) are put into words by
error_replies.py; the messages written here already are.
"""

from __future__ import annotations

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

__all__ = ["MAX_CHARS", "Between", "Blank", "Params", "Text"]

MAX_CHARS = 500
"""No text parameter may be longer than this many characters (checked before tokenizing)."""

T = TypeVar("T")


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
