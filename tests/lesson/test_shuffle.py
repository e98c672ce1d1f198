"""Shuffle: order blindness without positions, and measurable movement with either kind."""

import numpy as np
import pytest

from attnlab import lesson
from attnlab.encode.lesson_json import encode_shuffle
from attnlab.errors import ShuffleError
from attnlab.lesson.options import LessonOptions
from attnlab.lesson.shuffle import permutation, shuffle_check, shuffle_every_kind

RIVER = "by the river bank"


@pytest.mark.parametrize("seed", range(6))
def test_no_positions_every_output_is_unchanged(seed: int) -> None:
    c = shuffle_check(RIVER, seed=seed)
    assert c.shuffled_tokens != c.tokens and sorted(c.shuffled_tokens) == sorted(c.tokens)
    assert all(c.unchanged) and c.distances.max() < 1e-12


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("kind", ["sinusoidal", "rope"])
def test_positions_break_equivariance(seed: int, kind: str) -> None:
    c = shuffle_check(RIVER, LessonOptions(positions=kind), seed=seed)
    assert not all(c.unchanged) and c.distances.max() > 0.01


def test_after_is_the_shuffled_run_put_back_in_order() -> None:
    c = shuffle_check("at the savings bank", LessonOptions(positions="sinusoidal"), seed=1)
    shuffled = lesson.run(" ".join(c.shuffled_tokens), LessonOptions(positions="sinusoidal"))
    for new, orig in enumerate(c.permutation):
        assert np.array_equal(c.after[orig], shuffled.outputs[new])
    assert np.allclose(c.distances, np.linalg.norm(c.after - c.before, axis=1))


def test_json_rows_name_each_token_and_its_move() -> None:
    d = encode_shuffle(shuffle_check(RIVER, seed=1))
    assert d["all_unchanged"] is True and d["positions"] == "none"
    row = d["rows"][3]
    assert row["token"] == "bank" and d["shuffled_tokens"][row["to"]] == "bank"
    assert row["unchanged"] is True and row["before"] == pytest.approx(row["after"])
    assert set(row) == {"token", "from", "to", "before", "after", "distance", "unchanged"}


def test_every_kind_and_options_pass_through() -> None:
    checks = shuffle_every_kind(RIVER, LessonOptions(temperature=0.5), seed=2)
    assert [k for k in checks] == ["none", "sinusoidal", "rope"]
    assert all(checks["none"].unchanged) and not all(checks["rope"].unchanged)
    assert not all(
        shuffle_check(RIVER, LessonOptions(causal=True), seed=2).unchanged
    )  # a mask reads order too


def test_permutation_always_moves_and_rejects_bad_seeds() -> None:
    for seed in range(30):
        assert permutation(2, seed) == (1, 0)
    assert permutation(1, 0) == (0,)
    for bad in (-1, 1.5, "x", True):
        with pytest.raises(ShuffleError, match="seed"):
            permutation(4, bad)
