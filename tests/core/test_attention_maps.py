"""Weights-only traces: every usual layout accepted, every way not to be attention named."""

import numpy as np
import pytest

from attnlab.core.attention import attend, causal_mask
from attnlab.core.attention_maps import AttentionMaps, AttentionRows, row_tolerance
from attnlab.core.diagnostics import head_stats
from attnlab.errors import FocusError, MapShapeError, MapValueError, RowSumError, UnknownHeadError

TOKENS = ("by", "the", "river", "bank")


def weights(layers: int = 2, heads: int = 3, n: int = 4, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    q, k, v = rng.normal(size=(3, layers, heads, n, 8))  # (L, H, n, d) each
    return attend(q, k, v, mask=causal_mask(n)).weights  # (L, H, n, n)


def test_the_layouts_of_stacked_numpy_circuitsvis_and_transformers() -> None:
    w = weights()
    stacked = AttentionMaps.of(w, TOKENS)
    assert (stacked.n_layers, stacked.n_heads, stacked.n, stacked.m) == (2, 3, 4, 4)
    one_layer = AttentionMaps.of(w[0], TOKENS)  # CircuitsVis: (heads, n, n)
    assert one_layer.weights.shape == (1, 3, 4, 4)
    assert AttentionMaps.of(w[0, 0], TOKENS).weights.shape == (1, 1, 4, 4)
    hf = tuple(w[layer][None] for layer in range(2))  # outputs.attentions: (1, H, n, n) a layer
    assert np.array_equal(AttentionMaps.of(hf, TOKENS).weights, w)
    batch = tuple(np.stack([w[layer], w[layer][::-1]]) for layer in range(2))  # (2, H, n, n)
    assert np.array_equal(AttentionMaps.of(batch, TOKENS, batch=1).weights, w[:, ::-1])
    with pytest.raises(MapShapeError, match="a batch of 2 texts: choose one with batch="):
        AttentionMaps.of(batch, TOKENS)


def test_rows_and_stats_are_read_from_the_weights() -> None:
    w = weights()
    maps = AttentionMaps.of(w, TOKENS, source="test")
    assert np.array_equal(maps.rows(3), w[:, :, 3, :])
    assert np.array_equal(maps.head(1, 2), w[1, 2])
    expected = head_stats(w)
    assert np.array_equal(maps.stats.entropy_bits, expected.entropy_bits)
    assert maps.stats.shape == (2, 3)
    rows: AttentionRows = maps  # the interface a host reads (checked by mypy)
    assert rows.tokens == TOKENS
    with pytest.raises(FocusError, match=r"focus index 4 is outside 0\.\.3"):
        maps.rows(4)
    with pytest.raises(UnknownHeadError, match=r"head 3 is outside 0\.\.2"):
        maps.head(0, 3)


def test_keys_may_differ_from_queries() -> None:
    w = np.full((1, 1, 2, 5), 0.2)  # two queries over five keys
    maps = AttentionMaps.of(w, ("a", "b"), key_tokens=("1", "2", "3", "4", "5"))
    assert maps.key_tokens == ("1", "2", "3", "4", "5") and maps.rows(1).shape == (1, 1, 5)


def test_the_weights_are_a_private_read_only_copy() -> None:
    w = weights().copy()  # attend's own weights are read-only
    maps = AttentionMaps.of(w, TOKENS)
    w[0, 0, 0, 0] = 7.0
    assert maps.weights[0, 0, 0, 0] == 1.0  # row 0 of a causal head is one-hot on itself
    with pytest.raises(ValueError, match="read-only"):
        maps.weights[0, 0, 0, 0] = 0.5


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        (lambda w: w[0], MapShapeError, r"shaped \(layers, heads, n, m\), got \(1, 4, 4\)"),
        (lambda w: w.astype(np.int64), MapValueError, "floating point, got dtype int64"),
        (lambda w: np.where(w == w.max(), np.nan, w), MapValueError, "is not finite: nan"),
        (lambda w: w - 0.01, MapValueError, r"\(0, 0, 0, 1\) is negative"),
        (lambda w: w * 1.01, RowSumError, r"row \(layer, head, row\) \(0, 0, 0\) sums to 1.01"),
        (lambda w: np.log(w + 1e-9), MapValueError, "is negative"),  # scores, not weights
    ],
)
def test_what_is_not_attention_is_named(change, error, message: str) -> None:  # type: ignore[no-untyped-def]
    w = weights()[:1, :1]  # (1, 1, 4, 4)
    with pytest.raises(error, match=message):
        AttentionMaps(change(w), TOKENS, TOKENS)


def test_labels_must_match_rows_and_columns() -> None:
    with pytest.raises(MapShapeError, match=r"got 3 labels for 4 query rows"):
        AttentionMaps.of(weights(), TOKENS[:3], key_tokens=TOKENS)
    with pytest.raises(MapShapeError, match=r"got 5 labels for 4 key columns"):
        AttentionMaps.of(weights(), TOKENS, key_tokens=(*TOKENS, "x"))


def test_the_tolerance_follows_the_dtype() -> None:
    assert row_tolerance(np.dtype(np.float64), 4) == 1e-5  # the float32 floor
    assert (
        row_tolerance(np.dtype(np.float16), 2048) > 1e-2 > row_tolerance(np.dtype(np.float32), 2048)
    )
    half = weights(n=64).astype(np.float16)  # each weight rounded to float16
    assert AttentionMaps.of(half, tuple("t" * 64)).weights.dtype == np.float16
    with pytest.raises(RowSumError):
        AttentionMaps.of(weights(n=64) * (1 + 3e-5), tuple("t" * 64))  # beyond float32's reach
