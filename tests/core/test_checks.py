"""core.checks: indices spelled in ASCII digits only, whole numbers, labels, numeric arrays."""

import numpy as np
import pytest

from attnlab.core.checks import as_float, as_index, labels, whole_number
from attnlab.errors import ArgumentTypeError, FocusError, ShapeError


@pytest.mark.parametrize(("text", "index"), [("3", 3), (" 12 ", 12), ("-1", -1), (7, 7),
                                             (np.int64(2), 2), ("999999", 999999)])  # fmt: skip
def test_an_index_is_ascii_digits(text, index) -> None:
    assert as_index(text) == index


@pytest.mark.parametrize("word", ["bank", "²", "٣", "--5", "-", "", "1.5", "1e3", "+3"])
def test_anything_else_is_a_word(word) -> None:
    assert "²".isdigit()  # why str.isdigit cannot decide: int('²') fails
    assert as_index(word) is None


@pytest.mark.parametrize("text", ["9" * 7, "9" * 5000, "-" + "9" * 5000])
def test_an_index_of_too_many_digits_is_a_focus_error(text) -> None:
    with pytest.raises(FocusError, match=f"has {len(text.lstrip('-'))} digits"):
        as_index(text)


def test_whole_number_bounds_and_types() -> None:
    assert whole_number(3, "n", lo=1, hi=5) == 3
    for bad in (0, 6, 1.0, True, None, "3"):
        with pytest.raises(ArgumentTypeError, match="n must be"):
            whole_number(bad, "n", lo=1, hi=5)


def test_labels_must_be_n_texts() -> None:
    assert labels(["a", "b"], 2) == ("a", "b")
    with pytest.raises(ShapeError, match="got 1 tokens for 2 rows"):
        labels(["a"], 2)
    for bad in ("ab", None, 5, ["a", 1]):
        with pytest.raises(ArgumentTypeError):
            labels(bad, 2)


def test_as_float_widens_integers_and_refuses_the_rest() -> None:
    assert as_float([1, 2], "x").dtype == np.float64
    assert as_float(np.ones(2, np.float16), "x").dtype == np.float16
    for bad in (None, "1", {"a": 1}, [1, "a"], [[1, 2], [3]]):
        with pytest.raises(ShapeError):
            as_float(bad, "x")
