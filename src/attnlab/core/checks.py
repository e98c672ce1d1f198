"""Checks on what a caller hands the core: arrays of numbers, whole numbers, labels, indices.

Every public function runs its arguments through these, so a wrong type (None, a text where
a count goes, a float where labels go) answers with a named `AttnlabError` that quotes the
value, never a bare TypeError from deep inside NumPy.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from attnlab.errors import ArgumentTypeError, AttnlabError, FocusError, ShapeError
from attnlab.types import FloatArray

__all__ = ["as_float", "as_index", "labels", "whole_number"]

INDEX_DIGITS = 6
"""An index has at most this many digits: no sequence here has a million tokens."""
_ASCII_DIGITS = frozenset("0123456789")


def as_float(a: object, name: str) -> FloatArray:
    """`a` as a float array (integers and booleans widened to float64); ShapeError otherwise."""
    if a is None or isinstance(a, str | bytes | dict):
        raise ShapeError(f"{name} must be an array of numbers, got {_shown(a)}")
    try:
        arr = np.asarray(a)
    except (TypeError, ValueError, OverflowError) as exc:
        raise ShapeError(f"{name} is not a numeric array: {exc}") from None
    if arr.dtype.kind in "biu":
        return arr.astype(np.float64)
    if arr.dtype.kind != "f":
        raise ShapeError(f"{name} must hold numbers, got dtype {arr.dtype} ({_shown(a)})")
    return arr


def whole_number(
    x: object, name: str, *, lo: int, hi: int, error: type[AttnlabError] = ArgumentTypeError
) -> int:
    """`x` as an int in lo..hi; `error` (default ArgumentTypeError) quoting it otherwise."""
    if isinstance(x, bool) or not isinstance(x, int | np.integer):
        raise error(f"{name} must be a whole number from {lo} to {hi}, got {_shown(x)}")
    if not lo <= int(x) <= hi:
        raise error(f"{name} must be from {lo} to {hi}, got {_shown(x)}")
    return int(x)


def labels(tokens: object, n: int, name: str = "tokens", *, per: str = "rows") -> tuple[str, ...]:
    """`tokens` as a tuple of n texts; ShapeError for another length, ArgumentTypeError for a
    text (one string is not a list of labels), a number or a list holding non-texts."""
    if isinstance(tokens, str | bytes) or not isinstance(tokens, Sequence | np.ndarray):
        raise ArgumentTypeError(f"{name} must be a list of {n} texts, got {_shown(tokens)}")
    out = tuple(tokens)
    odd = [t for t in out if not isinstance(t, str)]
    if odd:
        raise ArgumentTypeError(f"{name} must be texts, got {_shown(odd[0])} among them")
    if len(out) != n:
        raise ShapeError(f"got {len(out)} {name} for {n} {per}: one label each")
    return out


def as_index(focus: str | int) -> int | None:
    """`focus` as an index when it is one (an int, or ASCII digits with an optional "-"), else
    None (a word). '²' is a digit to str.isdigit but not to int(), so only 0-9 count; more than
    INDEX_DIGITS digits is a FocusError (it cannot be a row), not a 5,000-digit int()."""
    if isinstance(focus, bool):
        raise FocusError(f"a focus is a word or an index, got {focus!r}")
    if isinstance(focus, int | np.integer):
        return int(focus)
    text = focus.strip()
    digits = text.removeprefix("-")
    if not digits or not set(digits) <= _ASCII_DIGITS:
        return None  # a word (or '²', '--5': not an index as the CLI and the API spell one)
    if len(digits) <= INDEX_DIGITS:
        return int(text)
    shown = text if len(text) <= 12 else text[:12] + "…"
    raise FocusError(f"focus index {shown} has {len(digits)} digits: no text is that long")


def _shown(x: object) -> str:
    text = repr(x)
    return f"{type(x).__name__} {text[:40]}{'…' if len(text) > 40 else ''}"
