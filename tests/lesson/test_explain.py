"""explain_lesson: one options object in, every head's beats and the lab's notes out."""

import numpy as np
import pytest

from attnlab import lesson
from attnlab.errors import AttnlabError, EmptySequenceError
from attnlab.lesson.explain import explain_lesson
from attnlab.lesson.options import LessonOptions
from attnlab.lesson.shuffle import shuffle_check

RIVER = "by the river bank"


def test_the_seed_numbers_through_the_options_object() -> None:
    ex = explain_lesson(RIVER, LessonOptions(), focus="bank")
    assert ex.focus == 3 and [round(float(w), 2) for w in ex.trace.weights[3]] == [
        0.11, 0.07, 0.69, 0.14,
    ]  # fmt: skip
    assert ex.answer == 2 and ex.notes.predictions[2].startswith("Right")


@pytest.mark.parametrize("kind", ["sinusoidal", "rope"])
def test_first_heads_beats_are_the_top_level_beats_with_positions(kind: str) -> None:
    # the bug: with positions on, the top-level narration and heads[0].narration differed
    ex = explain_lesson(RIVER, LessonOptions(positions=kind, heads=2))
    extra = "sinusoidal" if kind == "sinusoidal" else "RoPE"
    for beats in ex.head_beats:  # every head is told what positions did, not only the top level
        assert any(extra in b.text for b in beats)
    assert ex.head_beats[0] == ex.beats


def test_causal_shuffle_blames_the_mask_not_word_order() -> None:
    # the bug: under a causal mask with no positions the note blamed word order
    ex = explain_lesson(RIVER, LessonOptions(causal=True, shuffle=2))
    assert ex.shuffle is not None and not all(ex.shuffle.unchanged)
    note = ex.shuffle.note
    assert "causal mask" in note and "there are no positions" in note


def test_a_custom_mask_reaches_the_shuffle_check() -> None:
    # the bug: a custom mask was silently dropped from the shuffle check
    mask = np.ones((4, 4), dtype=bool)
    mask[3, 2] = False  # bank may not see river
    options = LessonOptions(mask=mask)
    ex = explain_lesson(RIVER, LessonOptions(shuffle=1, mask=mask))
    assert ex.trace.weights[3, 2] == 0
    plain = shuffle_check(RIVER, LessonOptions(), seed=1)
    masked = shuffle_check(RIVER, options, seed=1)
    assert np.allclose(masked.before, lesson.run(RIVER, options).outputs)
    assert not np.allclose(masked.before, plain.before)
    assert all(masked.unchanged)  # the mask follows the tokens, so order still does not matter
    assert ex.shuffle is not None and np.allclose(ex.shuffle.before, masked.before)


def test_wrong_axis_keeps_the_right_run_and_says_what_moved() -> None:
    ex = explain_lesson(RIVER, LessonOptions(axis="queries"))
    assert ex.right_axis is not None and ex.right_axis.axis == "keys"
    assert ex.notes.wrong_axis is not None and "down the columns" in ex.notes.wrong_axis


def test_bad_arguments_are_named_errors() -> None:
    with pytest.raises(EmptySequenceError):
        explain_lesson(None)  # type: ignore[arg-type]
    with pytest.raises(AttnlabError, match="LessonOptions"):
        explain_lesson(RIVER, {"mode": "scaled"})  # type: ignore[arg-type]


def test_predict_first_has_the_score_beat_without_its_answer() -> None:
    ex = explain_lesson()
    score = next(b.text for b in ex.beats if b.key == "score")
    assert "The best match is river." in score
    assert "river" not in ex.notes.score_withheld.split(". ")[-1]
    assert ex.notes.score_withheld.startswith(score.split(" The best match")[0])
