"""The core: attend's modes, masks, heads, errors, and properties that hold for any input."""

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attnlab import attend, causal_mask, merge_heads, self_attend, split_heads
from attnlab.core.softmax import entropy_bits
from attnlab.core.trace import Trace
from attnlab.errors import (
    EmptySequenceError,
    MaskError,
    NonFiniteError,
    ShapeError,
    TemperatureError,
    UnknownModeError,
)

MODES = ("scaled", "unscaled", "uniform")
finite = st.floats(-10, 10, allow_nan=False, width=64)


@st.composite
def qkv(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n = draw(st.integers(1, 7))
    d = draw(st.integers(1, 6))
    q = draw(arrays(np.float64, (n, d), elements=finite))
    k = draw(arrays(np.float64, (n, d), elements=finite))
    v = draw(arrays(np.float64, (n, d), elements=finite))
    return q, k, v


@settings(max_examples=60, deadline=None)
@given(qkv(), st.sampled_from(MODES))
def test_rows_sum_to_one_in_every_mode(x: tuple, mode: str) -> None:
    t = attend(*x, mode=mode)
    assert np.allclose(t.weights.sum(axis=-1), 1.0)
    assert (t.weights >= 0).all()


@settings(max_examples=60, deadline=None)
@given(qkv(), st.randoms(use_true_random=False), st.sampled_from(MODES))
def test_permuting_tokens_permutes_outputs(x: tuple, rnd, mode: str) -> None:
    q, k, v = x
    perm = list(range(q.shape[0]))
    rnd.shuffle(perm)
    t, tp = attend(q, k, v, mode=mode), attend(q[perm], k[perm], v[perm], mode=mode)
    assert np.allclose(tp.outputs, t.outputs[perm], atol=1e-9)
    assert np.allclose(tp.weights, t.weights[np.ix_(perm, perm)], atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(qkv())
def test_uniform_outputs_are_the_mean_of_values(x: tuple) -> None:
    t = attend(*x, mode="uniform")
    assert np.allclose(t.outputs, np.broadcast_to(x[2].mean(axis=0), t.outputs.shape))


@settings(max_examples=60, deadline=None)
@given(qkv())
def test_unscaled_never_flatter_than_scaled_when_dk_above_one(x: tuple) -> None:
    q, k, v = x
    if q.shape[1] < 2:  # √1 = 1: both modes are the same computation
        q, k = np.hstack([q, q]), np.hstack([k, k])
    scaled, unscaled = attend(q, k, v, mode="scaled"), attend(q, k, v, mode="unscaled")
    assert (entropy_bits(unscaled.weights) <= entropy_bits(scaled.weights) + 1e-9).all()


@settings(max_examples=40, deadline=None)
@given(qkv(), st.data())
def test_masked_keys_get_zero_weight(x: tuple, data: st.DataObject) -> None:
    n = x[0].shape[0]
    mask = data.draw(arrays(np.bool_, (n, n)))
    mask[np.arange(n), data.draw(st.integers(0, n - 1))] = True  # every row keeps one key
    for mode in MODES:
        t = attend(*x, mode=mode, mask=mask)
        assert (t.weights[~mask] == 0).all()
        assert np.allclose(t.weights.sum(axis=-1), 1.0)


def test_huge_scores_stay_finite() -> None:
    q = np.array([[1e4, 0.0], [0.0, -1e4]])
    t = attend(q, q, q)
    assert np.isfinite(t.weights).all() and np.isfinite(t.outputs).all()
    assert np.allclose(t.weights.sum(-1), 1)


def test_uniform_over_unmasked_keys() -> None:
    x = np.arange(12.0).reshape(4, 3)
    t = attend(x, x, x, mode="uniform", mask=causal_mask(4))
    assert np.allclose(t.weights[2], [1 / 3, 1 / 3, 1 / 3, 0])
    assert np.isneginf(t.scores[0, 1])


def test_causal_mask_rows_and_upper_triangle() -> None:
    rng = np.random.default_rng(0)
    q, k, v = rng.normal(size=(3, 5, 4))
    t = attend(q, k, v, mask=causal_mask(5))
    assert (np.triu(t.weights, 1) == 0).all()
    assert np.allclose(t.weights.sum(-1), 1)
    assert t.weights[0, 0] == 1.0


def test_wrong_axis_makes_columns_sum_to_one() -> None:
    rng = np.random.default_rng(1)
    q, k, v = rng.normal(size=(3, 4, 4))
    t = attend(q, k, v, axis="queries")
    assert np.allclose(t.weights.sum(axis=0), 1)
    assert not np.allclose(t.weights.sum(axis=1), 1)


def test_float32_stays_float32_and_float64_stays_float64() -> None:
    x32 = np.ones((3, 2), dtype=np.float32)
    assert attend(x32, x32, x32).weights.dtype == np.float32
    assert attend(x32.astype(np.float64), x32, x32).weights.dtype == np.float64


def test_many_heads_equal_one_head_at_a_time() -> None:
    rng = np.random.default_rng(2)
    x = rng.normal(size=(5, 12))  # (n, d_model)
    heads = split_heads(x, 3)  # (3, 5, 4)
    assert heads.shape == (3, 5, 4)
    t = attend(heads, heads, heads)
    for h in range(3):
        one = attend(heads[h], heads[h], heads[h])
        assert np.allclose(t.weights[h], one.weights)
        assert np.allclose(t.outputs[h], one.outputs)
    assert np.array_equal(merge_heads(heads), x)
    assert merge_heads(t.outputs).shape == (5, 12)


def test_trace_is_frozen() -> None:
    t = attend(np.eye(2), np.eye(2), np.eye(2))
    with pytest.raises(ValueError, match="read-only"):
        t.weights[0, 0] = 5.0
    with pytest.raises(AttributeError):
        t.mode = "uniform"  # type: ignore[misc]


def test_divisor_per_mode() -> None:
    x = np.ones((2, 9))
    assert attend(x, x, x).divisor == 3.0
    assert attend(x, x, x, mode="unscaled").divisor == 1.0
    assert math.isinf(attend(x, x, x, mode="uniform").divisor)


@pytest.mark.parametrize(
    ("q", "k", "v", "error", "message"),
    [
        (np.ones((2, 3)), np.ones((2, 4)), np.ones((2, 4)), ShapeError, "got 3 and 4"),
        (np.ones((2, 3)), np.ones((3, 3)), np.ones((2, 3)), ShapeError, "3 keys and 2 values"),
        (np.ones((0, 3)), np.ones((0, 3)), np.ones((0, 3)), EmptySequenceError, "no tokens"),
        (np.ones(3), np.ones(3), np.ones(3), ShapeError, "at least 2-D"),
        (np.array([[1.0, np.nan]]), np.ones((1, 2)), np.ones((1, 2)), NonFiniteError, "nan"),
        (np.ones((1, 2)), np.array([[np.inf, 1]]), np.ones((1, 2)), NonFiniteError, "inf"),
        (np.array([["a"]]), np.ones((1, 1)), np.ones((1, 1)), ShapeError, "dtype"),
    ],
)
def test_bad_input_names_the_problem(q, k, v, error, message) -> None:
    with pytest.raises(error, match=message):
        attend(q, k, v)


def test_unknown_mode_and_axis() -> None:
    x = np.ones((2, 2))
    with pytest.raises(UnknownModeError, match="'softer'"):
        attend(x, x, x, mode="softer")  # type: ignore[arg-type]
    with pytest.raises(UnknownModeError, match="'columns'"):
        attend(x, x, x, axis="columns")  # type: ignore[arg-type]


def test_mask_errors() -> None:
    x = np.ones((3, 2))
    with pytest.raises(MaskError, match="query 1 with no key"):
        attend(x, x, x, mask=np.array([[1, 0, 0], [0, 0, 0], [1, 1, 1]], dtype=bool))
    with pytest.raises(MaskError, match=r"\(2, 2\)"):
        attend(x, x, x, mask=np.ones((2, 2), dtype=bool))
    with pytest.raises(MaskError, match="boolean"):
        attend(x, x, x, mask=np.ones((3, 3)))


def test_self_attend_names_the_token_with_nan() -> None:
    x = np.array([[1.0, 2.0], [np.nan, 0.0]])
    with pytest.raises(NonFiniteError, match="'bank'"):
        self_attend(x, np.eye(2), np.eye(2), np.eye(2), tokens=("river", "bank"))


def test_split_heads_rejects_uneven_width() -> None:
    with pytest.raises(ShapeError, match="10 into 3"):
        split_heads(np.ones((2, 10)), 3)


# --- temperature: the divisor as a continuous knob -------------------------------------------


@settings(max_examples=40, deadline=None)
@given(qkv())
def test_temperature_sqrt_dk_is_scaled_and_one_is_unscaled(x: tuple) -> None:
    q, k, v = x
    scaled = attend(q, k, v)
    assert np.allclose(attend(q, k, v, temperature=math.sqrt(q.shape[1])).weights, scaled.weights)
    assert np.allclose(
        attend(q, k, v, temperature=1).weights, attend(q, k, v, mode="unscaled").weights
    )


def test_temperature_to_zero_is_the_argmax_one_hot() -> None:
    rng = np.random.default_rng(3)
    q, k, v = rng.normal(size=(3, 6, 4))
    hard = np.eye(6)[np.argmax(q @ k.T, axis=1)]  # (n, m) a hard lookup: one key per query
    errors = [np.abs(attend(q, k, v, temperature=t).weights - hard).max() for t in (1, 0.1, 1e-3)]
    assert errors[0] > errors[1] > errors[2] and errors[2] < 1e-6
    t = attend(q, k, v, temperature=1e-3)
    assert np.allclose(t.outputs, v[np.argmax(q @ k.T, axis=1)], atol=1e-6)


def test_temperature_to_infinity_is_the_uniform_row() -> None:
    rng = np.random.default_rng(4)
    q, k, v = rng.normal(size=(3, 5, 4))
    errors = [np.abs(attend(q, k, v, temperature=t).weights - 0.2).max() for t in (1, 100, 1e6)]
    assert errors[0] > errors[1] > errors[2] and errors[2] < 1e-5
    assert np.allclose(
        attend(q, k, v, temperature=1e9).outputs, attend(q, k, v, mode="uniform").outputs
    )


def test_temperature_is_the_divisor_and_is_kept() -> None:
    x = np.ones((2, 4))
    t = attend(x, x, x, temperature=0.5)
    assert t.divisor == 0.5 and t.temperature == 0.5
    assert np.allclose(t.scores, t.raw_scores / 0.5)
    assert attend(x, x, x).temperature is None


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"temperature": 0}, "positive and finite, got 0"),
        ({"temperature": -1.5}, "got -1.5"),
        ({"temperature": math.nan}, "got nan"),
        ({"temperature": math.inf}, "got inf"),
        ({"temperature": "hot"}, "must be a number, got 'hot'"),
        ({"temperature": True}, "must be a number, got True"),
        ({"temperature": 2.0, "mode": "uniform"}, "needs mode 'scaled'; got mode 'uniform'"),
        ({"temperature": 1e-320}, "overflow"),
    ],
)
def test_bad_temperature_is_named(kw: dict, message: str) -> None:
    x = np.full((2, 4), 3.0)
    with pytest.raises(TemperatureError, match=re.escape(message)):
        attend(x, x, x, **kw)


