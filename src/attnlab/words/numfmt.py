"""How numbers are written for people: the CLI, the narration and the page all use this rule.

Two decimals, trailing zeros dropped (0.46, 0, 2.3), minus zero written as 0, and non-finite
values by name (−∞ for a masked score). The page's JavaScript applies the same rule.
"""

from __future__ import annotations

import math
from collections.abc import Iterable


def num(x: float, *, places: int = 2) -> str:
    """`x` rounded to `places` decimals with trailing zeros dropped: 0.460 -> "0.46"."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    text = f"{x:.{places}f}".rstrip("0").rstrip(".") if places > 0 else f"{x:.0f}"
    return "0" if text in {"-0", ""} else text


def vec(xs: Iterable[float], *, places: int = 2) -> str:
    """A vector as the seed writes it: [2.3, 2.3, 0, 0]."""
    return "[" + ", ".join(num(float(x), places=places) for x in xs) + "]"


def percent(w: float) -> str:
    """A weight as a share of the budget: 0.6854 -> "69%"."""
    return f"{round(100 * w)}%"
