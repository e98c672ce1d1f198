"""Weights handed in alone, encoded as their declared answers (encode/maps_json.py)."""

from __future__ import annotations

import numpy as np

from attnlab.core.attention_maps import AttentionMaps
from attnlab.encode.maps_json import encode_maps_grid, encode_maps_head
from attnlab.encode.packed import UINT16_STEP, unpack
from attnlab.models.maps_view import maps_grid_view, maps_view


def _maps(n: int, m: int) -> AttentionMaps:
    a = np.random.default_rng(4).random((2, 3, n, m))
    a /= a.sum(-1, keepdims=True)
    return AttentionMaps(a, tuple(f"q{i}" for i in range(n)), tuple(f"k{j}" for j in range(m)), "x")


def test_a_head_carries_its_weights_and_reads_its_pair_one_way_when_keys_differ() -> None:
    maps = _maps(4, 7)
    answer = encode_maps_head(maps_view(maps, layer=1, head=2, focus=3))
    assert np.allclose(unpack(answer.weights.model_dump()), maps.weights[1, 2], atol=1e-7)
    assert answer.pair[0] == 3 and len(answer.captions.pair) == 1  # keys are other tokens
    assert answer.window.shown_weight == 1.0 and answer.queries is None


def test_the_grid_holds_matrices_for_a_short_text_and_rows_for_a_long_one() -> None:
    short = encode_maps_grid(maps_grid_view(_maps(6, 6), 2)).model_dump(exclude_unset=True)
    assert short["kind"] == "full" and "rows" not in short
    assert np.allclose(unpack(short["attentions"]), _maps(6, 6).weights, atol=UINT16_STEP / 2)
    long = encode_maps_grid(maps_grid_view(_maps(50, 50), 2)).model_dump(exclude_unset=True)
    assert long["kind"] == "focus" and "attentions" not in long
    assert unpack(long["rows"]).shape == (2, 3, 50)
