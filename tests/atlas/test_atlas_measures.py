"""Each statistic on hand-made attention patterns whose answer is known (atlas/measures.py)."""

import math

import numpy as np
import pytest

from attnlab.atlas.measures import MIN_EXEMPLAR_TOKENS, distance_bins, text_sums
from attnlab.atlas.stats import BINS, SCALE, STATISTICS

N = 6
S = {name: i for i, name in enumerate(STATISTICS)}


def one_head(w: np.ndarray) -> np.ndarray:
    return w[None, None]  # (1, 1, n, n)


def means(w: np.ndarray, ids: tuple[int, ...] = tuple(range(N)), **kw: float) -> dict[str, float]:
    sums = text_sums(one_head(w), ids, uid=0, text="t", top_k=2, **kw)  # type: ignore[arg-type]
    m = sums.means()[:, 0, 0]
    return {name: float(m[S[name]]) for name in STATISTICS}


def previous_head(n: int = N) -> np.ndarray:
    w = np.zeros((n, n))
    w[0, 0] = 1
    w[np.arange(1, n), np.arange(n - 1)] = 1
    return w


def test_a_pure_previous_token_head() -> None:
    m = means(previous_head())
    assert m["previous"] == 1 and m["self"] == 0 and m["top1"] == 1
    assert m["entropy"] == 0 and m["distance"] == 1
    assert m["first"] == pytest.approx(2 / N)  # rows 0 and 1 look at token 0
    assert m["sink"] == 1  # α = 1/3 > ε = 0.3: a sink on this text, by Gu et al.'s rule
    assert means(previous_head(), epsilon=0.34)["sink"] == 0


def test_the_sink_threshold_is_strict_and_per_text() -> None:
    assert means(previous_head(), epsilon=0.3)["first"] == pytest.approx(1 / 3)
    # α = 1/3 > 0.3, so with the paper's ε this head is a sink on this text
    sums = text_sums(one_head(previous_head()), tuple(range(N)), uid=0, text="t", top_k=1)
    assert sums.totals[S["sink"], 0, 0] == SCALE and sums.counts[S["sink"], 0, 0] == 1


def test_a_pure_sink() -> None:
    w = np.zeros((N, N))
    w[:, 0] = 1
    m = means(w)
    assert m["first"] == 1 and m["sink"] == 1 and m["top1"] == 1 and m["entropy"] == 0
    assert m["previous"] == pytest.approx(1 / (N - 1))  # only row 1's previous is token 0
    assert m["distance"] == pytest.approx(np.mean(np.arange(1, N)))


def test_a_uniform_causal_head_has_log2_entropy() -> None:
    w = np.tril(np.ones((N, N)))
    w /= w.sum(1, keepdims=True)
    m = means(w)
    assert m["entropy"] == pytest.approx(np.mean([math.log2(i + 1) for i in range(1, N)]))
    assert m["top1"] == pytest.approx(np.mean([1 / (i + 1) for i in range(1, N)]))


def test_repeat_counts_only_rows_whose_token_came_before() -> None:
    ids = (5, 6, 5, 7, 6, 5)  # rows 2, 4, 5 have an earlier copy
    w = np.zeros((N, N))
    w[0, 0] = w[1, 0] = w[3, 0] = 1
    w[2, 0] = 1  # all on the earlier 5
    w[4, 1], w[4, 0] = 0.5, 0.5  # half on the earlier 6
    w[5, 0], w[5, 2], w[5, 4] = 0.25, 0.25, 0.5  # 0.5 on the earlier 5s
    sums = text_sums(one_head(w), ids, uid=0, text="t", top_k=1)
    assert sums.counts[S["repeat"], 0, 0] == 3
    assert sums.means()[S["repeat"], 0, 0] == pytest.approx((1 + 0.5 + 0.5) / 3)


def test_the_distance_histogram_holds_each_rows_weight() -> None:
    assert distance_bins(np.array([0, 1, 2, 3, 4, 7, 8, 255, 256, 9999])).tolist() == [
        0,
        1,
        2,
        2,
        3,
        3,
        4,
        8,
        9,
        9,
    ]
    sums = text_sums(one_head(previous_head()), tuple(range(N)), uid=0, text="t", top_k=1)
    h = sums.histogram[0, 0] / SCALE
    assert len(h) == len(BINS) and h[1] == N - 1 and h.sum() == N - 1


def test_an_exemplar_is_the_texts_mean_and_the_row_showing_it_most() -> None:
    n = MIN_EXEMPLAR_TOKENS + 2
    w = previous_head(n)
    w[3] = 0
    w[3, 3] = 1  # row 3 looks at itself
    sums = text_sums(one_head(w), tuple(range(n)), uid=7, text="seven", top_k=2)
    s = S["self"]
    assert sums.ex_uid[s, 0, 0].tolist()[0] == 7 and sums.ex_position[s, 0, 0, 0] == 3
    assert sums.ex_value[s, 0, 0, 0] == round(SCALE / (n - 1))
    assert sums.ex_value[s, 0, 0, 1] == -1  # the second slot is empty
    assert sums.texts == {7: "seven"}
    assert sums.ex_value[S["induction"], 0, 0, 0] == -1  # no probe value from a corpus text


def test_weights_that_do_not_fit_the_tokens_are_refused() -> None:
    with pytest.raises(ValueError, match="do not fit 3 tokens"):
        text_sums(one_head(previous_head()), (1, 2, 3), uid=0, text="t", top_k=1)


def test_a_text_too_short_to_show_anything_counts_but_is_no_exemplar() -> None:
    # 'breaking camp' is [CLS] breaking camp [SEP]: a head has nowhere else to look, so its
    # 0.96 on [SEP] ranked above every real sentence
    short, long = MIN_EXEMPLAR_TOKENS - 1, MIN_EXEMPLAR_TOKENS
    a = text_sums(one_head(previous_head(short)), tuple(range(short)), uid=1, text="s", top_k=2)
    b = text_sums(one_head(previous_head(long)), tuple(range(long)), uid=2, text="l", top_k=2)
    assert a.counts[S["previous"], 0, 0] == short - 1  # its rows are in the mean
    assert (a.ex_value == -1).all() and a.texts == {}
    merged = a.merge(b)
    assert merged.ex_uid[S["previous"], 0, 0].tolist()[0] == 2 and merged.texts == {2: "l"}
