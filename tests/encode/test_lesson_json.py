"""The lesson's JSON (encode/lesson_json.py): the seed's keys unchanged, plus every key the
lab's controls need."""

import json

import pytest

from attnlab import lesson
from attnlab.encode.lesson_json import encode_lesson
from attnlab.encode.trace_json import encode_explanation
from attnlab.lesson.edits import Edits
from attnlab.lesson.explain import explain_lesson
from attnlab.lesson.options import LessonOptions
from attnlab.words.explanation import Explanation

SEED_KEYS = {
    "tokens", "mode", "axis", "d_k", "divisor", "dim_names", "key_tokens", "mask", "embeddings",
    "queries", "keys", "values", "raw_scores", "scores", "weights", "outputs", "focus",
    "focus_token", "pair", "narration",
}  # fmt: skip
LAB_KEYS = {
    "temperature", "saturation", "captions", "readings", "causal", "causal_note", "positions",
    "heads", "concat_outputs", "heads_note", "edits", "shuffle", "predict", "wrong_axis",
    "one_projection",
}  # fmt: skip


def test_default_keeps_the_seed_keys_and_adds_the_labs() -> None:
    d = encode_lesson(explain_lesson())
    assert set(d) == SEED_KEYS | LAB_KEYS
    assert [round(w, 2) for w in d["weights"][3]] == [0.11, 0.07, 0.69, 0.14]
    assert d["shuffle"] is None and d["heads_note"] is None and len(d["heads"]) == 1
    assert d["positions"]["kind"] == "none" and d["positions"]["rope"] is None
    json.dumps(d, allow_nan=False)


def test_saturation_block() -> None:
    s = encode_lesson(explain_lesson())["saturation"]
    assert (
        s["per"] == "row" and len(s["entropy_bits"]) == 4 and round(s["max_weight"][3], 2) == 0.69
    )
    assert len(s["jacobian"]) == 4 and s["jacobian_frobenius"] > 0 and "bits" in s["note"]


def test_everything_at_once_is_strict_json() -> None:
    options = LessonOptions(
        heads=2, positions="rope", causal=True, temperature=0.5, shuffle=3,
        edits=Edits.parse({"embeddings": ["savings=0,2,0,0"]}),
    )  # fmt: skip
    ex = explain_lesson("at the savings bank", options)
    d = json.loads(json.dumps(encode_lesson(ex), allow_nan=False))
    assert d["temperature"] == 0.5 and d["divisor"] == 0.5 and d["causal"] is True
    assert [h["name"] for h in d["heads"]] == ["meaning", "structure"]
    assert len(d["concat_outputs"][0]) == 8 and "8" in d["heads_note"]
    assert len(d["positions"]["rope"]["angles"]) == 4 and d["positions"]["encodings"] is None
    assert d["shuffle"]["positions"] == "rope" and d["shuffle"]["rows"][0]["token"] == "at"
    assert d["edits"]["embeddings"] == {"savings": [0.0, 2.0, 0.0, 0.0]}
    assert d["mask"][0] == [True, False, False, False] and "hides" in d["causal_note"]
    assert len(d["readings"]) == 4 and "masked" in d["readings"][0][3]["text"]
    assert "T = 0.5" in d["narration"][2]["text"]


def test_sinusoidal_block_and_wrong_axis_sums() -> None:
    d = encode_lesson(
        explain_lesson(
            lesson.DEFAULT_SENTENCE, LessonOptions(positions="sinusoidal", axis="queries")
        )
    )
    assert d["positions"]["encodings"][0] == [0, 0.25, 0, 0.25]
    assert d["saturation"]["per"] == "column" and d["saturation"]["jacobian"] is None
    assert all(abs(s - 1) < 1e-9 for s in d["saturation"]["column_sums"])
    assert "sinusoidal" in d["narration"][0]["text"]


def test_heads_are_one_or_two() -> None:
    with pytest.raises(Exception, match="heads=3"):
        explain_lesson(lesson.DEFAULT_SENTENCE, LessonOptions(heads=3))


def test_of_any_trace_has_saturation_but_no_lesson_keys() -> None:
    d = encode_explanation(Explanation.of(lesson.run(), 3))
    assert "saturation" in d and "heads" not in d


def test_predict_then_reveal() -> None:
    p = encode_lesson(explain_lesson())["predict"]
    assert p["answer"] == 2 and p["answer_token"] == "river" and len(p["notes"]) == 4
    assert p["notes"][2].startswith("Right") and "69%" in p["notes"][0]


def test_wrong_axis_block_compares_with_the_right_axis() -> None:
    d = encode_lesson(explain_lesson(lesson.DEFAULT_SENTENCE, LessonOptions(axis="queries")))
    w = d["wrong_axis"]
    assert [round(x, 2) for x in w["right_outputs"][3]] == [1.43, 0.06, 0.14, 0]
    assert w["moved"][3] > 0.1 and "[1.43, 0.06, 0.14, 0]" in w["note"] and "not 1" in w["note"]
    assert encode_lesson(explain_lesson())["wrong_axis"] is None


def test_each_heads_narration_matches_the_top_level_one_with_positions() -> None:
    # the bug: /api/lesson's heads[0].narration lacked what positions add to the beats
    d = encode_lesson(explain_lesson(lesson.DEFAULT_SENTENCE, LessonOptions(positions="rope")))
    assert d["heads"][0]["narration"] == d["narration"]
    assert "RoPE" in d["narration"][1]["text"]


def test_captions_ride_with_the_trace() -> None:
    d = encode_lesson(explain_lesson(lesson.DEFAULT_SENTENCE, LessonOptions(temperature=0.5)))
    assert d["captions"]["divisor"] == "0.5"
    assert d["captions"]["beats"]["parallel"]["heading"].endswith("T = 0.5")
    assert set(d["captions"]["beats"]) == {b["key"] for b in d["narration"]}


def test_the_lesson_is_built_as_its_declared_answer_and_the_route_sends_it() -> None:
    """The route and the file hosts carry one answer: the dict is the built model, dumped."""
    from fastapi.testclient import TestClient

    from attnlab.encode.answers_lesson import LessonAnswer
    from attnlab.encode.lesson_json import lesson_answer
    from attnlab.web.app import create_app

    ex = explain_lesson(lesson.DEFAULT_SENTENCE, LessonOptions(positions="rope", heads=2))
    assert isinstance(lesson_answer(ex), LessonAnswer)
    client = TestClient(create_app(), base_url="http://127.0.0.1")
    with client:
        sent = client.get("/api/lesson", params={"positions": "rope", "heads": 2}).json()
    assert sent == encode_lesson(ex)
