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


@pytest.mark.parametrize("pairing", ["interleaved", "half"])
@settings(max_examples=30, deadline=None)
@given(q=vectors, k=vectors, shift=st.integers(0, 50))
def test_both_pairings_keep_lengths_and_see_only_relative_position(
    pairing: str, q: np.ndarray, k: np.ndarray, shift: int
) -> None:
    pos = np.arange(5)
    a = rope(q, k, positions=pos, pairing=pairing)  # type: ignore[arg-type]
    b = rope(q, k, positions=pos + shift, pairing=pairing)  # type: ignore[arg-type]
    assert np.allclose(np.linalg.norm(a.rotated_keys, axis=-1), np.linalg.norm(k, axis=-1))
    assert np.allclose(a.rotated_queries @ a.rotated_keys.T, b.rotated_queries @ b.rotated_keys.T)


def test_half_pairs_dimension_i_with_i_plus_half() -> None:
    turned = rotate(np.array([[1.0, 0, 0, 0]]), np.array([[np.pi / 2, 0]]), pairing="half")
    assert np.allclose(turned, [[0, 0, 1, 0]])  # dimension 0 turns into dimension 0 + d/2
    interleaved = rotate(np.array([[1.0, 0, 0, 0]]), np.array([[np.pi / 2, 0]]))
    assert np.allclose(interleaved, [[0, 1, 0, 0]])  # the paper's pair (0, 1)


def test_half_is_the_rotate_half_formula() -> None:
    """x·cos + rotate_half(x)·sin with cos, sin repeated over both halves (transformers' Llama)."""
    rng = np.random.default_rng(3)
    x = rng.normal(size=(2, 7, 8))  # (h, n, d) a stack of heads rotates alike
    angles = rope_angles(7, 8, base=100000.0)  # (n, d/2)
    cos, sin = np.cos(np.concatenate([angles] * 2, -1)), np.sin(np.concatenate([angles] * 2, -1))
    rotate_half = np.concatenate([-x[..., 4:], x[..., :4]], axis=-1)  # (h, n, d)
    assert np.allclose(rotate(x, angles, pairing="half"), x * cos + rotate_half * sin)


def test_the_pairings_are_one_rotation_with_dimensions_renumbered() -> None:
    x = np.random.default_rng(4).normal(size=(6, 8))  # (n, d)
    angles = rope_angles(6, 8)
    order = np.array([0, 4, 1, 5, 2, 6, 3, 7])  # half layout -> interleaved layout
    half = rotate(x, angles, pairing="half")
    assert np.allclose(half[:, order], rotate(x[:, order], angles))


def test_rotate_keeps_float32_and_refuses_an_unknown_pairing() -> None:
    x = np.ones((3, 4), np.float32)
    assert rotate(x, rope_angles(3, 4), pairing="half").dtype == np.float32
    with pytest.raises(PositionsError, match="'halves'"):
        rotate(x, rope_angles(3, 4), pairing="halves")  # type: ignore[arg-type]
