"""The Trace's JSON form (encode/): non-finite numbers named, and a lossless round trip."""

import json
import math

import numpy as np

from attnlab import attend, causal_mask, lesson
from attnlab.encode.arrays import decode_number, encode_number
from attnlab.encode.trace_json import decode_trace, encode_trace


def test_encode_names_non_finite_numbers() -> None:
    assert [encode_number(x) for x in (1.5, math.inf, -math.inf)] == [1.5, "inf", "-inf"]
    assert encode_number(math.nan) == "nan"
    assert math.isnan(decode_number("nan")) and decode_number("-inf") == -math.inf


def test_masked_trace_is_strict_json_and_round_trips() -> None:
    x = np.arange(6.0).reshape(3, 2)
    t = attend(x, x, x, mask=causal_mask(3), mode="uniform")
    text = json.dumps(encode_trace(t), allow_nan=False)  # raises if a bare inf/NaN slipped through
    back = decode_trace(json.loads(text))
    assert back.scores[0, 2] == -math.inf and math.isinf(back.divisor)
    for name in ("queries", "keys", "values", "raw_scores", "scores", "weights", "outputs"):
        assert np.array_equal(getattr(back, name), getattr(t, name)), name
    assert np.array_equal(back.mask, t.mask)


def test_lesson_json_keys_and_rows() -> None:
    d = encode_trace(lesson.run("by the river bank"))
    for key in ("tokens", "mode", "d_k", "embeddings", "queries", "keys", "values",
                "raw_scores", "scores", "weights", "outputs", "dim_names"):  # fmt: skip
        assert key in d, key
    assert len(d["weights"]) == 4 and all(len(row) == 4 for row in d["weights"])
    assert d["dim_names"] == list(lesson.DIM_NAMES)
