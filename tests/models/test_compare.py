"""The same word in two contexts, measured: rows per head and cosine layer by layer."""

import numpy as np
import pytest

from attnlab.errors import FocusError
from attnlab.models.compare import compare_word


def test_bank_starts_identical_and_ends_apart(minilm) -> None:
    c = compare_word(minilm)
    assert (c.index_a, c.index_b) == (4, 4)
    assert c.cosine.shape == (7,) and c.cosine[0] == pytest.approx(1, abs=1e-6)
    assert c.cosine[-1] < c.cosine[0]
    assert c.rows_a.shape == (6, 12, 6)
    assert np.allclose(
        c.rows_a, c.a.attentions[:, :, 4, :], rtol=0, atol=1e-6
    )  # one row recomputed
    assert "cosine 1" in c.note


def test_a_word_missing_from_one_text_names_that_text(minilm) -> None:
    with pytest.raises(FocusError, match="'river' is not a token of text b"):
        compare_word(minilm, "river", "by the river bank", "at the savings bank")
    with pytest.raises(FocusError, match="choose a word"):
        compare_word(minilm, "3")


def test_the_user_picks_which_occurrence_is_compared(minilm) -> None:
    from attnlab.models.compare import compare

    a, b = minilm.trace("the bank by the bank"), minilm.trace("at the savings bank")
    first, second = compare(a, b, "bank"), compare(a, b, "bank", occurrence_a=2)
    assert (first.index_a, second.index_a) == (2, 5)
    assert [w.token for w in second.occurrences_a] == [2, 5]
    assert np.allclose(second.rows_a, a.attentions[:, :, 5, :], atol=1e-6)
    assert not np.allclose(first.cosine, second.cosine)
    with pytest.raises(FocusError, match="in text a: 'bank' occurs 2 times"):
        compare(a, b, "bank", occurrence_a=3)


def test_a_word_of_pieces_is_compared_by_its_last_piece(minilm) -> None:
    from attnlab.models.compare import compare

    a, b = minilm.trace("a riverbank"), minilm.trace("the riverbank flooded")
    c = compare(a, b, "riverbank")  # was refused: "riverbank" is no single token
    assert a.tokens[2:4] == ("river", "##bank") and (c.index_a, c.index_b) == (3, 3)
    assert c.word_a is not None and list(c.word_a.pieces) == [2, 3]


def test_the_difference_on_shared_keys_is_a_minus_b(minilm) -> None:
    c = compare_word(minilm)  # by the river bank / at the savings bank
    assert [c.a.tokens[i] for i, _ in c.shared] == ["[CLS]", "the", "bank", "[SEP]"]
    assert c.shared == ((0, 0), (2, 2), (4, 4), (5, 5))
    d = c.difference
    assert d.shape == (6, 12, 4)
    a, b = c.a.attentions[:, :, 4], c.b.attentions[:, :, 4]
    assert np.allclose(d, a[..., [0, 2, 4, 5]] - b[..., [0, 2, 4, 5]], atol=1e-6)


def test_repeated_tokens_pair_in_order() -> None:
    from attnlab.models.compare import shared_keys

    assert shared_keys(("x", "a", "a", "b"), ("a", "c", "a", "a")) == ((1, 0), (2, 2))
