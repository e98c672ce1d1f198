"""The grouped-query map: which key/value head each query head reads."""

import numpy as np
import pytest

from attnlab.core.grouped import group_size, kv_head, kv_heads
from attnlab.errors import ShapeError, UnknownHeadError


def test_smollm2_shares_three_kv_heads_among_nine_query_heads() -> None:
    assert kv_heads(9, 3).tolist() == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert [kv_head(h, n_heads=9, n_kv_heads=3) for h in range(9)] == kv_heads(9, 3).tolist()
    assert group_size(9, 3) == 3


def test_multi_head_and_multi_query_are_the_two_ends() -> None:
    assert np.array_equal(kv_heads(12, 12), np.arange(12))  # BERT: every head its own
    assert kv_heads(4, 1).tolist() == [0, 0, 0, 0]  # multi-query: one shared


def test_transformers_repeat_kv_order() -> None:
    """repeat_kv expands (h_kv, n, d) to (h_kv·g, n, d) by repeating each kv head g times."""
    k = np.arange(3)[:, None, None] * np.ones((3, 2, 4))  # (h_kv, n, d) head j holds j
    repeated = np.repeat(k, 3, axis=0)  # (h, n, d) as repeat_kv does
    assert np.array_equal(k[kv_heads(9, 3)], repeated)


def test_uneven_groups_and_heads_outside_are_named() -> None:
    with pytest.raises(ShapeError, match="9 query heads cannot share 2"):
        kv_heads(9, 2)
    with pytest.raises(UnknownHeadError, match=r"head 9 is outside 0\.\.8"):
        kv_head(9, n_heads=9, n_kv_heads=3)
