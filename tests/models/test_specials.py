"""[CLS] and [SEP] hidden: the words' weights unchanged, or renormalised to sum to 1."""

import numpy as np
import pytest

from attnlab.models.specials import without_specials

TOKENS = ("[CLS]", "by", "the", "bank", "[SEP]")
SPECIAL = ("[CLS]", "[SEP]")


def test_hidden_without_renormalising_keeps_the_numbers() -> None:
    w = np.random.default_rng(2).dirichlet(np.ones(5), size=5)  # (5, 5)
    sub, kept, hidden = without_specials(w, TOKENS, SPECIAL, renormalise=False)
    assert kept.tolist() == [1, 2, 3] and sub == pytest.approx(w[1:4, 1:4])
    assert hidden == pytest.approx(w[1:4, [0, 4]].sum(axis=1))


def test_renormalised_rows_sum_to_one_in_the_same_proportions() -> None:
    w = np.random.default_rng(3).dirichlet(np.ones(5), size=5)
    sub, _, _ = without_specials(w, TOKENS, SPECIAL, renormalise=True)
    assert sub.sum(axis=1) == pytest.approx(1)
    assert sub[0] / sub[0, 0] == pytest.approx(w[1, 1:4] / w[1, 1])
