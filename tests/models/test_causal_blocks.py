"""Blocked causal attention: the same outputs and diagnostics as one whole masked `attend`."""

import numpy as np
import pytest

from attnlab.core.attention import attend, causal_mask
from attnlab.core.diagnostics import head_stats
from attnlab.errors import NonFiniteError
from attnlab.models.causal_blocks import attend_causal

FIELDS = ("entropy_bits", "first", "previous", "itself", "top1")


@pytest.mark.parametrize(("n", "block"), [(1, 4), (7, 3), (16, 16), (13, 5)])
def test_blocks_match_the_whole_matrix(n: int, block: int) -> None:
    rng = np.random.default_rng(n)
    q = rng.normal(size=(6, n, 8)).astype(np.float32) * 2
    k = rng.normal(size=(2, n, 8)).astype(np.float32)
    v = rng.normal(size=(2, n, 8)).astype(np.float32)
    tokens = tuple(str(i) for i in range(n))
    z, keep, stats = attend_causal(q, k, v, tokens=tokens, block=block)
    index = np.arange(6) // 3
    whole = attend(q, k[index], v[index], mask=causal_mask(n))
    np.testing.assert_allclose(z, whole.outputs, atol=1e-6)
    expected = head_stats(whole.weights)
    for name in FIELDS:
        np.testing.assert_allclose(getattr(stats, name), getattr(expected, name), atol=1e-5)
    assert keep.mask == "causal" and keep.keys.shape == (2, n, 8)


def test_scores_that_would_overflow_go_through_attend_in_float64() -> None:
    rng = np.random.default_rng(3)
    q = rng.normal(size=(3, 6, 4)).astype(np.float32) * 1e19  # q·k beyond float32's 3.4e38
    k = rng.normal(size=(3, 6, 4)).astype(np.float32) * 1e19
    v = rng.normal(size=(3, 6, 4)).astype(np.float32)
    z, _, stats = attend_causal(q, k, v, tokens=tuple("abcdef"), block=4)
    whole = attend(q, k, v, mask=causal_mask(6))  # attend's own float64 fallback
    assert np.isfinite(z).all() and np.isfinite(stats.entropy_bits).all()
    np.testing.assert_allclose(z, whole.outputs, atol=1e-6)
    np.testing.assert_allclose(stats.top1, head_stats(whole.weights).top1, atol=1e-6)


def test_a_value_that_is_not_finite_is_named() -> None:
    q = np.ones((1, 3, 2), dtype=np.float32)
    v = q.copy()
    v[0, 1, 0] = np.nan
    with pytest.raises(NonFiniteError, match="values contain nan"):
        attend_causal(q, q, v, tokens=("a", "b", "c"))


def test_one_token_has_no_previous() -> None:
    x = np.ones((2, 1, 4), dtype=np.float32)
    _, _, stats = attend_causal(x, x, x, tokens=("a",))
    assert np.isnan(stats.previous).all()
    np.testing.assert_array_equal(stats.top1, [1.0, 1.0])
    np.testing.assert_array_equal(stats.entropy_bits, [0.0, 0.0])


def test_threads_give_the_same_numbers_as_one() -> None:
    rng = np.random.default_rng(11)
    q = rng.normal(size=(6, 21, 8)).astype(np.float32)
    k = rng.normal(size=(2, 21, 8)).astype(np.float32)
    v = rng.normal(size=(2, 21, 8)).astype(np.float32)
    tokens = tuple(str(i) for i in range(21))
    z1, _, s1 = attend_causal(q, k, v, tokens=tokens, block=4, threads=1)
    z2, _, s2 = attend_causal(q, k, v, tokens=tokens, block=4, threads=2)
    np.testing.assert_array_equal(z1, z2)
    for name in FIELDS:
        np.testing.assert_array_equal(getattr(s1, name), getattr(s2, name))
