"""attend_backward against central finite differences in float64, every input and the divisor."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from attnlab.core.attention import attend, causal_mask
from attnlab.errors import ShapeError
from attnlab.train.grad import attend_backward, softmax_backward
from attnlab.types import FloatArray

H = 1e-6


def numeric(f: Callable[[FloatArray], float], x: FloatArray) -> FloatArray:
    """Central differences of f at x, one entry at a time."""
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += H
        down[i] -= H
        g[i] = (f(up) - f(down)) / (2 * H)
    return g


def close(a: FloatArray, b: FloatArray) -> bool:
    return bool(np.max(np.abs(a - b)) <= 1e-6 * max(1.0, float(np.max(np.abs(b)))))


CASES = [
    dict(mode="scaled"),
    dict(mode="unscaled"),
    dict(mode="scaled", temperature=0.7),
    dict(mode="scaled", mask=causal_mask(5)),
]


@pytest.mark.parametrize("opts", CASES, ids=["scaled", "unscaled", "T=0.7", "causal"])
def test_every_input_matches_finite_differences(opts: dict[str, object]) -> None:
    rng = np.random.default_rng(1)
    q, k, v = rng.normal(size=(3, 2, 5, 4))  # two heads, five tokens, d_k = 4
    d_o = rng.normal(size=(2, 5, 4))

    def loss(q_: FloatArray, k_: FloatArray, v_: FloatArray) -> float:
        return float(np.sum(attend(q_, k_, v_, **opts).outputs * d_o))  # type: ignore[arg-type]

    g = attend_backward(attend(q, k, v, **opts), d_o)  # type: ignore[arg-type]
    assert close(g.d_queries, numeric(lambda x: loss(x, k, v), q))
    assert close(g.d_keys, numeric(lambda x: loss(q, x, v), k))
    assert close(g.d_values, numeric(lambda x: loss(q, k, x), v))


def test_the_divisor_matches_finite_differences() -> None:
    rng = np.random.default_rng(2)
    q, k, v = rng.normal(size=(3, 6, 8))
    d_o = rng.normal(size=(6, 8))

    def loss(t: float) -> float:
        return float(np.sum(attend(q, k, v, temperature=t, mask=causal_mask(6)).outputs * d_o))

    g = attend_backward(attend(q, k, v, temperature=1.3, mask=causal_mask(6)), d_o)
    want = (loss(1.3 + H) - loss(1.3 - H)) / (2 * H)
    assert abs(g.d_divisor - want) <= 1e-6 * max(1.0, abs(want))


def test_uniform_passes_no_gradient_to_queries_and_keys() -> None:
    rng = np.random.default_rng(3)
    q, k, v = rng.normal(size=(3, 4, 4))
    g = attend_backward(attend(q, k, v, mode="uniform"), np.ones((4, 4)))
    assert not g.d_queries.any() and not g.d_keys.any()
    assert np.allclose(g.d_values, np.full((4, 4), 1.0))  # each value weighs 1/4 in four rows


def test_a_saturated_row_passes_almost_nothing_back() -> None:
    a = np.array([[1 - 2e-9, 1e-9, 1e-9], [0.4, 0.3, 0.3]])
    d_s = softmax_backward(a, np.array([[0.0, 5.0, -5.0], [0.0, 5.0, -5.0]]))
    assert np.abs(d_s[0]).max() < 1e-8 < np.abs(d_s[1]).max()


def test_a_gradient_of_the_wrong_shape_is_named() -> None:
    t = attend(np.ones((3, 2)), np.ones((3, 2)), np.ones((3, 2)))
    with pytest.raises(ShapeError, match=r"dL/dO has shape \(2, 2\)"):
        attend_backward(t, np.ones((2, 2)))
