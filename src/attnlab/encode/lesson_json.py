"""The JSON form of the toy lesson: `/api/lesson`'s answer, its shuffle check and its edits.

`encode_lesson` is `encode_explanation` (trace_json.py) plus the lab's keys: `causal`,
`positions`, `heads` (each head's trace and beats), `concat_outputs`, `heads_note`, `edits`,
`shuffle` (null unless asked for), `predict` and `wrong_axis` (null unless the softmax ran
across the queries). Every sentence comes from the explanation's notes, written once.
"""

from __future__ import annotations

from typing import Any

from attnlab.encode.arrays import encode_array
from attnlab.encode.trace_json import encode_beat, encode_explanation, encode_rotary, encode_trace
from attnlab.lesson.edits import ROLES, Edits
from attnlab.lesson.explain import LessonExplanation
from attnlab.lesson.shuffle import ShuffleCheck
from attnlab.lesson.toy import ROPE_SPEED, SINUSOIDAL_SCALE
from attnlab.words.notes import HEAD_BLURBS

__all__ = ["encode_edits", "encode_lesson", "encode_shuffle"]


def encode_lesson(ex: LessonExplanation) -> dict[str, Any]:
    """The whole lesson as `/api/lesson` answers it."""
    out = encode_explanation(ex)
    first, n = ex.runs[0], ex.notes
    heads = []
    for run, beats in zip(ex.runs, ex.head_beats, strict=True):
        d = encode_trace(run.trace)
        d["name"] = run.head.name
        d["blurb"] = HEAD_BLURBS[run.head.name]
        d["narration"] = [encode_beat(b) for b in beats]
        heads.append(d)
    out.update(
        {
            "causal": first.causal,
            "causal_note": n.causal,
            "positions": {
                "kind": first.positions,
                "note": n.positions,
                "sinusoidal_scale": SINUSOIDAL_SCALE,
                "rope_speed": ROPE_SPEED,
                "word_embeddings": encode_array(first.word_embeddings),
                "encodings": encode_array(first.encodings) if first.encodings is not None else None,
                "rope": encode_rotary(first.rotary) if first.rotary is not None else None,
            },
            "heads": heads,
            "concat_outputs": encode_array(ex.concat),
            "heads_note": n.heads,
            "edits": encode_edits(ex.options.edits),
            "shuffle": encode_shuffle(ex.shuffle) if ex.shuffle is not None else None,
            "predict": {
                "answer": ex.answer,
                "answer_token": ex.trace.columns[ex.answer],
                "notes": list(n.predictions),
            },
            "wrong_axis": _wrong_axis(ex),
        }
    )
    return out


def _wrong_axis(ex: LessonExplanation) -> dict[str, Any] | None:
    right, moved = ex.right_axis, ex.axis_moved
    if right is None or moved is None:
        return None
    return {
        "right_weights": encode_array(right.weights),
        "right_outputs": encode_array(right.outputs),
        "moved": encode_array(moved),
        "note": ex.notes.wrong_axis,
    }


def encode_shuffle(c: ShuffleCheck) -> dict[str, Any]:
    """One shuffle: the permutation, and each token's output before and after."""
    new_place = {orig: i for i, orig in enumerate(c.permutation)}
    unchanged = c.unchanged
    return {
        "seed": c.seed,
        "positions": c.positions,
        "causal": c.causal,
        "permutation": list(c.permutation),
        "tokens": list(c.tokens),
        "shuffled_tokens": list(c.shuffled_tokens),
        "all_unchanged": all(unchanged),
        "max_distance": float(c.distances.max()),
        "rows": [
            {
                "token": tok,
                "from": i,
                "to": new_place[i],
                "before": encode_array(c.before[i]),
                "after": encode_array(c.after[i]),
                "distance": float(c.distances[i]),
                "unchanged": unchanged[i],
            }
            for i, tok in enumerate(c.tokens)
        ],
        "note": c.note,
    }


def encode_edits(e: Edits) -> dict[str, Any]:
    return {role: {t: list(v) for t, v in getattr(e, role).items()} for role in ROLES}
