"""softmax, entropy and the softmax Jacobian."""

import numpy as np

from attnlab.softmax import entropy_bits, jacobian, softmax


def test_softmax_of_masked_entry_is_exactly_zero() -> None:
    w = softmax(np.array([1.0, -np.inf, 0.0]))
    assert w[1] == 0.0 and np.isclose(w.sum(), 1)


def test_entropy_bounds() -> None:
    assert entropy_bits(np.array([1.0, 0, 0, 0])) == 0
    assert np.isclose(entropy_bits(np.full(4, 0.25)), 2.0)


def test_jacobian_matches_finite_differences() -> None:
    s = np.array([0.46, 0.0, 2.3, 0.69])
    eps = 1e-6
    numeric = np.stack(
        [(softmax(s + eps * e) - softmax(s - eps * e)) / (2 * eps) for e in np.eye(4)], axis=1
    )
    np.testing.assert_allclose(jacobian(softmax(s)), numeric, atol=1e-8)
