"""Per-head diagnostics from weights alone: golden rows and agreement with the direct formulas."""

import numpy as np
import pytest

from attnlab.core.attention import attend, causal_mask
from attnlab.core.diagnostics import HeadStats, head_stats, trace_stats
from attnlab.core.softmax import entropy_bits


def test_an_identity_head_is_all_itself() -> None:
    s = head_stats(np.eye(4)[None])  # (1, 4, 4) one head, every token on itself
    assert s.shape == (1,)
    assert s.itself[0] == 1 and s.top1[0] == 1 and s.entropy_bits[0] == 0
    assert s.previous[0] == 0 and s.first[0] == pytest.approx(0.25)  # only row 0 looks at 0


def test_a_previous_token_head_and_a_sink_head() -> None:
    prev = np.eye(5, k=-1)  # (5, 5) row i on key i-1
    prev[0, 0] = 1.0  # row 0 has no previous token: it looks at itself
    sink = np.zeros((5, 5))
    sink[:, 0] = 1.0  # every row on the first token
    s = head_stats(np.stack([prev, sink]))  # (2, 5, 5)
    assert s.previous.tolist() == [1.0, 0.25]  # rows 1..4; the sink's row 1 is on key 0
    assert s.first.tolist() == [0.4, 1.0] and s.itself.tolist() == [0.2, 0.2]


def test_a_uniform_row_has_log2_m_bits() -> None:
    s = head_stats(np.full((3, 8), 1 / 8)[None])  # (1, 3, 8)
    assert s.entropy_bits[0] == pytest.approx(3.0) and s.top1[0] == pytest.approx(1 / 8)


def test_random_heads_agree_with_the_direct_formulas() -> None:
    rng = np.random.default_rng(0)
    q, k, v = rng.normal(size=(3, 4, 7, 8)) * 2  # (h, n, d) each
    w = attend(q, k, v, mask=causal_mask(7)).weights  # (4, 7, 7) zeros above the diagonal
    s = head_stats(w.astype(np.float32))
    assert np.allclose(s.entropy_bits, entropy_bits(w).mean(-1), atol=1e-5)
    assert np.allclose(s.first, w[:, :, 0].mean(-1))
    assert np.allclose(s.itself, np.einsum("hii->hi", w).mean(-1))
    assert np.allclose(s.previous, np.array([[w[h, i, i - 1] for i in range(1, 7)]
                                             for h in range(4)]).mean(-1))  # fmt: skip
    assert np.allclose(s.top1, w.max(-1).mean(-1))


def test_queries_are_the_last_keys_when_there_are_more_keys() -> None:
    w = np.zeros((2, 5))  # (n, m) two new queries against five cached keys
    w[0, 3] = w[1, 4] = 1.0  # each on its own position: 3 and 4
    s = head_stats(w[None])
    assert s.itself[0] == 1 and s.previous[0] == 0
    more_queries = head_stats(np.full((5, 2), 0.5)[None])
    assert np.isnan(more_queries.itself[0]) and np.isnan(head_stats(np.ones((1, 1, 1))).previous)


def test_stack_makes_layers_by_heads_and_is_read_only() -> None:
    one = head_stats(np.eye(3)[None].repeat(2, 0))  # (2,) heads
    s = HeadStats.stack([one, one, one])
    assert s.shape == (3, 2) and s.top1.dtype == np.float64
    with pytest.raises(ValueError, match="read-only"):
        s.top1[0, 0] = 0.0


@pytest.mark.parametrize("masked", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_entropy_from_scores_is_the_definitions(masked: bool, dtype: type) -> None:
    rng = np.random.default_rng(5)
    q, k, v = (rng.normal(size=(6, 40, 16)).astype(dtype) * 3 for _ in range(3))  # (h, n, d)
    t = attend(q, k, v, mask=causal_mask(40) if masked else None)
    cheap = trace_stats(t)
    direct = head_stats(t.weights)
    assert np.allclose(cheap.entropy_bits, direct.entropy_bits, rtol=0, atol=2e-5)
    assert np.allclose(cheap.entropy_bits, entropy_bits(t.weights.astype(np.float64)).mean(-1),
                       rtol=0, atol=2e-5)  # fmt: skip
    assert np.array_equal(cheap.top1, direct.top1) and np.array_equal(cheap.itself, direct.itself)


@pytest.mark.parametrize("mode", ["unscaled", "uniform"])
def test_trace_stats_follow_the_mode(mode: str) -> None:
    rng = np.random.default_rng(6)
    q, k, v = rng.normal(size=(3, 2, 9, 4))  # (h, n, d) each
    t = attend(q, k, v, mode=mode, mask=causal_mask(9))  # type: ignore[arg-type]
    assert np.allclose(trace_stats(t).entropy_bits, head_stats(t.weights).entropy_bits, atol=1e-9)
    columns = attend(q, k, v, axis="queries")  # not row distributions: the definition is used
    assert np.array_equal(
        trace_stats(columns).entropy_bits, head_stats(columns.weights).entropy_bits
    )
