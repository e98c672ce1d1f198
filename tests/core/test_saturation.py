"""Saturation: entropy, largest weight, the focus row's Jacobian, and the temperature sweep."""

import math

import numpy as np
import pytest

from attnlab import attend, causal_mask, lesson
from attnlab.core.saturation import jacobian_size, saturation, sweep, temperatures
from attnlab.errors import FocusError, TemperatureError
from attnlab.lesson.options import LessonOptions

RIVER = "by the river bank"


def test_lesson_rows_entropy_largest_weight_and_sums() -> None:
    sat = saturation(lesson.run(RIVER), 3)
    assert sat.per == "row"
    assert round(float(sat.max_weight[3]), 2) == 0.69
    assert np.allclose(sat.row_sums, 1) and np.allclose(sat.max_entropy_bits, 2)
    assert (sat.entropy_bits > 0).all() and (sat.entropy_bits <= 2 + 1e-12).all()
    assert sat.entropy_bits[1] == pytest.approx(2)  # "the" asks for nothing: a uniform row
    assert sat.jacobian is not None and sat.jacobian.shape == (4, 4)
    assert sat.jacobian_frobenius == pytest.approx(np.linalg.norm(sat.jacobian))


def test_wrong_axis_reports_columns() -> None:
    sat = saturation(lesson.run(RIVER, LessonOptions(axis="queries")), 3)
    assert sat.per == "column" and np.allclose(sat.column_sums, 1)
    assert not np.allclose(sat.row_sums, 1) and sat.jacobian is None


def test_masked_rows_have_a_smaller_ceiling() -> None:
    x = np.eye(4)
    sat = saturation(attend(x, x, x, mask=causal_mask(4)), 0)
    assert sat.max_entropy_bits.tolist() == [0, 1, math.log2(3), 2]
    assert sat.entropy_bits[0] == 0 and sat.jacobian_frobenius == 0


def test_jacobian_size_one_hot_and_uniform() -> None:
    assert jacobian_size(np.array([0.0, 1.0, 0.0])) == (0.0, 0.0)
    frob, biggest = jacobian_size(np.full(4, 0.25))
    assert biggest == pytest.approx(0.25 - 0.0625) and frob > 0


def test_temperatures_are_log_spaced_from_a_tenth_to_ten() -> None:
    t = temperatures()
    assert t[0] == pytest.approx(0.1) and t[-1] == pytest.approx(10)
    assert np.allclose(np.diff(np.log(t)), np.log(t[1] / t[0]))
    with pytest.raises(TemperatureError, match="lo=0"):
        temperatures(0, 10)


def test_sweep_saturates_as_temperature_drops() -> None:
    s = sweep(lesson.run(RIVER), 3)
    assert s.weights.shape == (len(s.temperatures), 4) and np.allclose(s.weights.sum(1), 1)
    # colder: sharper (less entropy), and less gradient through the softmax
    assert (np.diff(s.entropy_bits) > 0).all()
    assert (np.diff(s.jacobian_frobenius) > 0).all()
    assert s.weights[0, 2] > 0.99 and s.jacobian_max_abs[0] < 0.01  # T = 0.1: a hard lookup
    assert s.entropy_bits[-1] > 1.9 and s.max_entropy_bits == 2  # T = 10: nearly uniform
    assert s.sqrt_d_k == 2


def test_sweep_at_sqrt_dk_is_the_scaled_row() -> None:
    t = lesson.run(RIVER)
    s = sweep(t, 3, ts=np.array([2.0, 1.0]))
    assert np.allclose(s.weights[0], t.weights[3])
    assert np.allclose(s.weights[1], lesson.run(RIVER, LessonOptions(mode="unscaled")).weights[3])


def test_sweep_keeps_the_mask_and_rejects_a_bad_focus() -> None:
    x = np.eye(3)
    s = sweep(attend(x, x, x, mask=causal_mask(3)), 1)
    assert (s.weights[:, 2] == 0).all() and s.max_entropy_bits == 1
    with pytest.raises(FocusError, match="5"):
        sweep(attend(x, x, x), 5)


@pytest.mark.parametrize("seed", range(6))
def test_the_jacobian_sizes_without_the_matrix_match_the_matrix(seed) -> None:
    """jacobian_size reads ‖J‖ and max |J| off the row (closed forms): they must equal the
    numbers of the (m, m) matrix itself, for peaked, flat, one-hot and two-key rows."""
    from attnlab.core.softmax import jacobian, softmax

    rng = np.random.default_rng(seed)
    m = [1, 2, 5, 64, 300, 2048][seed]
    w = softmax(rng.normal(scale=[0.1, 3, 10][seed % 3], size=m))
    j = jacobian(w)
    frob, biggest = jacobian_size(w)
    assert frob == pytest.approx(float(np.linalg.norm(j)), rel=1e-9, abs=1e-15)
    assert biggest == pytest.approx(float(np.max(np.abs(j))), rel=1e-12, abs=1e-15)


def test_a_long_heads_saturation_copies_no_n_by_n_array_until_a_row_measure_is_read() -> None:
    # a real model's head at 2,048 tokens shows its focus row's entropy alone: saturation() made
    # a float64 copy and an entropy of every row (two n × n float64 arrays) on every head switch
    import tracemalloc

    n = 1024
    q = np.random.default_rng(0).normal(size=(n, 16)).astype(np.float32)
    t = attend(q, q, q, mask=causal_mask(n))
    tracemalloc.start()
    try:
        sat = saturation(t, n - 1)
        focus_bits = sat.focus_entropy_bits
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < n * n  # bytes: well under one float32 n × n matrix (4 n² bytes)
    assert focus_bits == sat.entropy_bits[n - 1]  # the same number the whole-matrix pass gives
    assert sat.entropy_bits.shape == (n,) and sat.max_entropy_bits[0] == 0
