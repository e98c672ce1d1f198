"""An Explanation: a single-head trace, the focus row it follows, and the six beats told about it.

This is what every host shows for one head, the toy's or a real model's: the terminal prints
it, the encoders turn it into the API's JSON, the page animates it. It adds no numbers of its
own beyond the measures read off the trace (core/saturation.py); its words are the beats
(narration.py) and the canvas's captions (captions.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from attnlab.core.saturation import Saturation, saturation
from attnlab.core.trace import Trace
from attnlab.words.captions import Captions, captions
from attnlab.words.narration import Beat, narrate

__all__ = ["Explanation"]


@dataclass(frozen=True)
class Explanation:
    """A single-head trace walked for query row `focus`."""

    trace: Trace
    focus: int
    beats: tuple[Beat, ...]
    saturation: Saturation
    captions: Captions  # what the canvas writes for each beat

    def __repr__(self) -> str:
        """A short summary; the trace's own repr says what it keeps."""
        token = self.trace.tokens[self.focus]
        return (
            f"{type(self).__name__}(focus {self.focus} {token!r}, {len(self.beats)} beats, "
            f"{self.trace!r})"
        )

    @classmethod
    def of(
        cls, trace: Trace, focus: int, *, extras: Mapping[str, str] | None = None
    ) -> Explanation:
        """Narrate `trace` for row `focus`; `extras` adds a sentence to a beat by its key."""
        beats = narrate(trace, focus, extras=extras)
        return cls(trace, focus, beats, saturation(trace, focus), captions(trace, focus))
