"""Blocked causal attention: the same outputs and diagnostics as one whole masked `attend`."""

import tracemalloc

import numpy as np
import pytest

from attnlab.core.attention import attend, causal_mask
from attnlab.core.diagnostics import head_stats
from attnlab.errors import NonFiniteError
from attnlab.models.causal_blocks import attend_causal
from attnlab.models.spec import MaskSpec

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


@pytest.mark.parametrize(("window", "sinks"), [(1, 0), (2, 0), (5, 0), (9, 0), (40, 0), (5, 2)])
def test_windowed_blocks_match_the_whole_windowed_matrix(window: int, sinks: int) -> None:
    n, block = 23, 4  # blocks from row 4 on start their band after key 0 when window < 20
    rng = np.random.default_rng(window + 10 * sinks)
    q = rng.normal(size=(4, n, 8)).astype(np.float32) * 2
    k = rng.normal(size=(1, n, 8)).astype(np.float32)
    v = rng.normal(size=(1, n, 8)).astype(np.float32)
    tokens = tuple(str(i) for i in range(n))
    z, keep, stats = attend_causal(q, k, v, tokens=tokens, block=block, window=window, sinks=sinks)
    allowed = MaskSpec(window=window, sinks=sinks).allowed(0, n)
    whole = attend(q, k[[0, 0, 0, 0]], v[[0, 0, 0, 0]], mask=allowed)
    np.testing.assert_allclose(z, whole.outputs, atol=1e-6)
    expected = head_stats(whole.weights)
    for name in FIELDS:
        np.testing.assert_allclose(getattr(stats, name), getattr(expected, name), atol=1e-5)
    assert keep.window == window and keep.sinks == sinks


def _peak_bytes(window: int | None) -> int:
    n = 2048
    rng = np.random.default_rng(5)
    q = rng.normal(size=(4, n, 16)).astype(np.float32)
    k = rng.normal(size=(1, n, 16)).astype(np.float32)
    tokens = tuple(map(str, range(n)))
    tracemalloc.start()
    attend_causal(q, k, k, tokens=tokens, block=128, threads=1, window=window)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def test_a_windowed_block_scores_its_band_not_every_earlier_key() -> None:
    """At 2,048 tokens a 128-key window's blocks hold (4, 128, 255) scores, the causal mask's
    last block (4, 128, 2,048): the windowed layer's peak is well under the causal one's (it
    was above it when every block scored every earlier key, then masked)."""
    assert _peak_bytes(128) < 0.6 * _peak_bytes(None)
