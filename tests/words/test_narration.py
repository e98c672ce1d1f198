"""The narration: each beat's words carry the trace's numbers, for any focus and mode."""

import numpy as np
import pytest

from attnlab import attend, lesson
from attnlab.lesson.options import LessonOptions
from attnlab.words.narration import BEATS, narrate, score_withheld

RIVER = "by the river bank"


def texts(sentence: str = RIVER, focus: int = 3, **kw) -> dict[str, str]:
    return {b.key: b.text for b in narrate(lesson.run(sentence, LessonOptions(**kw)), focus)}


def test_six_beats_in_order() -> None:
    beats = narrate(lesson.run(RIVER), 3)
    assert [b.title for b in beats] == [
        "Tokens",
        "Project",
        "Score",
        "Softmax",
        "Blend",
        "Parallel",
    ]
    assert [b.key for b in beats] == [k for k, _ in BEATS]


def test_scaled_beats_carry_the_seed_numbers() -> None:
    t = texts()
    assert "[2.3, 2.3, 0, 0]" in t["project"]
    for part in (
        "by 0.92 / 2 = 0.46",
        "the 0 / 2 = 0",
        "river 4.6 / 2 = 2.3",
        "bank 1.38 / 2 = 0.69",
    ):
        assert part in t["score"]
    assert "by 0.11, the 0.07, river 0.69, bank 0.14" in t["softmax"]
    assert "69%" in t["softmax"] and "river" in t["softmax"]
    assert "[1.43, 0.06, 0.14, 0]" in t["blend"] and "geographic" in t["blend"]
    assert "bank → river is 0.69 but river → bank is 0.12" in t["parallel"]


def test_savings_blend_points_financial() -> None:
    t = texts("at the savings bank")
    assert "financial" in t["blend"] and "savings" in t["blend"]


def test_unscaled_and_uniform_say_what_changed() -> None:
    un = texts(mode="unscaled")
    assert "No √dₖ" in un["score"] and "/ 2" not in un["score"]
    w = lesson.run(RIVER, LessonOptions(mode="unscaled")).weights[3]
    assert f"river {round(float(w[2]), 2)}" in un["softmax"]
    uni = texts(mode="uniform")
    assert "0.25" in uni["softmax"] and "plain average" in uni["blend"]
    assert "symmetric" in uni["parallel"]


def test_wrong_axis_says_the_row_does_not_sum_to_one() -> None:
    t = texts(axis="queries")
    s = lesson.run(RIVER, LessonOptions(axis="queries")).weights[3].sum()
    assert f"sums to {round(float(s), 2)}" in t["softmax"]


@pytest.mark.parametrize("focus", range(4))
def test_every_focus_names_itself(focus: int) -> None:
    tokens = lesson.tokenize(RIVER)
    for text in texts(focus=focus).values():
        assert tokens[focus] in text or "every token" in text


def test_long_unnamed_trace_is_summarised() -> None:
    rng = np.random.default_rng(0)
    q, k, v = rng.normal(size=(3, 40, 32))
    beats = narrate(attend(q, k, v), 5)
    assert all(len(b.text) < 700 for b in beats)
    assert "√32" in beats[2].text


def test_temperature_is_shown_as_the_divisor() -> None:
    t = texts(temperature=0.5)
    assert "temperature T = 0.5" in t["score"] and "river 4.6 / 0.5 = 9.2" in t["score"]
    assert "softmax(QKᵀ/T) with T = 0.5" in t["parallel"]


def test_causal_mask_is_told() -> None:
    t = texts(focus=1, causal=True)
    assert "river masked (−∞)" in t["score"]
    assert "Masked keys (river, bank) get weight 0" in t["softmax"]
    assert "upper triangle" in t["parallel"]
    assert "upper triangle" not in texts()["parallel"]


@pytest.mark.parametrize(
    ("band", "told"), [((2, 0), True), ((1, 1), False), ((0, 0), True), ((9, 0), True)]
)
def test_the_mask_is_told_causal_exactly_when_no_row_sees_a_later_key(
    band: tuple[int, int], told: bool
) -> None:
    n, (before, after) = 6, band  # row i sees keys i - before .. i + after
    i, j = np.arange(n)[:, None], np.arange(n)[None, :]
    mask = (j >= i - before) & (j <= i + after)
    x = np.random.default_rng(1).normal(size=(n, 4))
    parallel = narrate(attend(x, x, x, mask=mask), 3)[-1].text
    assert ("upper triangle" in parallel) is (told and not mask.all())


def test_extras_are_appended_to_their_beat() -> None:
    beats = narrate(lesson.run(RIVER), 3, extras={"blend": "More."})
    assert beats[4].text.endswith(" More.") and not beats[3].text.endswith("More.")


def test_grammar_word_focus_reads_naturally() -> None:
    t = texts(focus=1)
    assert "“the”'s query" in t["project"] and "the's" not in " ".join(t.values())


def test_ties_are_named_not_hidden_behind_argmax() -> None:
    long = "a cash deposit at the bank near the river by my boat"
    t = texts(long, focus=2)
    assert "between cash, river and boat" in t["softmax"]
    assert "carries cash, river and boat inside it" in t["blend"]
    even = texts(focus=1)  # "the" has a zero query: every weight is 1/4
    assert "spreads its budget evenly: 25% each" in even["softmax"]
    assert "plain average" in even["blend"] and "carries" not in even["blend"]


def test_causal_asymmetry_is_blamed_on_the_mask() -> None:
    t = texts(causal=True)["parallel"]
    assert "river → bank is 0, because the mask hides bank from river" in t
    assert "because each row is its own budget" in texts()["parallel"]


def test_one_token_comes_in_not_one_tokens() -> None:
    one = attend(np.ones((1, 2)), np.ones((1, 2)), np.ones((1, 2)), tokens=("bank",))
    assert narrate(one, 0)[0].text.startswith("1 token comes in: bank.")
    two = attend(np.ones((2, 2)), np.ones((2, 2)), np.ones((2, 2)), tokens=("river", "bank"))
    assert narrate(two, 1)[0].text.startswith("2 tokens come in: river, bank.")


@pytest.mark.parametrize("sentence", [RIVER, "at the savings bank"])
@pytest.mark.parametrize("mode", ["scaled", "unscaled"])
def test_the_score_beat_withheld_keeps_the_scores_but_not_the_answer(
    sentence: str, mode: str
) -> None:
    # Predict first: the Score beat said "The best match is river." while the page asked
    trace = lesson.run(sentence, LessonOptions(mode=mode))
    told = texts(sentence, mode=mode)["score"]
    held = score_withheld(trace, 3)
    best = trace.tokens[int(np.argmax(trace.scores[3]))]
    assert told.endswith(f"The best match is {best}.")
    assert "best match" not in held and held.endswith("Softmax step follows your guess.")
    assert held.split(" Which key")[0] == told.split(" The best match")[0]  # every score kept
