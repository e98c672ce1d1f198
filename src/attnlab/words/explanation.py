"""An Explanation: a single-head trace, the focus row it follows, and the six beats told about it.

This is what every host shows for one head, the toy's or a real model's: the terminal prints
it, the encoders turn it into the API's JSON, the page animates it. It adds no numbers of its
own beyond the measures read off the trace (core/saturation.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from attnlab.core.saturation import Saturation, saturation
from attnlab.core.trace import Trace
from attnlab.words.narration import Beat, narrate

__all__ = ["Explanation"]


@dataclass(frozen=True)
class Explanation:
    """A single-head trace walked for query row `focus`."""

    trace: Trace
    focus: int
    beats: tuple[Beat, ...]
    saturation: Saturation

    @classmethod
    def of(
        cls, trace: Trace, focus: int, *, extras: Mapping[str, str] | None = None
    ) -> Explanation:
        """Narrate `trace` for row `focus`; `extras` adds a sentence to a beat by its key."""
        return cls(trace, focus, narrate(trace, focus, extras=extras), saturation(trace, focus))
