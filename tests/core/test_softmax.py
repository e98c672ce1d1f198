"""softmax, entropy and the softmax Jacobian."""

import numpy as np

from attnlab import lesson
from attnlab.core.softmax import entropy_bits, jacobian, softmax


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


def numeric_jacobian(s: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    """Central differences: column j is ∂softmax(s)/∂s_j."""
    return np.stack(
        [(softmax(s + eps * e) - softmax(s - eps * e)) / (2 * eps) for e in np.eye(len(s))], axis=1
    )


def test_jacobian_matches_finite_differences_for_every_lesson_row() -> None:
    t = lesson.run("by the river bank")
    for i in range(t.n):
        np.testing.assert_allclose(jacobian(t.weights[i]), numeric_jacobian(t.scores[i]), atol=1e-8)


def test_jacobian_matches_finite_differences_for_random_rows_and_temperatures() -> None:
    rng = np.random.default_rng(5)
    for temperature in (0.3, 1.0, 2.0, 8.0):
        s = rng.normal(size=6) * 3 / temperature
        np.testing.assert_allclose(jacobian(softmax(s)), numeric_jacobian(s), atol=1e-7)


def test_jacobian_vanishes_as_the_row_saturates() -> None:
    s = np.array([0.46, 0.0, 2.3, 0.69])
    norms = [np.linalg.norm(jacobian(softmax(s * c))) for c in (1, 4, 16, 64)]
    assert norms == sorted(norms, reverse=True) and norms[-1] < 1e-20
    assert np.allclose(jacobian(softmax(s)).sum(axis=0), 0)  # weights always sum to 1
