"""Parity with torch.nn.functional.scaled_dot_product_attention (skips where torch is absent)."""

import numpy as np
import pytest

from attnlab import attend, causal_mask

torch = pytest.importorskip("torch")
F = torch.nn.functional


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("masked", [False, True])
def test_matches_torch_sdpa_float64(seed: int, masked: bool) -> None:
    rng = np.random.default_rng(seed)
    h, n, m, d_k, d_v = rng.integers(1, 5), rng.integers(1, 9), rng.integers(1, 9), 8, 5
    q = rng.normal(size=(h, n, d_k)) * 3
    k = rng.normal(size=(h, m, d_k)) * 3
    v = rng.normal(size=(h, m, d_v))
    mask = None
    if masked:
        mask = rng.random((n, m)) < 0.6
        mask[np.arange(n), rng.integers(0, m, size=n)] = True  # no query left without a key
    ours = attend(q, k, v, mask=mask).outputs
    theirs = F.scaled_dot_product_attention(
        torch.from_numpy(q), torch.from_numpy(k), torch.from_numpy(v),
        attn_mask=None if mask is None else torch.from_numpy(mask),
    ).numpy()  # fmt: skip
    np.testing.assert_allclose(ours, theirs, atol=1e-6, rtol=0)


def test_matches_torch_causal_float32() -> None:
    rng = np.random.default_rng(42)
    q, k, v = (rng.normal(size=(2, 6, 16)).astype(np.float32) for _ in range(3))
    ours = attend(q, k, v, mask=causal_mask(6)).outputs
    theirs = F.scaled_dot_product_attention(
        torch.from_numpy(q), torch.from_numpy(k), torch.from_numpy(v), is_causal=True
    ).numpy()
    assert ours.dtype == np.float32
    np.testing.assert_allclose(ours, theirs, atol=1e-5, rtol=0)


def test_matches_torch_weights_via_softmax() -> None:
    rng = np.random.default_rng(7)
    q, k, v = (rng.normal(size=(5, 4)) for _ in range(3))
    t = attend(q, k, v)
    w = torch.softmax(torch.from_numpy(q) @ torch.from_numpy(k).T / 2.0, dim=-1).numpy()
    np.testing.assert_allclose(t.weights, w, atol=1e-12)
