"""The price of attention: measured points grow like n², fitted within a time budget."""

import time

import numpy as np
import pytest

from attnlab.core.cost import attention, measure, sizes
from attnlab.core.softmax import softmax
from attnlab.encode.trace_json import encode_cost
from attnlab.errors import ShapeError


def test_sizes_double_from_four() -> None:
    assert sizes(64, per_octave=1) == [4, 8, 16, 32, 64]
    assert sizes()[0] == 4 and sizes()[-1] == 2048
    with pytest.raises(ShapeError, match="max_n=9000"):
        sizes(9000)


def test_bare_attention_is_the_formula() -> None:
    rng = np.random.default_rng(0)
    q, k, v = rng.normal(size=(3, 5, 4)).astype(np.float32)
    assert np.allclose(attention(q, k, v), softmax(q @ k.T / 2) @ v, atol=1e-6)


def test_measure_is_quadratic_in_memory_and_bounded_in_time() -> None:
    start = time.perf_counter()
    c = measure(sizes(1024, per_octave=1), budget_seconds=2.0)
    assert time.perf_counter() - start < 5
    assert c.complete and c.n.tolist() == [4, 8, 16, 32, 64, 128, 256, 512, 1024]
    assert (np.diff(c.bytes) > 0).all() and (c.seconds > 0).all()
    assert 4 <= c.memory_fit[1] <= 40  # bytes per n² entry: a few float32 n×n buffers
    big = c.bytes[-1] / c.bytes[-2]
    assert 3 < big < 5  # doubling n roughly quadruples memory
    d = encode_cost(c)
    assert {"d", "points", "fit", "curve", "budget_seconds", "complete"} <= set(d)
    assert d["d"] == 64 and d["fit"]["form"] == "a + c·n²" and len(d["curve"]) == 64


def test_budget_stops_early() -> None:
    c = measure([4, 8, 16, 2048], budget_seconds=0.0)
    assert not c.complete and c.n.tolist() == [4]


# The price, continued: one more token with a key/value cache (issue 10).


def test_a_cached_row_is_the_last_row_of_the_full_matrix() -> None:
    from attnlab.core.cost import cached_row

    rng = np.random.default_rng(1)
    q, k, v = rng.normal(size=(3, 9, 8)).astype(np.float32)
    np.testing.assert_allclose(cached_row(q[-1:], k, v), attention(q, k, v)[-1:], atol=1e-6)


def test_the_kv_cache_is_measured_at_128_to_2048_within_its_budget() -> None:
    from attnlab.core.cost import KV_SIZES, measure_kv_cache

    c = measure_kv_cache(budget_seconds=1.0)
    assert c.budget_seconds == 1.0
    assert KV_SIZES == (128, 256, 512, 1024, 2048)
    assert list(c.n) == list(KV_SIZES[: len(c.n)]) and c.complete == (len(c.n) == 5)
    assert (c.recompute_seconds > 0).all() and (c.cached_seconds > 0).all()
    np.testing.assert_allclose(c.ratio, c.recompute_seconds / c.cached_seconds)
    # the model: n² against n, so its ratio is close to n; bytes the same way
    np.testing.assert_allclose(c.recompute_flops / c.cached_flops, c.n, rtol=0.02)
    assert (c.recompute_bytes > c.cached_bytes).all()
    assert c.recompute_flops[0] == 4 * 128**2 * 64 + 5 * 128**2
    assert c.cached_bytes[0] == 4 * (2 * 128 * 64 + 2 * 64 + 2 * 128)


def test_the_kv_cache_measurement_refuses_bad_sizes() -> None:
    from attnlab.core.cost import measure_kv_cache

    with pytest.raises(ShapeError, match="d=0"):
        measure_kv_cache(d=0)
    with pytest.raises(ShapeError, match="8192"):
        measure_kv_cache((128, 8192))


def test_measured_once_per_width() -> None:
    from attnlab.core.cost import measured_kv_cache

    assert measured_kv_cache(16) is measured_kv_cache(16)
