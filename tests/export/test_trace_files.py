"""JSON exports: a lesson is /api/lesson's answer; a model file decodes back to every head."""

from __future__ import annotations

import json

import numpy as np

from attnlab import explain_lesson
from attnlab.encode.cheaper_json import encode_cheaper
from attnlab.encode.lesson_json import encode_lesson
from attnlab.encode.trace_json import decode_trace
from attnlab.export.trace_files import lesson_json, model_trace_json
from attnlab.lesson.cheaper_lab import cheaper_lab


def test_lesson_json_is_the_api_answer_and_round_trips() -> None:
    ex = explain_lesson("by the river bank", focus="bank")
    data = json.loads(json.dumps(lesson_json(ex)))
    cheaper = data.pop("cheaper")
    assert data == json.loads(json.dumps(encode_lesson(ex)))
    want = encode_cheaper(cheaper_lab("by the river bank", focus="bank")).model_dump(mode="json")
    assert cheaper == json.loads(json.dumps(want)) and cheaper["tile"] == 2
    back = decode_trace(data)
    for name in ("queries", "keys", "values", "raw_scores", "scores", "weights", "outputs"):
        assert np.array_equal(getattr(back, name), getattr(ex.trace, name)), name


def test_lesson_json_carries_the_cheaper_section_of_its_own_options() -> None:
    """Issue 26: the JSON export carried nothing from the Cheaper section."""
    from attnlab.lesson.options import LessonOptions

    ex = explain_lesson("at the savings bank", LessonOptions(mode="uniform", causal=True))
    cheaper = lesson_json(ex)["cheaper"]
    np.testing.assert_allclose(cheaper["online"]["exact_weights"], ex.trace.weights[ex.focus])
    assert cheaper["online"]["badge"]["kind"] == "exact"


def test_model_json_decodes_to_every_head(minilm_trace) -> None:
    mt = minilm_trace
    data = json.loads(json.dumps(model_trace_json(mt)))
    assert data["tokens"] == list(mt.tokens) and data["model"] == mt.model
    assert len(data["layers"]) == mt.n_layers
    assert np.array_equal(np.array(data["hidden_states"]), mt.hidden_states)
    for layer in (0, mt.n_layers - 1):
        for head in (0, mt.n_heads - 1):
            back = decode_trace(data["layers"][layer]["heads"][head])
            want = mt.head(layer, head)
            assert np.array_equal(back.weights, want.weights)
            assert np.array_equal(back.raw_scores, want.raw_scores)
