"""The head view's answer (encode/model_views_json.py): the toy lesson's heads in the model's
form, every key of every row, strongest first, the packed numbers the core's weights."""

import numpy as np

from attnlab.core.attention import attend
from attnlab.encode.model_views_json import encode_lesson_heads
from attnlab.encode.packed import unpack


def test_the_lessons_heads_are_sent_whole_in_the_models_form() -> None:
    rng = np.random.default_rng(1)
    tokens = ["by", "the", "river", "bank"]
    traces = tuple(attend(*rng.normal(size=(3, 4, 4)), tokens=tokens) for _ in range(2))
    a = encode_lesson_heads(traces, "toy")
    assert (a.source, a.n_heads, a.n_layers, a.top, a.floor, a.note) == ("lesson", 2, 1, 4, 0, "")
    keys = unpack(a.heads.keys.model_dump()).astype(int)  # (2, 4, 4)
    weights = unpack(a.heads.weights.model_dump())
    for h, t in enumerate(traces):
        dense = np.zeros((4, 4))
        np.put_along_axis(dense, keys[h], weights[h], axis=-1)
        assert np.allclose(dense, t.weights, atol=1e-5)
        assert (np.diff(weights[h], axis=-1) <= 0).all()
    assert np.allclose(a.heads.share, 1.0)
    assert a.mean_layers == a.mean_heads and a.mean_heads is not None