def test_the_trace_keeps_private_copies_of_what_the_caller_can_change() -> None:
    q = np.ones((3, 4))
    t = attend(q, q, q)
    q[0, 0] = 9.0  # the caller's arrays stay theirs
    assert t.queries[0, 0] == 1.0 and not np.shares_memory(t.queries, q)
    again = Trace(**{**t.__dict__})  # what attend computed is read-only and kept, not copied
    assert again.weights is t.weights and again.queries is t.queries


# Issue 9: scores that overflow their dtype, d_k = 0, labels of the wrong length.


@pytest.mark.parametrize(("dtype", "scale"), [(np.float32, 1e19), (np.float16, 100.0)])
def test_scores_beyond_the_dtype_are_computed_without_nan(dtype, scale) -> None:
    """float32 entries of 1e19 (or float16 entries of 100) overflow QKᵀ in their dtype; the
    weights are those of the same vectors in float64, finite and summing to 1."""
    rng = np.random.default_rng(9)
    q, k, v = (rng.uniform(0.5, 1.0, size=(4, 16)) * scale for _ in range(3))
    q_, k_, v_ = (a.astype(dtype) for a in (q, k, v))
    with np.errstate(over="ignore"):
        assert not np.isfinite(q_ @ k_.T).all()  # the failure this guards against is real
    t = attend(q_, k_, v_)
    reference = attend(*(a.astype(np.float64) for a in (q_, k_, v_)))
    assert np.isfinite(t.weights).all() and np.isfinite(t.outputs).all()
    np.testing.assert_allclose(t.weights, reference.weights, atol=1e-6)
    np.testing.assert_allclose(t.weights.sum(axis=-1), 1.0)


def test_scores_beyond_float64_are_a_named_error() -> None:
    from attnlab.errors import ScoreOverflowError

    big = np.full((2, 4), 1e200)
    with pytest.raises(ScoreOverflowError, match="overflow even in float64"):
        attend(big, big, big)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64])
def test_zero_width_queries_are_a_named_error(dtype) -> None:
    empty = np.ones((3, 0), dtype=dtype)
    with pytest.raises(ShapeError, match="d_k = 0"):
        attend(empty, empty, np.ones((3, 2), dtype=dtype))


def test_key_tokens_of_the_wrong_length_are_refused() -> None:
    q = np.ones((2, 4))
    k = np.ones((3, 4))
    with pytest.raises(ShapeError, match="got 2 key_tokens for 3 keys"):
        attend(q, k, k, key_tokens=["a", "b"])
    assert attend(q, k, k, key_tokens=["a", "b", "c"]).columns == ("a", "b", "c")
    with pytest.raises(ShapeError, match="got 3 tokens for 2 queries"):
        attend(q, k, k, tokens=["a", "b", "c"])
