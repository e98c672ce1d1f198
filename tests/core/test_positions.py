"""Positions: the sinusoidal table of Vaswani et al. and RoPE's rotations of Su et al."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attnlab.core.positions import check_kind, rope, rope_angles, rotate, sinusoidal
from attnlab.errors import PositionsError

vectors = arrays(np.float64, (5, 6), elements=st.floats(-10, 10, allow_nan=False, width=64))


def test_sinusoidal_is_the_papers_table() -> None:
    pe = sinusoidal(50, 8)
    pos, i = 7, 2  # PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(...)
    assert pe[pos, 2 * i] == pytest.approx(np.sin(pos / 10000 ** (2 * i / 8)))
    assert pe[pos, 2 * i + 1] == pytest.approx(np.cos(pos / 10000 ** (2 * i / 8)))
    assert pe[0].tolist() == [0, 1, 0, 1, 0, 1, 0, 1]
    assert np.allclose(sinusoidal(10, 4, scale=0.25), 0.25 * sinusoidal(10, 4))


def test_sinusoidal_positions_are_distinct() -> None:
    pe = sinusoidal(12, 4)
    d = np.linalg.norm(pe[:, None] - pe[None, :], axis=-1)  # (n, n)
    assert (d[~np.eye(12, dtype=bool)] > 1e-3).all()


@settings(max_examples=40, deadline=None)
@given(vectors)
def test_rope_keeps_every_length(x: np.ndarray) -> None:
    r = rope(x, x)
    assert np.allclose(np.linalg.norm(r.rotated_queries, axis=-1), np.linalg.norm(x, axis=-1))
    assert np.allclose(r.rotated_queries[0], x[0])  # position 0 is not turned


@settings(max_examples=40, deadline=None)
@given(vectors, vectors, st.integers(0, 50), st.floats(0.1, 2))
def test_rope_scores_depend_only_on_relative_position(q, k, shift: int, speed: float) -> None:
    pos = np.arange(5)
    a = rope(q, k, positions=pos, speed=speed)
    b = rope(q, k, positions=pos + shift, speed=speed)
    scores_a = a.rotated_queries @ a.rotated_keys.T  # (n, n)
    scores_b = b.rotated_queries @ b.rotated_keys.T  # (n, n) every position moved by `shift`
    assert np.allclose(scores_a, scores_b, atol=1e-8)


def test_rope_angles_and_pairs() -> None:
    angles = rope_angles(4, 4)
    assert np.allclose(angles[:, 0], [0, 1, 2, 3])  # pair 0 turns a radian per position
    assert np.allclose(angles[:, 1], [0, 0.01, 0.02, 0.03])  # θ₁ = 10000^(-2/4)
    assert np.allclose(rope_angles(4, 4, speed=0.25), angles * 0.25)
    turned = rotate(np.array([[1.0, 0, 0, 0]]), np.array([[np.pi / 2, 0]]))
    assert np.allclose(turned, [[0, 1, 0, 0]])


def test_bad_kinds_and_widths_are_named() -> None:
    with pytest.raises(PositionsError, match="'learned'"):
        check_kind("learned")
    with pytest.raises(PositionsError, match="even width"):
        sinusoidal(3, 5)
    with pytest.raises(PositionsError, match=r"\(2, 4\)"):
        rope(np.ones((2, 4)), np.ones((3, 4)))
