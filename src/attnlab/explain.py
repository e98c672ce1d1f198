"""An Explanation: a trace, the focus token it follows, and the six beats told about it.

This is the payload every front end shows: the CLI prints it, the server sends `to_dict()` as
JSON, the page animates it. It adds no numbers of its own to the trace beyond the measures read
off it (saturation.py) and, for the toy lesson, the lab's extras: positions, the causal mask,
edited vectors, the heads side by side, a shuffle check and the words for every cell.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from attnlab import lesson, words
from attnlab.edits import Edits
from attnlab.narration import Beat, asymmetric_pair, narrate
from attnlab.positions import PositionKind
from attnlab.saturation import Saturation, saturation
from attnlab.shuffle import ShuffleCheck, shuffle_check
from attnlab.trace import Trace, encode_array
from attnlab.types import Axis, Mode

JACOBIAN_AT_MOST = 16
"""Beyond this many keys the focus row's Jacobian matrix is left out of the JSON (sizes stay)."""


@dataclass(frozen=True)
class Explanation:
    """A single-head trace walked for query row `focus`; `runs` and `shuffle` for the lesson."""

    trace: Trace
    focus: int
    beats: tuple[Beat, ...]
    saturation: Saturation | None = None
    runs: tuple[lesson.LessonRun, ...] = ()  # the toy's heads (the first is `trace`)
    shuffle: ShuffleCheck | None = None
    edits: Edits | None = None
    right_axis: Trace | None = None  # the same run with the softmax across the keys

    @classmethod
    def of(cls, trace: Trace, focus: int) -> Explanation:
        """Narrate `trace` for row `focus`."""
        return cls(
            trace=trace,
            focus=focus,
            beats=narrate(trace, focus),
            saturation=saturation(trace, focus),
        )

    def to_dict(self) -> dict[str, Any]:
        """The trace's JSON form plus `focus`, `focus_token`, `pair`, `narration` and the lab's
        keys: `saturation`, `readings`, and for the lesson `causal`, `positions`, `heads`,
        `concat_outputs`, `heads_note`, `edits`, `shuffle` (null unless asked for), `predict`
        and `wrong_axis` (null unless the softmax ran across the queries)."""
        t, f = self.trace, self.focus
        out = t.to_dict()
        out["focus"] = f
        out["focus_token"] = t.tokens[f]
        out["pair"] = list(asymmetric_pair(t, f))
        out["narration"] = [b.to_dict() for b in self.beats]
        if self.saturation is not None:
            out["saturation"] = _saturation_dict(t, self.saturation)
        if t.n <= lesson.MAX_TOKENS:
            m = t.weights.shape[-1]
            out["readings"] = [
                [words.read_cell(t, i, j).to_dict() for j in range(m)] for i in range(t.n)
            ]
        if self.runs:
            out.update(_lesson_dict(self))
        return out


def _saturation_dict(t: Trace, sat: Saturation) -> dict[str, Any]:
    d = sat.to_dict()
    if t.weights.shape[-1] > JACOBIAN_AT_MOST:
        d["jacobian"] = None
    f = sat.focus
    if sat.per == "row":
        d["note"] = words.saturation_note(
            t.tokens[f], float(sat.entropy_bits[f]), float(sat.max_entropy_bits[f]),
            float(sat.max_weight[f]), sat.jacobian_frobenius,
        )  # fmt: skip
    else:
        d["note"] = None
    return d


