"""The toy lesson's declared answers: `/api/lesson`'s, its shuffle check's and its edits'.

`lesson_answer` is `encode_explanation` (trace_json.py) plus the lab's keys: `causal`,
`positions`, `heads` (each head's trace and beats), `concat_outputs`, `heads_note`, `edits`,
`shuffle` (null unless asked for), `predict` and `wrong_axis` (null unless the softmax ran
across the queries), built as the pydantic answer of answers_lesson.py directly (as
head_json.py builds a model head's), so an undeclared or mistyped key fails where it is built.
Every sentence comes from the explanation's notes, written once. `encode_lesson` is the same
answer as JSON-ready Python, for the hosts that carry it in a file or a trait (the CLI's lab,
the widget, the offline file).
"""

from __future__ import annotations

from typing import Any

from attnlab.encode.answers_lesson import (
    EditsAnswer,
    HeadAnswer,
    LessonAnswer,
    OneProjectionAnswer,
    PositionsAnswer,
    PredictAnswer,
    RotaryAnswer,
    ShuffleCheckAnswer,
    ShuffleRow,
    WrongAxisAnswer,
)
from attnlab.encode.answers_trace import BeatAnswer
from attnlab.encode.arrays import encode_array
from attnlab.encode.trace_json import encode_beat, encode_explanation, encode_rotary, encode_trace
from attnlab.lesson.edits import ROLES, Edits
from attnlab.lesson.explain import LessonExplanation
from attnlab.lesson.one_projection import OneProjection
from attnlab.lesson.shuffle import ShuffleCheck
from attnlab.lesson.toy import ROPE_SPEED, SINUSOIDAL_SCALE
from attnlab.words.captions import score_withheld_description
from attnlab.words.notes import HEAD_BLURBS

__all__ = [
    "edits_answer",
    "encode_edits",
    "encode_lesson",
    "encode_one_projection",
    "encode_shuffle",
    "lesson_answer",
    "shuffle_answer",
]


def lesson_answer(ex: LessonExplanation) -> LessonAnswer:
    """The whole lesson as `/api/lesson` answers it."""
    first, n = ex.runs[0], ex.notes
    heads = [
        HeadAnswer(
            **encode_trace(run.trace),
            name=run.head.name,
            blurb=HEAD_BLURBS[run.head.name],
            narration=[BeatAnswer(**encode_beat(b)) for b in beats],
        )
        for run, beats in zip(ex.runs, ex.head_beats, strict=True)
    ]
    positions = PositionsAnswer(
        kind=first.positions,
        note=n.positions,
        sinusoidal_scale=SINUSOIDAL_SCALE,
        rope_speed=ROPE_SPEED,
        word_embeddings=encode_array(first.word_embeddings),
        encodings=encode_array(first.encodings) if first.encodings is not None else None,
        rope=RotaryAnswer(**encode_rotary(first.rotary)) if first.rotary is not None else None,
    )
    return LessonAnswer(
        **encode_explanation(ex),
        causal=first.causal,
        causal_note=n.causal,
        positions=positions,
        heads=heads,
        concat_outputs=encode_array(ex.concat),
        heads_note=n.heads,
        edits=edits_answer(ex.options.edits),
        shuffle=shuffle_answer(ex.shuffle) if ex.shuffle is not None else None,
        predict=PredictAnswer(
            answer=ex.answer,
            answer_token=ex.trace.columns[ex.answer],
            notes=list(n.predictions),
            score_text=n.score_withheld,
            score_label=score_withheld_description(ex.trace, ex.focus),
        ),
        wrong_axis=_wrong_axis(ex),
        one_projection=one_projection_answer(ex.one_projection),
    )


def encode_lesson(ex: LessonExplanation) -> dict[str, Any]:
    """`lesson_answer(ex)` as JSON-ready Python, keyed as `/api/lesson` answers it."""
    return lesson_answer(ex).model_dump(mode="json", by_alias=True)


def one_projection_answer(r: OneProjection) -> OneProjectionAnswer:
    """One matrix for Q, K and V beside the real head (lesson/one_projection.py)."""
    real_first, one_first = r.diagonal_wins
    return OneProjectionAnswer(
        shared=r.shared,
        tokens=list(r.tokens),
        focus=r.focus,
        real_raw_scores=encode_array(r.real.raw_scores),
        real_weights=encode_array(r.real.weights),
        one_raw_scores=encode_array(r.one.raw_scores),
        one_weights=encode_array(r.one.weights),
        one_outputs=encode_array(r.one.outputs),
        real_self_first=[bool(x) for x in real_first],
        one_self_first=[bool(x) for x in one_first],
        note=r.note,
        finding=r.finding,
    )


def encode_one_projection(r: OneProjection) -> dict[str, Any]:
    """`one_projection_answer(r)` as JSON-ready Python (`attnlab lab one-projection --json`)."""
    return one_projection_answer(r).model_dump(mode="json")


def _wrong_axis(ex: LessonExplanation) -> WrongAxisAnswer | None:
    right, moved = ex.right_axis, ex.axis_moved
    if right is None or moved is None:
        return None
    return WrongAxisAnswer(
        right_weights=encode_array(right.weights),
        right_outputs=encode_array(right.outputs),
        moved=encode_array(moved),
        note=ex.notes.wrong_axis,
    )


def shuffle_answer(c: ShuffleCheck) -> ShuffleCheckAnswer:
    """One shuffle: the permutation, and each token's output before and after."""
    new_place = {orig: i for i, orig in enumerate(c.permutation)}
    unchanged = c.unchanged
    rows = [
        ShuffleRow(
            token=tok,
            **{"from": i},
            to=new_place[i],
            before=encode_array(c.before[i]),
            after=encode_array(c.after[i]),
            distance=float(c.distances[i]),
            unchanged=unchanged[i],
        )
        for i, tok in enumerate(c.tokens)
    ]
    return ShuffleCheckAnswer(
        seed=c.seed,
        positions=c.positions,
        causal=c.causal,
        permutation=list(c.permutation),
        tokens=list(c.tokens),
        shuffled_tokens=list(c.shuffled_tokens),
        all_unchanged=all(unchanged),
        max_distance=float(c.distances.max()),
        rows=rows,
        note=c.note,
    )


def encode_shuffle(c: ShuffleCheck) -> dict[str, Any]:
    """`shuffle_answer(c)` as JSON-ready Python ("from" for each row's old place)."""
    return shuffle_answer(c).model_dump(mode="json", by_alias=True)


def edits_answer(e: Edits) -> EditsAnswer:
    """The learner's edited vectors by role."""
    by_role = {role: {t: list(v) for t, v in getattr(e, role).items()} for role in ROLES}
    return EditsAnswer(**by_role)


def encode_edits(e: Edits) -> dict[str, Any]:
    return edits_answer(e).model_dump(mode="json")
