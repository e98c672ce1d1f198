"""FlashAttention's online softmax equals attend, for any shape, tile, mask and temperature."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attnlab.core.attention import attend, causal_mask
from attnlab.core.online_softmax import online_attend, online_outputs, peak_bytes
from attnlab.errors import MaskError, ShapeError


@st.composite
def problems(draw: st.DrawFn) -> tuple[np.ndarray, ...]:
    n = draw(st.integers(1, 12))
    m = draw(st.integers(1, 12))
    d_k = draw(st.integers(1, 9))
    d_v = draw(st.integers(1, 6))
    heads = draw(st.sampled_from([(), (2,)]))
    seed = draw(st.integers(0, 2**32 - 1))
    scale = draw(st.sampled_from([0.1, 1.0, 5.0]))
    rng = np.random.default_rng(seed)
    q = rng.normal(scale=scale, size=(*heads, n, d_k))
    k = rng.normal(scale=scale, size=(*heads, m, d_k))
    v = rng.normal(size=(*heads, m, d_v))
    mask = rng.random((n, m)) < 0.6
    mask[np.arange(n), rng.integers(0, m, n)] = True  # every row keeps a key
    return q, k, v, mask


@settings(max_examples=80, deadline=None)
@given(
    problems(),
    st.integers(1, 13),
    st.booleans(),
    st.one_of(st.none(), st.floats(0.2, 20)),
    st.sampled_from([np.float64, np.float32]),
)
def test_tiled_equals_attend(
    p: tuple[np.ndarray, ...], tile: int, masked: bool, temperature: float | None, dtype: type
) -> None:
    q, k, v, mask = (a.astype(dtype) if a.dtype != bool else a for a in p)
    tol = 1e-12 if dtype is np.float64 else 1e-6
    exact = attend(q, k, v, mask=mask if masked else None, temperature=temperature)
    tiled = online_attend(q, k, v, tile=tile, mask=mask if masked else None,
                          temperature=temperature)  # fmt: skip
    assert tiled.outputs.dtype == dtype
    scale = max(1.0, float(np.abs(v).max()))
    assert np.abs(tiled.outputs - exact.outputs).max() <= tol * scale
    assert np.abs(tiled.weights() - exact.weights).max() <= tol


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 40), st.integers(1, 17), st.sampled_from([np.float64, np.float32]))
def test_causal_tiles_of_queries_and_keys_equal_the_masked_matrix(
    n: int, tile: int, dtype: type
) -> None:
    rng = np.random.default_rng(n * 31 + tile)
    q, k, v = (rng.normal(size=(3, n, 8)).astype(dtype) for _ in range(3))
    exact = attend(q, k, v, mask=causal_mask(n)).outputs
    tol = 1e-12 if dtype is np.float64 else 1e-6
    assert np.abs(online_outputs(q, k, v, tile=tile, causal=True) - exact).max() <= tol
    assert np.abs(online_attend(q, k, v, tile=tile, causal=True).outputs - exact).max() <= tol
    assert np.abs(online_outputs(q, k, v, tile=tile) - attend(q, k, v).outputs).max() <= tol


def test_the_toy_row_in_tiles_of_two_ends_on_the_softmax_and_blend_numbers() -> None:
    from attnlab.lesson.explain import explain_lesson

    t = explain_lesson("by the river bank", focus="bank").trace
    row = online_attend(t.queries[3:4], t.keys, t.values, tile=2)
    assert [(s.start, s.stop) for s in row.steps] == [(0, 2), (2, 4)]
    first, second = row.steps
    assert first.m_new[0] == pytest.approx(0.46)  # max of by 0.46, the 0
    assert second.m_new[0] == pytest.approx(2.3)  # river's score takes over
    assert second.rescale[0] == pytest.approx(np.exp(0.46 - 2.3))
    np.testing.assert_allclose(row.weights()[0], t.weights[3], atol=1e-15)
    np.testing.assert_allclose(row.outputs[0], t.outputs[3], atol=1e-15)


def test_a_row_whose_first_tile_is_all_masked_waits_for_its_keys() -> None:
    q, k, v = np.ones((1, 2)), np.eye(4, 2), np.arange(8.0).reshape(4, 2)
    mask = np.array([[False, False, True, True]])
    r = online_attend(q, k, v, tile=2, mask=mask)
    assert r.steps[0].ell[0] == 0 and np.isneginf(r.steps[0].m_new[0])
    np.testing.assert_allclose(r.outputs, attend(q, k, v, mask=mask).outputs, atol=1e-15)


def test_bad_input_is_named() -> None:
    q = np.ones((2, 3))
    with pytest.raises(ShapeError, match="tile"):
        online_attend(q, q, q, tile=0)
    with pytest.raises(ShapeError, match="do not fit"):
        online_attend(q, np.ones((2, 4)), q)
    with pytest.raises(MaskError, match="no key"):
        online_attend(q, q, q, mask=np.array([[True, True], [False, False]]))


def test_memory_grows_with_n_not_n_squared() -> None:
    """At n = 1,024 and 4,096 (float32, d = 64) the n × n form holds ≥ 3 matrices of n²
    numbers; the tiled pass holds the outputs and one tile of scores: O(n·d)."""
    peaks = {}
    for n in (1024, 4096):
        rng = np.random.default_rng(n)
        q, k, v = (rng.standard_normal((n, 64), dtype=np.float32) for _ in range(3))
        peaks[n] = (
            peak_bytes(partial(online_outputs, q, k, v)),
            peak_bytes(partial(attend, q, k, v)),
        )
    for n, (tiled, exact) in peaks.items():
        assert exact >= 3 * n * n * 4
        assert tiled <= n * 64 * 4 * 2 + 128 * 128 * 4 * 8
    assert peaks[4096][1] / peaks[1024][1] > 14  # n² : 16×
    assert peaks[4096][0] / peaks[1024][0] < 6  # n·d (+ a constant tile): about 4×


def test_what_a_step_has_seen_sums_to_its_running_sum() -> None:
    rng = np.random.default_rng(3)
    q, k, v = rng.normal(size=(3, 2, 7, 4))
    r = online_attend(q, k, v, tile=3)
    for i, step in enumerate(r.steps):
        assert r.seen(i).shape == (2, 7, step.stop)
        np.testing.assert_allclose(r.seen(i).sum(-1), step.ell, rtol=1e-12)
        assert r.seen(i).max() <= 1
