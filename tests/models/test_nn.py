"""LayerNorm and exact GELU: erf against math.erf, LayerNorm's defining properties."""

import math

import numpy as np
import pytest

from attnlab.models.nn import erf, gelu, layer_norm

Z = np.linspace(-7.0, 7.0, 20001)
EXACT = np.array([math.erf(z) for z in Z])


def test_erf_float64_within_1e_7() -> None:
    assert np.abs(erf(Z) - EXACT).max() < 1e-7


def test_erf_float32_within_a_few_ulps_and_stays_float32() -> None:
    got = erf(Z.astype(np.float32))
    assert got.dtype == np.float32
    assert np.abs(got.astype(np.float64) - EXACT).max() < 5e-7


def test_erf_is_odd_and_saturates() -> None:
    assert np.array_equal(erf(-Z), -erf(Z))
    assert erf(np.array([0.0]))[0] == 0.0
    assert erf(np.array([np.inf, -np.inf, 30.0])).tolist() == pytest.approx([1, -1, 1])


def test_gelu_is_x_times_the_normal_cdf() -> None:
    exact = np.array([x * 0.5 * (1 + math.erf(x / math.sqrt(2))) for x in Z])
    assert np.abs(gelu(Z) - exact).max() < 1e-6
    assert gelu(np.zeros(3)).tolist() == [0, 0, 0]


def test_gelu_does_not_touch_its_input() -> None:
    x = np.array([-1.0, 0.5, 2.0], dtype=np.float32)
    before = x.copy()
    gelu(x)
    assert np.array_equal(x, before)


def test_layer_norm_gives_mean_0_variance_1_then_scales_and_shifts() -> None:
    x = np.random.default_rng(0).normal(3, 5, size=(4, 16))
    y = layer_norm(x, np.ones(16), np.zeros(16), eps=1e-12)
    assert np.allclose(y.mean(axis=-1), 0) and np.allclose(y.var(axis=-1), 1)
    z = layer_norm(x, np.full(16, 2.0), np.full(16, 0.5), eps=1e-12)
    assert np.allclose(z, 2 * y + 0.5)


def test_gelu_in_place_with_scratch_matches_the_plain_call() -> None:
    x = np.random.default_rng(1).normal(0, 3, size=(5, 7)).astype(np.float32)
    expected = gelu(x)
    work = tuple(np.full_like(x, np.nan) for _ in range(4))
    y = x.copy()
    assert gelu(y, out=y, work=work) is y  # type: ignore[arg-type]
    assert np.array_equal(y, expected)
