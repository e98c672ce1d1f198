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
    assert a.linear.badge.text == "approximate: mean |Δ| = 0.093, top-1 key kept in 75 % of rows"
    assert "exp(0.46 − 2.3) = 0.159" in a.online.steps[1].text
    assert a.online.steps[0].m_old == "-inf"
    assert "O / ℓ = [1.43, 0.06, 0.14, 0]" in a.online.end_text


def test_a_tile_outside_the_offer_is_named() -> None:
    with pytest.raises(ShapeError, match="tile"):
        cheaper_lab(tile=9)
