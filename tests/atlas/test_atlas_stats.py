"""The atlas's sums merge exactly: any order and grouping of shards, identical (atlas/stats.py)."""

import itertools

import numpy as np
import pytest

from attnlab.atlas.measures import text_sums
from attnlab.atlas.run import tree_merge
from attnlab.atlas.stats import NO_TEXT, STATISTICS, HeadSums, fixed


def random_texts(count: int, seed: int = 0) -> list[HeadSums]:
    rng = np.random.default_rng(seed)
    out = []
    for uid in range(count):
        n = int(rng.integers(2, 12))
        a = rng.dirichlet(np.full(n, 0.3), size=(2, 3, n))  # (L, H, n, n) rows sum to 1
        out.append(
            text_sums(
                a,
                tuple(int(i) for i in rng.integers(0, 4, n)),
                uid=uid,
                text=f"text {uid}",
                top_k=3,
            )
        )
    return out


def merged(parts: list[HeadSums]) -> HeadSums:
    return tree_merge(parts, HeadSums.merge)


def test_any_split_and_order_gives_identical_sums() -> None:
    texts = random_texts(60)
    one = merged(texts)
    for shards in (3, 7):
        bounds = np.linspace(0, len(texts), shards + 1).astype(int)
        parts = [merged(texts[a:b]) for a, b in itertools.pairwise(bounds)]
        assert merged(parts) == one
        assert merged(parts[::-1]) == one
    rng = np.random.default_rng(1)
    assert merged([texts[i] for i in rng.permutation(len(texts))]) == one


def first_weight_text(alpha: float, uid: int) -> HeadSums:
    """A one-head text of two tokens whose every query puts `alpha` on the first token."""
    a = np.array([[[[alpha, 1 - alpha], [alpha, 1 - alpha]]]])  # (1, 1, 2, 2)
    return text_sums(a, (1, 2), uid=uid, text=f"text {uid}", top_k=1)


def test_texts_whose_float_sums_depend_on_the_grouping_merge_to_one_total() -> None:
    """Why totals are integers: 0.1, 0.2 and 0.3 summed as floats in two groupings disagree;
    the same three texts' sums merged in those two groupings must not."""
    values = [0.1, 0.2, 0.3]
    assert (values[0] + values[1]) + values[2] != values[0] + (values[1] + values[2])
    a, b, c = (first_weight_text(v, uid) for uid, v in enumerate(values))
    left, right = a.merge(b).merge(c), a.merge(b.merge(c))
    assert left == right
    s = STATISTICS.index("first")
    assert left.totals[s, 0, 0] == right.totals[s, 0, 0] == sum(int(fixed(v)) for v in values)
    assert left.counts[s, 0, 0] == 3
    assert left.means()[s, 0, 0] == pytest.approx(0.2, abs=2**-24)


def test_empty_is_the_unit_and_exemplars_are_the_best_k() -> None:
    texts = random_texts(20)
    one = merged(texts)
    assert HeadSums.empty(2, 3, top_k=3).merge(one) == one
    s = STATISTICS.index("previous")
    best = sorted(
        ((int(t.ex_value[s, 1, 2, 0]), int(t.ex_uid[s, 1, 2, 0])) for t in texts),
        key=lambda vu: (-vu[0], vu[1]),
    )[:3]
    assert (
        list(zip(one.ex_value[s, 1, 2].tolist(), one.ex_uid[s, 1, 2].tolist(), strict=True)) == best
    )
    assert set(one.texts) == set(np.unique(one.ex_uid).tolist()) - {
        NO_TEXT
    }  # only the texts named kept


def test_bytes_round_trip_and_a_mismatch_is_refused() -> None:
    one = merged(random_texts(10))
    assert HeadSums.from_bytes(one.to_bytes()) == one
    with pytest.raises(ValueError, match="different models"):
        one.merge(HeadSums.empty(1, 3, top_k=3))
