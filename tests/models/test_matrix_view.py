"""A head's matrix as the picture shows it: pooled to a side, special tokens hidden on request."""

from __future__ import annotations

import numpy as np

from attnlab.models.matrix_view import matrix_view


def test_a_short_head_is_its_own_matrix_and_hiding_drops_cls_and_sep(minilm) -> None:  # type: ignore[no-untyped-def]
    mt = minilm.trace("by the river bank")
    t = mt.head(0, 2)
    whole = matrix_view(mt, t, layer=0, head=2, how="max", specials="show")
    assert np.array_equal(whole.cells, t.weights) and whole.shown == mt.n
    assert whole.hidden is None and not whole.causal
    hidden = matrix_view(mt, t, layer=0, head=2, how="max", specials="renormalise")
    assert hidden.kept.tolist() == [1, 2, 3, 4] and hidden.shown == 4
    assert np.allclose(hidden.cells.sum(axis=-1), 1, atol=1e-6)
    on_specials = t.weights[1:5][:, [0, 5]].sum(axis=-1)  # (4,) each word's weight on them
    assert hidden.hidden is not None and np.allclose(hidden.hidden, on_specials, atol=1e-6)


def test_a_long_head_is_pooled_to_the_side(smollm2) -> None:  # type: ignore[no-untyped-def]
    mt = smollm2.trace(" the river bank" * 40)
    t = mt.head(1, 0)
    m = matrix_view(mt, t, layer=1, head=0, how="mean", specials="show", side=32)
    assert m.cells.shape == (32, 32) and m.causal and m.edges[0] == 0
    assert m.edges.shape == (32,) and list(m.edges) == sorted(m.edges)
