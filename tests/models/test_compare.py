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
