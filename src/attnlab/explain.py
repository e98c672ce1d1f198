"""An Explanation: a trace, the focus token it follows, and the six beats told about it.

This is the payload every front end shows: the CLI prints it, the server sends `to_dict()` as
JSON, the page animates it. It adds no numbers of its own to the trace.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy.typing as npt

from attnlab import lesson
from attnlab.narration import Beat, asymmetric_pair, narrate
from attnlab.trace import Trace
from attnlab.types import Axis, Mode


@dataclass(frozen=True)
class Explanation:
    """A single-head trace walked for query row `focus`."""

    trace: Trace
    focus: int
    beats: tuple[Beat, ...]

    @classmethod
    def of(cls, trace: Trace, focus: int) -> Explanation:
        """Narrate `trace` for row `focus`."""
        return cls(trace=trace, focus=focus, beats=narrate(trace, focus))

    def to_dict(self) -> dict[str, Any]:
        """The trace's JSON form plus `focus`, `focus_token`, `pair` and `narration`."""
        out = self.trace.to_dict()
        out["focus"] = self.focus
        out["focus_token"] = self.trace.tokens[self.focus]
        out["pair"] = list(asymmetric_pair(self.trace, self.focus))
        out["narration"] = [b.to_dict() for b in self.beats]
        return out


def explain_lesson(
    sentence: str = lesson.DEFAULT_SENTENCE,
    *,
    focus: str | int | None = None,
    mode: Mode = "scaled",
    axis: Axis = "keys",
    mask: npt.ArrayLike | None = None,
) -> Explanation:
    """The toy head's explanation of `sentence`, following `focus` (default: its ambiguous word)."""
    trace = lesson.run(sentence, mode=mode, axis=axis, mask=mask)
    return Explanation.of(trace, lesson.focus_index(trace.tokens, focus))
