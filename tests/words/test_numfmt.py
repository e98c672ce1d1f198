"""The number-writing rule shared by the CLI, the narration and the page."""

import math

from attnlab.words.numfmt import num, percent, vec


def test_num_drops_trailing_zeros_and_minus_zero() -> None:
    assert [num(0.46), num(0.0), num(2.3), num(2.0), num(-0.001)] == ["0.46", "0", "2.3", "2", "0"]
    assert num(0.685417) == "0.69" and num(1.4337, places=3) == "1.434"


def test_non_finite_by_name() -> None:
    assert (num(-math.inf), num(math.inf), num(math.nan)) == ("−∞", "∞", "NaN")


def test_vec_and_percent() -> None:
    assert vec([2.3, 2.3, 0, 0]) == "[2.3, 2.3, 0, 0]"
    assert percent(0.6854) == "69%"
