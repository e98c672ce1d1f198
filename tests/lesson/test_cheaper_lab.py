"""The Cheaper attention section on the toy: every card's check run, its words from its numbers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attnlab.encode.cheaper_json import encode_cheaper
from attnlab.errors import ShapeError
from attnlab.lesson.cheaper_lab import cheaper_lab
from attnlab.lesson.explain import explain_lesson
from attnlab.lesson.options import LessonOptions


def test_the_online_row_ends_on_the_softmax_and_blend_numbers() -> None:
    c = cheaper_lab("by the river bank", focus="bank", tile=2)
    ex = explain_lesson("by the river bank", focus="bank")
    np.testing.assert_allclose(c.online.weights()[0], ex.trace.weights[3], atol=1e-15)
    np.testing.assert_allclose(c.online.outputs[0], [1.43, 0.06, 0.14, 0], atol=0.01)
    assert c.online_diff < 1e-15 and len(c.online.steps) == 2


@pytest.mark.parametrize(
    "opts",
    [LessonOptions(temperature=0.5), LessonOptions(causal=True), LessonOptions(mode="unscaled"),
     LessonOptions(positions="rope", causal=True)],
)  # fmt: skip
def test_with_the_labs_changes_the_tiles_still_equal_the_lessons_row(opts: LessonOptions) -> None:
    for tile in (1, 3):
        c = cheaper_lab("at the savings bank", opts, tile=tile)
        ex = explain_lesson("at the savings bank", opts)
        np.testing.assert_allclose(c.online.weights()[0], ex.trace.weights[ex.focus], atol=1e-15)
        assert c.online_diff < 1e-14


def test_heads_windows_and_linear_cards() -> None:
    c = cheaper_lab("by the river bank", focus="bank")
    assert c.mqa_diff < 1e-15 and c.mla_d_c == 3 and c.mla_score_diff < 1e-13
    assert [(f.name, f.numbers) for f in c.forms] == [("MHA", 16), ("MQA", 8), ("MLA", 3)]
    full, window, sinks = c.kept
    assert full.kept == (0, 1, 2, 3) and full.dropped_mass == 0
    assert window.kept == (2, 3) and sinks.kept == (0, 2, 3)
    assert window.dropped_mass == pytest.approx(0.109 + 0.069, abs=1e-3)  # by and the
    assert sinks.dropped_mass == pytest.approx(0.069, abs=1e-3)  # the
    np.testing.assert_allclose(window.weights.sum(), 1)
    assert c.linear.top1_kept == 0.75 and 0.05 < c.linear.mean_abs < 0.2


def test_rope_makes_the_latent_check_not_comparable() -> None:
    c = cheaper_lab("by the river bank", LessonOptions(positions="rope"))
    assert math.isnan(c.mla_score_diff)
    assert encode_cheaper(c).heads.mla.kind == "unchecked"


def test_the_answer_says_exact_and_approximate_from_the_numbers() -> None:
    a = encode_cheaper(cheaper_lab("by the river bank", focus="bank"))
    assert a.online.badge.kind == "exact" and a.online.badge.text.startswith("exact: max |Δ| = ")
    assert a.linear.badge.text == (
        "approximate: mean |Δ| = 0.093 over all 4 rows (0.18 on bank's row, the table's), "
        "top-1 key kept in 75 % of rows"
    )
    assert "exp(0.46 − 2.3) = 0.159" in a.online.steps[1].text
    assert a.online.steps[0].m_old == "-inf"
    assert "O / ℓ = [1.43, 0.06, 0.14, 0]" in a.online.end_text


def test_a_tile_outside_the_offer_is_named() -> None:
    with pytest.raises(ShapeError, match="1 to 4 keys here"):
        cheaper_lab("by the river bank", tile=5)
    with pytest.raises(ShapeError, match="tile"):
        cheaper_lab("by the river bank", tile=0)


def test_any_tile_up_to_the_sentences_length_is_offered() -> None:
    words = "the boat by the shore of the river near the mud bank"
    a = encode_cheaper(cheaper_lab(words, tile=12))
    assert a.tiles == list(range(1, 13)) and len(a.online.steps) == 1
    assert a.online.badge.kind == "exact"


@pytest.mark.parametrize(
    ("opts", "focus"),
    [(LessonOptions(mode="uniform"), None), (LessonOptions(temperature=0.1), None),
     (LessonOptions(causal=True), 0), (LessonOptions(mode="uniform", causal=True), 2),
     (LessonOptions(mode="unscaled", causal=True), 1)],
)  # fmt: skip
def test_the_tiles_run_on_the_lessons_own_scores(opts: LessonOptions, focus: int | None) -> None:
    """Issue 26: under Uniform the card said the Softmax step's weights were 0.11/0.07/0.69/0.14
    while the lesson showed 0.25 everywhere."""
    c = cheaper_lab("by the river bank", opts, focus=focus, tile=3)
    lesson = explain_lesson("by the river bank", opts, focus=focus)
    row = lesson.trace.weights[lesson.focus]
    np.testing.assert_allclose(c.exact_weights, row, atol=0)
    np.testing.assert_allclose(c.online.weights()[0], row, atol=1e-15)
    np.testing.assert_allclose(c.online.outputs[0], lesson.trace.outputs[lesson.focus], atol=1e-14)
    assert encode_cheaper(c).online.badge.kind == "exact"


def test_softmax_over_queries_has_no_tiled_form_and_says_so() -> None:
    opts = LessonOptions(axis="queries")
    a = encode_cheaper(cheaper_lab("by the river bank", opts))
    lesson = explain_lesson("by the river bank", opts)
    np.testing.assert_allclose(a.online.exact_weights, lesson.trace.weights[3], atol=1e-15)
    assert a.online.badge.kind == "unchecked" and "no tiled form" in a.online.badge.text
    assert "wrong axis" in a.online.end_text and "max |Δ|" not in a.online.end_text


def test_linear_attention_follows_the_causal_mask_and_the_alpha_text_the_table() -> None:
    """Issue 26: with causal and focus 0 the exact row was 1/0/0/0 but the linear row attended
    to future keys, and the α text's softmax top weight at α = 1 was 0.2825, not the table's 1."""
    c = cheaper_lab("by the river bank", LessonOptions(causal=True), focus=0)
    np.testing.assert_allclose(c.linear_focus, [1, 0, 0, 0], atol=0)
    assert c.sharpen[0] == 1 and c.sharpen_softmax[0] == pytest.approx(c.exact_weights.max())
    assert c.sharpen_linear[0] == pytest.approx(c.linear_focus.max())
    assert np.triu(c.linear.linear, 1).max() == 0 and np.triu(c.linear.exact, 1).max() == 0


@pytest.mark.parametrize(
    "opts", [LessonOptions(), LessonOptions(temperature=0.1), LessonOptions(mode="uniform"),
             LessonOptions(causal=True)],
)  # fmt: skip
def test_every_linear_number_comes_from_the_lessons_settings(opts: LessonOptions) -> None:
    c = cheaper_lab("by the river bank", opts, focus="bank")
    lesson = explain_lesson("by the river bank", opts, focus="bank").trace
    np.testing.assert_allclose(c.linear.exact, lesson.weights, atol=0)
    np.testing.assert_allclose(c.sharpen_softmax[0], lesson.weights[3].max(), atol=1e-15)
    assert c.sharpen_linear[0] == pytest.approx(c.linear_focus.max())
    mean = float(np.abs(c.linear_focus - lesson.weights[3]).mean())
    assert c.linear_focus_mean == pytest.approx(mean)


def test_the_linear_badge_moves_with_the_lessons_settings() -> None:
    texts = {
        encode_cheaper(cheaper_lab("by the river bank", o, focus="bank")).linear.badge.text
        for o in (LessonOptions(), LessonOptions(causal=True), LessonOptions(temperature=0.1),
                  LessonOptions(mode="uniform"))
    }  # fmt: skip
    assert len(texts) == 4


def test_the_alpha_text_says_when_alpha_cannot_matter() -> None:
    one = encode_cheaper(cheaper_lab("by the river bank", LessonOptions(causal=True), focus=0))
    assert "sees one key" in one.linear.sharpen_text
    assert "cannot make the sharp lookup" not in one.linear.sharpen_text
    flat = encode_cheaper(cheaper_lab("by the river bank", LessonOptions(mode="uniform")))
    assert "Uniform ignores the scores" in flat.linear.sharpen_text
    wrong = encode_cheaper(cheaper_lab("by the river bank", LessonOptions(axis="queries")))
    assert "over queries" in wrong.online.end_caption


def test_a_repeated_word_is_named_by_its_place_in_the_windows_text() -> None:
    """Issue 26: "keeps the, the, bank" did not say which "the" was which."""
    a = encode_cheaper(cheaper_lab("the bank of the river bank", LessonOptions(causal=True),
                                   focus=5))  # fmt: skip
    full = a.windows[0].text
    assert "the₁" in full and "the₂" in full and "bank₁" in full and "bank₂" in full


def test_over_queries_the_linear_card_compares_with_the_softmax_over_keys_and_says_so() -> None:
    """Issue 26c A: the table's column, the badge and the α text all from the keys-axis row."""
    s = "by the river bank"
    a = encode_cheaper(cheaper_lab(s, LessonOptions(axis="queries"), focus="bank"))
    over_keys = explain_lesson(s, LessonOptions(axis="keys"), focus="bank").trace.weights[3]
    over_queries = explain_lesson(s, LessonOptions(axis="queries"), focus="bank").trace.weights[3]
    assert not np.allclose(over_keys, over_queries)  # the lesson's column is another row
    np.testing.assert_allclose(a.linear.exact_row, over_keys, atol=1e-15)
    np.testing.assert_allclose(sum(a.linear.exact_row), 1)
    focus_mean = float(np.abs(np.array(a.linear.linear_row) - over_keys).mean())
    assert a.linear.focus_mean_abs == pytest.approx(focus_mean, abs=1e-15)
    assert a.linear.badge.text.startswith("approximate against the softmax over the keys: ")
    top = f"{max(a.linear.exact_row):.4f}".rstrip("0")
    assert f"α = 1: {top} against" in a.linear.sharpen_text  # the table's own top weight
    assert a.linear.note == "axis" and a.linear.note_text and "over the keys" in a.linear.note_text
    keys = encode_cheaper(cheaper_lab(s, focus="bank")).linear
    assert keys.note is None and keys.note_text is None
    assert keys.badge.text.startswith("approximate: mean")


