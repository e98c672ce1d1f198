"""The toy lesson explained: the seed's six beats plus what every lab option adds beside them.

`explain_lesson(sentence, options, focus=...)` runs the toy's heads once with one
`LessonOptions` and returns a `LessonExplanation`: the first head's `Explanation` (trace, focus,
beats, saturation), every head's run and beats, and the lab's extras: the right-axis run when the
softmax went down the wrong axis, a shuffle check, and the notes (words/notes.py) that say what
each option did. Every host reads these fields; nothing is recomputed in an encoder.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from attnlab.core.saturation import saturation
from attnlab.core.trace import Trace
from attnlab.errors import AttnlabError, EmptySequenceError
from attnlab.lesson.compute import DEFAULT, LessonRun, compute, concat_outputs
from attnlab.lesson.one_projection import OneProjection, one_projection
from attnlab.lesson.options import LessonOptions
from attnlab.lesson.shuffle import ShuffleCheck, shuffle_check
from attnlab.lesson.toy import DEFAULT_SENTENCE, ROPE_SPEED, SINUSOIDAL_SCALE, focus_index
from attnlab.types import FloatArray
from attnlab.words import notes
from attnlab.words.captions import captions
from attnlab.words.explanation import Explanation
from attnlab.words.narration import Beat, narrate, score_withheld

__all__ = ["LessonExplanation", "LessonNotes", "explain_lesson"]


@dataclass(frozen=True)
class LessonNotes:
    """What the lab's options did, in words; None where the option is off."""

    positions: str  # what the positional scheme (or its absence) means
    causal: str | None
    heads: str | None  # what each head chose, and the concatenated output
    wrong_axis: str | None
    predictions: tuple[str, ...]  # per key: what a learner hears after guessing it
    score_withheld: str  # the Score beat without its answer, told while a guess is awaited


@dataclass(frozen=True, repr=False)  # Explanation.__repr__: a summary, not the arrays
class LessonExplanation(Explanation):
    """The toy's explanation: `trace` is the first head's; `runs` and `head_beats` hold them all."""

    sentence: str
    options: LessonOptions
    runs: tuple[LessonRun, ...]
    head_beats: tuple[tuple[Beat, ...], ...]  # each head's six beats, told the same way
    concat: FloatArray  # (n, 4·heads) the heads' outputs side by side
    right_axis: Trace | None  # the same run with the softmax across the keys, when it was not
    shuffle: ShuffleCheck | None
    notes: LessonNotes
    one_projection: OneProjection  # the sentence with one matrix for Q, K and V (no lab options)

    @property
    def axis_moved(self) -> FloatArray | None:
        """How far each token's output moved with the softmax down the wrong axis: (n,) L2
        distances from the right-axis run's outputs, or None when the axis was right."""
        if self.right_axis is None:
            return None
        moved: FloatArray = np.linalg.norm(self.trace.outputs - self.right_axis.outputs, axis=-1)
        return moved  # (n,)

    @property
    def answer(self) -> int:
        """The key the focus row weights most: the answer to Predict first."""
        return int(np.argmax(self.trace.weights[self.focus]))


def explain_lesson(
    sentence: str = DEFAULT_SENTENCE,
    options: LessonOptions = DEFAULT,
    *,
    focus: str | int | None = None,
) -> LessonExplanation:
    """The toy's explanation of `sentence` with `options`, following `focus` (default: its
    ambiguous word). `options.heads == 2` adds the structure head; `options.shuffle` a seed's
    shuffle check of the same options."""
    if not isinstance(sentence, str):
        raise EmptySequenceError(f"a lesson needs a sentence (text), got {sentence!r}")
    if not isinstance(options, LessonOptions):
        raise AttnlabError(f"options must be a LessonOptions, got {options!r}", field="options")
    runs = tuple(compute(sentence, options, head=h) for h in range(options.heads))
    trace = runs[0].trace
    f = focus_index(trace.tokens, focus)
    extras = notes.beat_extras(
        positions=options.positions, scale=SINUSOIDAL_SCALE, speed=ROPE_SPEED
    )
    head_beats = tuple(narrate(r.trace, f, extras=extras) for r in runs)
    right = None
    if options.axis == "queries":
        right = compute(sentence, replace(options, axis="keys")).trace
    check = None
    if options.shuffle is not None:
        check = shuffle_check(sentence, options, seed=options.shuffle)
    concat = concat_outputs(runs)  # (n, 4·heads)
    return LessonExplanation(
        trace=trace,
        focus=f,
        beats=head_beats[0],
        saturation=saturation(trace, f),
        captions=captions(trace, f),
        sentence=sentence,
        options=options,
        runs=runs,
        head_beats=head_beats,
        concat=concat,
        right_axis=right,
        shuffle=check,
        notes=_notes(runs, f, concat, right, score_withheld(trace, f, extras=extras)),
        one_projection=one_projection(sentence, focus=f),
    )


def _notes(
    runs: tuple[LessonRun, ...],
    f: int,
    concat: FloatArray,
    right: Trace | None,
    withheld: str,
) -> LessonNotes:
    first = runs[0]
    t = first.trace
    who = t.tokens[f]
    causal = None
    if first.causal:
        hidden = [t.columns[j] for j in np.flatnonzero(~t.mask[f])] if t.mask is not None else []
        causal = notes.causal_note(who, hidden)
    heads = None
    if len(runs) > 1:
        favourites = [r.trace.columns[int(np.argmax(r.trace.weights[f]))] for r in runs]
        names = [r.head.name for r in runs]
        heads = notes.heads_note(who, names, favourites, concat[f].tolist())
    wrong = None
    if right is not None:
        moved = float(np.linalg.norm(t.outputs[f] - right.outputs[f]))  # the focus row's move
        wrong = notes.wrong_axis_note(
            who, t.outputs[f].tolist(), right.outputs[f].tolist(),
            float(t.weights[f].sum()), moved,
        )  # fmt: skip
    w = t.weights[f]
    answer = int(np.argmax(w))
    predictions = tuple(
        notes.prediction_note(who, t.columns[j], t.columns[answer], float(w[j]), float(w[answer]))
        for j in range(w.shape[0])
    )
    positions = notes.POSITION_NOTES[first.positions].format(
        scale=SINUSOIDAL_SCALE, speed=ROPE_SPEED
    )
    return LessonNotes(positions, causal, heads, wrong, predictions, withheld)
