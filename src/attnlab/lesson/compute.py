"""Running the toy head with the lab's options: one sentence in, one head's trace out.

`compute(sentence, options, head=h)` follows the projections of toy.py through three numbered
moves (embed, project, attend) and keeps what went in before the projections, so the page can
show what positions and edits changed. `run` is its trace alone.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from attnlab.core.attention import attend, causal_mask
from attnlab.core.positions import PositionKind, Rotary, rope, sinusoidal
from attnlab.core.trace import Trace
from attnlab.errors import MaskError, UnknownHeadError
from attnlab.lesson.edits import Role
from attnlab.lesson.options import LessonOptions
from attnlab.lesson.toy import (
    D_MODEL,
    DEFAULT_SENTENCE,
    DIM_NAMES,
    HEADS,
    ROPE_SPEED,
    SINUSOIDAL_SCALE,
    Head,
    embed,
    tokenize,
)
from attnlab.types import BoolArray, FloatArray

__all__ = ["LessonRun", "compute", "concat_outputs", "run"]

DEFAULT = LessonOptions()


@dataclass(frozen=True)
class LessonRun:
    """One head's trace for a sentence, with what went in before the projections."""

    trace: Trace  # queries/keys are what the scores used (rotated, under RoPE)
    head: Head
    positions: PositionKind
    causal: bool
    word_embeddings: FloatArray  # (n, 4) the vocabulary's (or edited) vectors, no position
    encodings: FloatArray | None  # (n, 4) the sinusoidal encodings added, or None
    rotary: Rotary | None  # RoPE's angles and q, k before and after, or None


def compute(
    sentence: str = DEFAULT_SENTENCE, options: LessonOptions = DEFAULT, *, head: int = 0
) -> LessonRun:
    """Run head `head` of the toy over `sentence` with `options`.

    1. Embed (edited words replaced), add sinusoidal encodings if asked.
    2. Project into q, k, v (head 1's edited q/k/v replaced), rotate q and k under RoPE.
    3. Attend, with the causal and custom masks and the temperature if asked.
    """
    tokens = tokenize(sentence)
    if isinstance(head, bool) or not isinstance(head, int) or not 0 <= head < len(HEADS):
        raise UnknownHeadError(
            f"head {head!r} does not exist: the toy has {len(HEADS)} heads", field="heads"
        )
    edits = options.edits
    edits.check_tokens(tokens)
    n, h = len(tokens), HEADS[head]
    words = edits.apply("embeddings", embed(tokens), tokens)  # (n, 4)
    kind = options.positions
    pe = sinusoidal(n, D_MODEL, scale=SINUSOIDAL_SCALE) if kind == "sinusoidal" else None
    x = words + pe if pe is not None else words  # (n, 4) what the projections see
    q: FloatArray = x @ h.w_q  # (n, 4)
    k: FloatArray = x @ h.w_k  # (n, 4)
    v: FloatArray = x @ h.w_v  # (n, 4)
    if head == 0:
        q, k, v = (edits.apply(r, a, tokens) for r, a in zip(_QKV, (q, k, v), strict=True))
    rotary = rope(q, k, speed=ROPE_SPEED) if kind == "rope" else None
    if rotary is not None:
        q, k = rotary.rotated_queries, rotary.rotated_keys  # (n, 4) each
    trace = attend(
        q, k, v, mode=options.mode, axis=options.axis, mask=_mask(options, n),
        temperature=options.temperature, tokens=tokens,
    )  # fmt: skip
    trace = replace(trace, embeddings=x, dim_names=DIM_NAMES)
    return LessonRun(trace, h, kind, options.causal, words, pe, rotary)


_QKV: tuple[Role, Role, Role] = ("queries", "keys", "values")


def _mask(options: LessonOptions, n: int) -> BoolArray | None:
    """The custom mask and the causal one, together (True = may attend)."""
    mask = options.mask
    if mask is not None and mask.shape != (n, n):
        raise MaskError(
            f"a mask of shape {mask.shape} does not fit {n} tokens; expected ({n}, {n})"
        )
    if not options.causal:
        return mask
    return causal_mask(n) if mask is None else mask & causal_mask(n)  # (n, n)


def run(
    sentence: str = DEFAULT_SENTENCE, options: LessonOptions = DEFAULT, *, head: int = 0
) -> Trace:
    """The toy head's full trace for `sentence` (head 0, the meaning head, by default)."""
    return compute(sentence, options, head=head).trace


def concat_outputs(runs: tuple[LessonRun, ...]) -> FloatArray:
    """The heads' outputs side by side: (n, 4·heads), as multi-head attention concatenates."""
    return np.concatenate([r.trace.outputs for r in runs], axis=-1)  # (n, 4·h)
