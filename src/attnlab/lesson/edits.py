"""Edited vectors: a learner's own numbers for a word's embedding, or its q, k or v directly.

An edit names a word of the sentence (every occurrence of it changes) and gives one number
per dimension. Bad numbers are refused with a `VectorEditError` that quotes the word, the
dimension and the value: non-numbers, NaN, infinities and anything beyond ±100 (`LIMIT`).
Text edits read "TOKEN=x,y,z,w", the form the CLI's `--set` and the API's `set` take.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

import numpy as np

from attnlab.errors import VectorEditError
from attnlab.types import FloatArray

__all__ = ["FIELDS", "LIMIT", "ROLES", "Edits", "Role", "check_vector", "parse_edit"]

LIMIT = 100.0
"""The largest magnitude an edited number may have."""

Role: TypeAlias = Literal["embeddings", "queries", "keys", "values"]
ROLES: tuple[Role, ...] = ("embeddings", "queries", "keys", "values")
_ROLE_WORD = {"embeddings": "embedding", "queries": "query", "keys": "key", "values": "value"}
FIELDS: dict[Role, str] = {
    "embeddings": "set",
    "queries": "set_q",
    "keys": "set_k",
    "values": "set_v",
}
"""The API parameter (and, with dashes, the CLI option) that edits each role."""


def _fail(role: Role, message: str) -> VectorEditError:
    """A VectorEditError whose `field` names the parameter of `role`, for the page."""
    err = VectorEditError(message)
    err.field = FIELDS[role]
    return err


Vector: TypeAlias = tuple[float, ...]
_SHAPE = '{"embeddings": {"bank": [1, 0, 0, 1]}}'
"""An edit as JSON, for the refusal of one that is not."""


def check_vector(
    token: str,
    values: object,
    *,
    role: Role = "embeddings",
    width: int = 4,
    dim_names: Sequence[str] | None = None,
    text: bool = True,
) -> Vector:
    """`values` as `width` floats, each finite and within ±LIMIT; VectorEditError otherwise.
    With `text` False (values read from JSON) a number written as a string is refused."""
    what = f"the {_ROLE_WORD[role]} of {token!r}"
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise _fail(role, f"{what} must be a list of {width} numbers, got {kind_of(values)}")
    items = list(values)
    if len(items) != width:
        raise _fail(role, f"{what} needs {width} numbers, got {len(items)}")
    out: list[float] = []
    for d, raw in enumerate(items):
        dim = f"dimension {d}" + (f" ({dim_names[d]})" if dim_names is not None else "")
        x = _number(raw) if text or not isinstance(raw, str) else None
        if x is None and not text:
            raise _fail(role, f"{what}, {dim} must be a JSON number such as 1 or 0.5, got "
                        f"{kind_of(raw)}")  # fmt: skip
        if x is None:
            raise _fail(role, f"{what}, {dim}: {raw!r} is not a number")
        if math.isnan(x):
            raise _fail(role, f"{what}, {dim}: {raw!r} is NaN; every number must be finite")
        if not abs(x) <= LIMIT:
            raise _fail(role, f"{what}, {dim}: {raw!r} is beyond ±{LIMIT:g}")
        out.append(x)
    return tuple(out)


def kind_of(x: object) -> str:
    """What a JSON value is, in words: a refusal names it instead of echoing its repr."""
    if isinstance(x, bool) or x is None:
        return "true or false" if x is not None else "null"
    if isinstance(x, int | float):
        return "a number"
    if isinstance(x, str):
        return "a string"
    return "a list" if isinstance(x, list | tuple) else "an object"


def _number(raw: object) -> float | None:
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int | float | np.number):
        return float(raw)
    if isinstance(raw, str):
        try:
            return float(raw.strip())
        except ValueError:
            return None
    return None


def parse_edit(spec: str) -> tuple[str, list[str]]:
    """ "bank=1,2,0,0" -> ("bank", ["1", "2", "0", "0"]); the numbers are checked later."""
    token, sep, numbers = spec.partition("=")
    if not sep or not token.strip():
        raise VectorEditError(f"an edit reads TOKEN=x,y,z,w (e.g. bank=1,0,0,1), got {spec!r}")
    return token.strip().lower(), [x for x in numbers.split(",")]


@dataclass(frozen=True)
class Edits:
    """Replacement vectors per word, for the embeddings and (head 1's) queries, keys, values."""

    embeddings: Mapping[str, Vector] = field(default_factory=dict)
    queries: Mapping[str, Vector] = field(default_factory=dict)
    keys: Mapping[str, Vector] = field(default_factory=dict)
    values: Mapping[str, Vector] = field(default_factory=dict)

    @classmethod
    def parse(
        cls, specs: Mapping[Role, Sequence[str]], *, dim_names: Sequence[str] | None = None
    ) -> Edits:
        """Edits from text: {"embeddings": ["bank=1,2,0,0"], "queries": [...]}."""
        data: dict[Role, dict[str, list[str]]] = {}
        for role in ROLES:
            try:
                data[role] = dict(parse_edit(s) for s in specs.get(role, ()))
            except VectorEditError as exc:
                raise _fail(role, str(exc)) from None
        return cls.from_json(data, dim_names=dim_names, text=True)

    @classmethod
    def from_json(
        cls, data: object, *, dim_names: Sequence[str] | None = None, text: bool = False
    ) -> Edits:
        """Edits from a JSON object {"embeddings": {"bank": [1, 2, 0, 0]}, "queries": {...}}
        (with `text`, numbers may be written as strings: `parse`'s)."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise VectorEditError(
                f"edits must be an object of roles such as {_SHAPE}, got {kind_of(data)}"
            )
        unknown = [r for r in data if r not in ROLES]
        if unknown:
            raise VectorEditError(
                f"unknown edit role {unknown[0]!r}: expected one of {', '.join(ROLES)}"
            )
        tables: dict[str, dict[str, Vector]] = {}
        for role in ROLES:
            table = data.get(role) or {}
            if not isinstance(table, Mapping):
                raise _fail(
                    role,
                    f'edits of {role} must map words to vectors such as {{"bank": [1, 0, 0, 1]}}, '
                    f"got {kind_of(table)}",
                )
            names = dim_names if role == "embeddings" else None
            tables[role] = {
                str(tok).lower(): check_vector(
                    str(tok), vals, role=role, dim_names=names, text=text
                )
                for tok, vals in table.items()
            }
        return cls(**tables)

    def __bool__(self) -> bool:
        return any(getattr(self, role) for role in ROLES)

    def check_tokens(self, tokens: Sequence[str]) -> None:
        """Every edited word must be in the sentence."""
        for role in ROLES:
            for tok in getattr(self, role):
                if tok not in tokens:
                    raise _fail(
                        role,
                        f"cannot edit the {_ROLE_WORD[role]} of {tok!r}: it is not in the "
                        f"sentence ({', '.join(tokens)})",
                    )

    def apply(self, role: Role, x: FloatArray, tokens: Sequence[str]) -> FloatArray:
        """`x` (n, d) with the rows of edited words replaced."""
        table: Mapping[str, Vector] = getattr(self, role)
        if not table:
            return x
        out = np.array(x, dtype=np.float64)  # (n, d) a copy
        for i, tok in enumerate(tokens):
            if tok in table:
                vec = table[tok]
                if len(vec) != out.shape[1]:
                    raise _fail(
                        role,
                        f"the {_ROLE_WORD[role]} of {tok!r} needs {out.shape[1]} numbers, "
                        f"got {len(vec)}",
                    )
                out[i] = vec
        return out
