"""The window of a long text: the sink, the focus's neighbours, its strongest keys, the pair."""

import numpy as np

from attnlab.models.window import RADIUS, TOP, WHOLE_AT, window


def test_a_short_text_is_shown_whole() -> None:
    assert window(np.full(WHOLE_AT, 1 / WHOLE_AT), 3) == tuple(range(WHOLE_AT))


def test_a_long_row_keeps_the_first_the_neighbours_and_the_strongest_keys() -> None:
    n, focus = 2048, 1500
    row = np.zeros(n)
    row[[7, 300, 1200]] = [0.3, 0.2, 0.1]
    rows = window(row, focus, extra=(900,))
    assert rows == tuple(sorted(rows)) and len(set(rows)) == len(rows)
    assert {0, 7, 300, 1200, 900, focus}.issubset(rows)
    assert set(range(focus - RADIUS, focus + RADIUS + 1)).issubset(rows)
    assert len(rows) <= 2 + 2 * RADIUS + 1 + TOP + 1
