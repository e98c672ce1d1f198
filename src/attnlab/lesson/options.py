"""The lesson's knobs as one frozen, validated object, built once at the edge and passed whole.

`LessonOptions` holds everything that changes how the toy head runs or what is explained
beside it: the normalization `mode`, the softmax `axis`, a `temperature` T in place of √dₖ,
word order (`positions`), the `causal` mask, a custom `mask`, how many `heads` to run, edited
vectors (`edits`) and a `shuffle` seed. The CLI and the API each build one from what they were
given; every function of the lesson takes it whole, and a variant is
`dataclasses.replace(options, axis="keys")`, never a dict with keys deleted.

Validation happens in `__post_init__`, so an options object that exists is a valid one; each
refusal is the named error whose `field` tells the page which control it concerns.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from attnlab.core.attention import check_temperature
from attnlab.core.positions import PositionKind, check_kind
from attnlab.errors import AttnlabError, MaskError, ShuffleError, UnknownHeadError, UnknownModeError
from attnlab.lesson.edits import Edits
from attnlab.types import AXES, MODES, Axis, BoolArray, Mode

__all__ = ["HEAD_COUNTS", "LessonOptions"]

HEAD_COUNTS = (1, 2)
"""The toy runs its meaning head alone, or beside the structure head."""
SEED_LIMIT = 2**32
"""Shuffle seeds are whole numbers in 0 .. 2³² − 1 (NumPy's seed range for one word)."""


@dataclass(frozen=True)
class LessonOptions:
    """How the toy lesson runs. The defaults are the seed's lesson: one scaled head, no lab."""

    mode: Mode = "scaled"
    axis: Axis = "keys"
    temperature: float | None = None  # T replaces √dₖ (mode "scaled" only)
    positions: PositionKind = "none"
    causal: bool = False
    mask: BoolArray | None = field(default=None, compare=False)  # (n, n), True = may attend
    heads: int = 1
    edits: Edits = field(default_factory=Edits)
    shuffle: int | None = None  # a seed: also run a shuffled sentence and compare

    def __post_init__(self) -> None:
        if not isinstance(self.mode, str) or self.mode not in MODES:
            raise UnknownModeError(
                f"unknown mode {self.mode!r}: expected one of {', '.join(MODES)}"
            )
        if not isinstance(self.axis, str) or self.axis not in AXES:
            raise UnknownModeError(
                f"unknown softmax axis {self.axis!r}: expected one of {', '.join(AXES)}",
                field="axis",
            )
        if self.temperature is not None:
            object.__setattr__(
                self, "temperature", check_temperature(self.temperature, mode=self.mode)
            )
        check_kind(self.positions)
        if not isinstance(self.causal, bool):
            raise AttnlabError(f"causal must be true or false, got {self.causal!r}", field="causal")
        if (
            not isinstance(self.heads, int)
            or isinstance(self.heads, bool)
            or self.heads not in HEAD_COUNTS
        ):
            raise UnknownHeadError(
                f"the toy has 1 or 2 heads, got heads={self.heads!r}", field="heads"
            )
        if not isinstance(self.edits, Edits):
            raise AttnlabError(f"edits must be an Edits object, got {self.edits!r}", field="set")
        if self.shuffle is not None:
            s = self.shuffle
            if (
                isinstance(s, bool)
                or not isinstance(s, int | np.integer)
                or not 0 <= s < SEED_LIMIT
            ):
                raise ShuffleError(
                    f"a shuffle seed must be a whole number from 0 to {SEED_LIMIT - 1}, got {s!r}"
                )
            object.__setattr__(self, "shuffle", int(s))
        if self.mask is not None:
            object.__setattr__(self, "mask", _as_mask(self.mask))


def _as_mask(mask: npt.ArrayLike) -> BoolArray:
    a = np.array(mask)  # a private copy
    if a.dtype != np.bool_:
        raise MaskError(f"a mask must be boolean (True = may attend), got dtype {a.dtype}")
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise MaskError(f"a lesson's mask is one (n, n) matrix of the sentence, got {a.shape}")
    a.flags.writeable = False
    return a
