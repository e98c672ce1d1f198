"""Block pooling: a cell is its block's max or mean; nothing happens when the matrix fits."""

import numpy as np
import pytest

from attnlab.core.pooling import edges, pool


def test_a_matrix_that_fits_is_returned_as_it_is() -> None:
    w = np.eye(5)
    assert pool(w, 8) is w


def test_max_keeps_a_single_strong_cell_and_mean_keeps_the_budget() -> None:
    w = np.zeros((10, 10))
    w[7, 2] = 0.9
    big = pool(w, 5, "max")  # blocks of 2 × 2
    assert big.shape == (5, 5) and big[3, 1] == pytest.approx(0.9)
    assert big.sum() == pytest.approx(0.9)
    mean = pool(np.full((10, 10), 0.1), 5, "mean")
    assert mean == pytest.approx(np.full((5, 5), 0.1))


def test_uneven_blocks_cover_every_index_once() -> None:
    e = edges(2048, 512)
    assert e[0] == 0 and len(e) == 512 and np.all(np.diff(e) == 4)
    e = edges(100, 30)
    sizes = np.diff(np.append(e, 100))
    assert sizes.sum() == 100 and set(sizes) <= {3, 4}
    w = np.random.default_rng(1).random((100, 100))
    m = pool(w, 30, "mean")
    assert (m * np.outer(sizes, sizes)).sum() == pytest.approx(w.sum())


@pytest.mark.parametrize(("n", "m", "side"), [(2048, 2048, 512), (2000, 1999, 512), (700, 30, 64)])
def test_max_is_numpys_block_reduction_exactly(n: int, m: int, side: int) -> None:
    w = np.random.default_rng(n).random((n, m), dtype=np.float32)
    w[5, 7] = np.nan  # a NaN spreads to its cell, as np.maximum does
    rows, cols = edges(n, side), edges(m, side)
    expected = np.maximum.reduceat(np.maximum.reduceat(w, rows, axis=0), cols, axis=1)
    np.testing.assert_array_equal(pool(w, side, "max"), expected)
