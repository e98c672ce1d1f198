"""The head view's layer, computed once: each row's strongest keys, exact, the means streamed by
blocks of query rows (never the (L, H, n, n) stack), the same whatever the block size."""

import numpy as np
import pytest
from test_model_trace import gqa_trace

from attnlab.core.softmax import softmax
from attnlab.models.layer_heads import layer_heads, top_rows


def test_top_rows_keep_each_rows_strongest_keys_in_order() -> None:
    w = np.array([[0.1, 0.5, 0.1, 0.3], [0.25, 0.25, 0.25, 0.25]])
    t = top_rows(w, 2)
    assert t.keys.tolist() == [[1, 3], [0, 1]]  # a tie goes to the earlier key
    assert t.weights.tolist() == [[0.5, 0.3], [0.25, 0.25]]
    assert np.isclose(t.share, (0.8 + 0.5) / 2) and t.floor == 0.5
    whole = top_rows(w, 16)
    assert whole.keys.shape == (2, 4) and whole.floor == 0.0 and np.isclose(whole.share, 1.0)


def test_every_weight_of_at_least_one_over_k_is_kept() -> None:
    rng = np.random.default_rng(3)
    w = softmax(rng.normal(scale=3.0, size=(5, 40, 300)))  # (h, n, m) rows summing to 1
    t = top_rows(w, 8)
    for h, i in np.ndindex(5, 40):
        big = set(np.flatnonzero(w[h, i] >= t.floor).tolist())
        assert big <= set(t.keys[h, i].tolist())
        assert np.array_equal(t.weights[h, i], np.sort(w[h, i])[::-1][:8])
    assert np.allclose(t.share, np.sort(w, axis=-1)[..., -8:].sum(-1).mean(-1))


@pytest.mark.parametrize("block", [1, 3, 256])
def test_the_layer_and_both_means_are_the_traces_weights(block: int) -> None:
    mt, _ = gqa_trace(layers=3)
    lh = layer_heads(mt, 1, top=4, block=block)
    a = np.stack([[mt.head(la, h).weights for h in range(mt.n_heads)] for la in range(3)])
    want = top_rows(a[1], 4)
    assert np.array_equal(lh.heads.keys, want.keys)
    assert np.allclose(lh.heads.weights, want.weights) and np.allclose(lh.heads.share, want.share)
    assert lh.mean_layers is not None
    for got, mean in ((lh.mean_heads, a[1].mean(0)), (lh.mean_layers, a.mean((0, 1)))):
        ref = top_rows(mean, 4)
        assert np.array_equal(got.keys, ref.keys) and np.allclose(got.weights, ref.weights)
        assert np.allclose(got.share, ref.share)
    assert (lh.top, lh.n, lh.heads.floor) == (4, mt.n, 0.25)


def test_no_stack_of_every_matrix_is_built() -> None:
    """Bug: the head view read ModelTrace.attentions, (L, H, n, n): 9.6 GiB at 2,048 SmolLM2
    tokens for the mean over layers."""
    mt, _ = gqa_trace(layers=2)
    layer_heads(mt, 0)
    assert "attentions" not in mt.__dict__


def test_the_mean_over_layers_is_left_out_of_a_long_text_and_kept_for_the_next_layer() -> None:
    mt, _ = gqa_trace(layers=2)
    assert layer_heads(mt, 0, mean_layers_max=mt.n - 1).mean_layers is None
    first = layer_heads(mt, 0).mean_layers
    assert first is not None and layer_heads(mt, 1).mean_layers is first  # kept, not recomputed