def test_under_uniform_the_linear_badge_says_ties_have_no_top1() -> None:
    """Issue 26c C: every exact row is a tie, so "kept in 0 % of rows" would be made up."""
    a = encode_cheaper(cheaper_lab("by the river bank", LessonOptions(mode="uniform")))
    assert a.linear.exact_row == [0.25] * 4 and a.linear.top1_tied
    assert "the exact rows are all ties: no top-1 to keep" in a.linear.badge.text
    assert "% of rows" not in a.linear.badge.text
    assert not encode_cheaper(cheaper_lab("by the river bank")).linear.top1_tied


def test_the_windows_card_has_a_live_badge_and_an_axis_note() -> None:
    """Issue 26c B: the window's badge from its kept keys and dropped weight; exact when it
    keeps every key the row may see; a note when the lesson's softmax runs over queries."""
    c = cheaper_lab("by the river bank", focus="bank")
    a = encode_cheaper(c)
    window = next(k for k in c.kept if k.scheme == "window")
    assert a.windows_badge.kind == "approximate" and a.windows_note is None
    assert a.windows_badge.text == (
        f"approximate: keeps {len(window.kept)} of 4 keys, throws away "
        f"{round(100 * window.dropped_mass)} % of bank's attention"
    )
    first = encode_cheaper(cheaper_lab("by the river bank", focus="the"))
    assert first.windows[1].dropped_mass == 0 and first.windows_badge.kind == "exact"
    assert first.windows_badge.text.endswith("(the) may see, none thrown away")
    q = encode_cheaper(cheaper_lab("by the river bank", LessonOptions(axis="queries"), focus=3))
    assert q.windows_badge == a.windows_badge  # the keys-axis numbers, named as such:
    assert q.windows_note and "softmax over the keys" in q.windows_note