def _lesson_dict(ex: Explanation) -> dict[str, Any]:
    first, f = ex.runs[0], ex.focus
    who = first.trace.tokens[f]
    mask = first.trace.mask
    hidden = [first.trace.columns[j] for j in np.flatnonzero(~mask[f])] if mask is not None else []
    heads = []
    for r in ex.runs:
        d = r.trace.to_dict()
        d["name"] = r.head.name
        d["blurb"] = words.HEAD_BLURBS[r.head.name]
        d["narration"] = [b.to_dict() for b in narrate(r.trace, f)]
        heads.append(d)
    favourites = [r.trace.columns[int(np.argmax(r.trace.weights[f]))] for r in ex.runs]
    concat = lesson.concat_outputs(ex.runs)  # (n, 4·heads)
    return {
        "causal": first.causal,
        "causal_note": words.causal_note(who, hidden) if first.causal else None,
        "positions": {
            "kind": first.positions,
            "note": words.POSITION_NOTES[first.positions].format(
                scale=lesson.SINUSOIDAL_SCALE, speed=lesson.ROPE_SPEED
            ),
            "sinusoidal_scale": lesson.SINUSOIDAL_SCALE,
            "rope_speed": lesson.ROPE_SPEED,
            "word_embeddings": encode_array(first.word_embeddings),
            "encodings": encode_array(first.encodings) if first.encodings is not None else None,
            "rope": first.rotary.to_dict() if first.rotary is not None else None,
        },
        "heads": heads,
        "concat_outputs": encode_array(concat),
        "heads_note": (
            words.heads_note(who, [r.head.name for r in ex.runs], favourites, concat[f].tolist())
            if len(ex.runs) > 1
            else None
        ),
        "edits": (ex.edits or Edits()).to_dict(),
        "shuffle": _shuffle_dict(ex.shuffle) if ex.shuffle is not None else None,
        "predict": _predict_dict(first.trace, f),
        "wrong_axis": _wrong_axis_dict(first.trace, ex.right_axis, f),
    }


def _predict_dict(t: Trace, f: int) -> dict[str, Any]:
    """The favourite key of the focus row, and what to say for each possible guess."""
    w = t.weights[f]
    answer = int(np.argmax(w))
    notes = [
        words.prediction_note(
            t.tokens[f], t.columns[j], t.columns[answer], float(w[j]), float(w[answer])
        )
        for j in range(w.shape[0])
    ]
    return {"answer": answer, "answer_token": t.columns[answer], "notes": notes}


def _wrong_axis_dict(t: Trace, right: Trace | None, f: int) -> dict[str, Any] | None:
    if right is None:
        return None
    moved = np.linalg.norm(t.outputs - right.outputs, axis=-1)  # (n,)
    return {
        "right_weights": encode_array(right.weights),
        "right_outputs": encode_array(right.outputs),
        "moved": encode_array(moved),
        "note": words.wrong_axis_note(
            t.tokens[f], t.outputs[f].tolist(), right.outputs[f].tolist(),
            float(t.weights[f].sum()), float(moved[f]),
        ),
    }  # fmt: skip


def _shuffle_dict(c: ShuffleCheck) -> dict[str, Any]:
    d = c.to_dict()
    d["note"] = words.shuffle_note(
        c.positions, c.tokens, c.shuffled_tokens, [float(x) for x in c.distances]
    )
    return d


def explain_lesson(
    sentence: str = lesson.DEFAULT_SENTENCE,
    *,
    focus: str | int | None = None,
    mode: Mode = "scaled",
    axis: Axis = "keys",
    mask: npt.ArrayLike | None = None,
    temperature: float | None = None,
    positions: PositionKind = "none",
    causal: bool = False,
    edits: Edits | None = None,
    heads: int = 1,
    shuffle: int | None = None,
) -> Explanation:
    """The toy head's explanation of `sentence`, following `focus` (default: its ambiguous word).

    `heads=2` adds the structure head (its trace and narration under "heads"); `shuffle=seed`
    adds a shuffle check of the same options.
    """
    if heads not in (1, 2):
        from attnlab.errors import UnknownModeError

        raise UnknownModeError(f"the toy has 1 or 2 heads, got heads={heads!r}")
    options: dict[str, Any] = {
        "mode": mode, "axis": axis, "mask": mask, "temperature": temperature,
        "positions": positions, "causal": causal, "edits": edits,
    }  # fmt: skip
    runs = tuple(lesson.compute(sentence, head=h, **options) for h in range(heads))
    trace = runs[0].trace
    f = lesson.focus_index(trace.tokens, focus)
    extras = words.beat_extras(
        positions=positions, scale=lesson.SINUSOIDAL_SCALE, speed=lesson.ROPE_SPEED
    )
    right = None
    if axis == "queries":
        right = lesson.compute(sentence, **{**options, "axis": "keys"}).trace
    check = None
    if shuffle is not None:
        del options["mask"]
        check = shuffle_check(sentence, seed=shuffle, **options)
    return Explanation(
        trace=trace,
        focus=f,
        beats=narrate(trace, f, extras=extras),
        saturation=saturation(trace, f),
        runs=runs,
        shuffle=check,
        edits=edits,
        right_axis=right,
    )
