"""Packed arrays: float32 bytes exactly, uint16 codes within half a step, -inf kept."""

import math

import numpy as np
import pytest

from attnlab.encode.packed import UINT16_STEP, pack_float32, pack_uint16, unpack


def test_float32_round_trips_exactly_with_infinities() -> None:
    a = np.array([[0.5, -math.inf], [1e-7, 3.25]], dtype=np.float64)
    p = pack_float32(a)
    assert p["dtype"] == "float32" and p["shape"] == [2, 2] and p["scale"] is None
    assert np.array_equal(unpack(p), a.astype(np.float32).astype(np.float64))


def test_uint16_is_within_half_a_step() -> None:
    w = np.random.default_rng(0).dirichlet(np.ones(300), size=40)  # (40, 300) rows sum to 1
    back = unpack(pack_uint16(w))
    assert back.shape == w.shape
    assert np.abs(back - w).max() <= UINT16_STEP / 2 + 1e-12
    assert unpack(pack_uint16(np.array([0.0, 1.0, 2.0, np.nan]))) == pytest.approx([0, 1, 1, 0])


def test_uint16_is_two_bytes_a_number_before_base64() -> None:
    p = pack_uint16(np.zeros((512, 512)))
    assert len(p["data"]) == math.ceil(512 * 512 * 2 / 3) * 4
