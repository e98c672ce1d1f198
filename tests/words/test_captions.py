"""The canvas's captions come from the trace: formulas, divisors, ties and pairs as computed."""

import re

from attnlab import lesson
from attnlab.lesson.options import LessonOptions
from attnlab.words.captions import captions, formula, score_withheld_description
from attnlab.words.numfmt import num

RIVER = "by the river bank"


def test_scaled_score_caption_names_sqrt_d_k() -> None:
    c = captions(lesson.run(RIVER), 3)
    assert c.score.heading.endswith("q·k / √dₖ")
    assert c.score.notes == ("score = q·k / √dₖ, with √dₖ = √4 = 2",)
    assert c.divisor == "2"
    assert "the best match is river" in c.score.description


def test_a_temperature_is_named_as_t_not_as_sqrt_d_k() -> None:
    # the bug: the canvas read "√dₖ = √4 = 0.5" and the Parallel heading softmax(QKᵀ/√dₖ)
    c = captions(lesson.run(RIVER, LessonOptions(temperature=0.5)), 3)
    assert c.divisor == "0.5" and "√4 = 0.5" not in " ".join(c.score.notes)
    assert c.score.heading.endswith("q·k / T")
    assert (
        c.score.notes[0] == "score = q·k / T, with the temperature T = 0.5 in place of √dₖ = √4 = 2"
    )
    assert c.parallel.heading.endswith("softmax(QKᵀ/T) with T = 0.5")


def test_formula_per_mode() -> None:
    assert formula(lesson.run(RIVER)) == "softmax(QKᵀ/√dₖ)"
    assert formula(lesson.run(RIVER, LessonOptions(mode="unscaled"))) == "softmax(QKᵀ)"
    assert formula(lesson.run(RIVER, LessonOptions(mode="uniform"))) == "1/n"


def test_pair_lines_read_both_cells() -> None:
    c = captions(lesson.run(RIVER), 3)
    assert c.pair == (
        "bank → river = 0.69 (row bank, column river)",
        "river → bank = 0.12 (row river, column bank)",
    )
    assert c.parallel.notes[0].startswith("Not symmetric: each row is its own budget")


def test_a_mask_is_blamed_when_it_hides_one_side_of_the_pair() -> None:
    c = captions(lesson.run(RIVER, LessonOptions(causal=True)), 3)
    assert c.parallel.notes == ("Not symmetric: the mask hides one of the two from the other.",)


def test_a_tie_is_named_in_the_blend_notes() -> None:
    c = captions(lesson.run(RIVER, LessonOptions(mode="uniform")), 3)
    assert c.blend.notes[1].startswith("A tie: by, the, river and bank share the largest weight")


def test_wrong_axis_budget_caption() -> None:
    c = captions(lesson.run(RIVER, LessonOptions(axis="queries")), 3)
    assert "does not sum to 1" in c.budget


def test_the_wrong_axis_softmax_heading_reads_the_row_sum_of_the_trace() -> None:
    # the bug: with Softmax axis = Queries the canvas title said "a budget that sums to 1"
    # while bank's row summed to 1.45 (issue 27)
    trace = lesson.run(RIVER, LessonOptions(axis="queries"))
    total = float(trace.weights[3].sum())
    assert abs(total - 1) > 0.1
    heading = captions(trace, 3).softmax.heading
    assert not re.search(r"sums to 1(?![.\d])", heading)
    assert f"sums to {num(total)}" in heading
    assert "a budget that sums to 1" in captions(lesson.run(RIVER), 3).softmax.heading


def test_the_withheld_score_name_gives_no_best_match() -> None:
    # Predict first: until the guess, the canvas's name must not say what the weights will
    for sentence in ("by the river bank", "at the savings bank"):
        ex = lesson.explain_lesson(sentence, LessonOptions())
        shown = captions(ex.trace, ex.focus).score.description
        withheld = score_withheld_description(ex.trace, ex.focus)
        best = ex.trace.tokens[ex.answer]
        assert best in shown and "best match" in shown
        assert best not in withheld and "best match" not in withheld
        assert f"q·k / {num(ex.trace.divisor)}" in withheld
