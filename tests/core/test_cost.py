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
