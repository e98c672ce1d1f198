"""Blocked causal attention: the same outputs and diagnostics as one whole masked `attend`."""

import numpy as np
import pytest

from attnlab.core.attention import attend, causal_mask
from attnlab.core.diagnostics import head_stats
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
