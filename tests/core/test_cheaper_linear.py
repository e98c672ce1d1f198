"""Linear attention (elu + 1) against the softmax: an approximation, measured."""

from __future__ import annotations

import numpy as np

from attnlab.core.attention import attend
from attnlab.core.linear_attention import (
    compare_linear,
    elu_plus_one,
    linear_attend,
    linear_outputs,
    sharpening,
)
from attnlab.lesson.explain import explain_lesson


def test_feature_map_is_elu_plus_one() -> None:
    np.testing.assert_allclose(elu_plus_one([-1.0, 0.0, 2.0]), [np.exp(-1), 1.0, 3.0])


def test_the_fast_outputs_are_the_rows_times_the_values() -> None:
    rng = np.random.default_rng(1)
    q, k, v = rng.normal(size=(3, 7, 4))
    for causal in (False, True):
        w, out = linear_attend(q, k, v, causal=causal)
        np.testing.assert_allclose(w.sum(-1), 1, atol=1e-12)
        np.testing.assert_allclose(out, w @ v, atol=1e-12)
        if causal:
            assert np.all(np.triu(w, 1) == 0)
        else:
            np.testing.assert_allclose(linear_outputs(q, k, v), out, atol=1e-12)


def test_the_toy_row_is_blurred() -> None:
    t = explain_lesson("by the river bank", focus="bank").trace
    c = compare_linear(t.queries, t.keys, t.values)
    np.testing.assert_allclose(c.exact, t.weights, atol=1e-15)
    assert c.linear[3].argmax() == 2  # river still first
    assert c.linear[3, 2] < 0.4 < 0.68 < c.exact[3, 2]  # but with half the weight
    assert c.entropy_linear > c.entropy_exact
    assert 0 < c.mean_abs < c.max_abs


def test_sharpening_a_query_makes_the_softmax_a_lookup_and_not_the_linear_row() -> None:
    t = explain_lesson("by the river bank", focus="bank").trace
    soft, lin = sharpening(t.queries[3], t.keys, [1, 10, 100, 1000])
    assert soft[-1] > 0.999999 and np.all(np.diff(soft) >= 0)
    assert lin[-1] < 0.4  # bounded far from 1: the ratios of dot products stay finite
    exact = attend(100 * t.queries[3:4], t.keys, t.values).weights[0]
    assert exact.max() == soft[2]
