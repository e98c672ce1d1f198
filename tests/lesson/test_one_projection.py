"""lesson/one_projection.py: Q = K = V = X·W against the real head, its numbers recomputed here by
hand from the toy's vocabulary and matrices (not through attend), and its words quoting them."""

from __future__ import annotations

import numpy as np
import pytest

from attnlab.lesson.one_projection import SharedRoleError, contexts, one_projection
from attnlab.lesson.toy import VOCABULARY, W_K, W_Q, W_V
from attnlab.words.numfmt import num, percent, vec

RIVER, SAVINGS = "by the river bank", "at the savings bank"


def by_hand(sentence: str, w: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Raw scores, weights and outputs of q = k = v = x·w, scaled by √4 = 2."""
    x = np.array([VOCABULARY[t] for t in sentence.split()])
    q = x @ w
    raw = q @ q.T
    e = np.exp(raw / 2 - (raw / 2).max(axis=1, keepdims=True))
    weights = e / e.sum(axis=1, keepdims=True)
    return raw, weights, weights @ q


@pytest.mark.parametrize("sentence", [RIVER, SAVINGS])
@pytest.mark.parametrize(("shared", "w"), [("queries", W_Q), ("keys", W_K), ("values", W_V)])
def test_the_one_projection_is_q_k_and_v_at_once(sentence, shared, w) -> None:
    raw, weights, outputs = by_hand(sentence, w)
    got = one_projection(sentence, shared=shared)
    np.testing.assert_allclose(got.one.raw_scores, raw, atol=1e-12)
    np.testing.assert_allclose(got.one.weights, weights, atol=1e-12)
    np.testing.assert_allclose(got.one.outputs, outputs, atol=1e-12)
    assert np.array_equal(got.one.queries, got.one.keys)
    assert np.array_equal(got.one.keys, got.one.values)
    np.testing.assert_allclose(got.one.raw_scores, got.one.raw_scores.T)  # QQᵀ is symmetric
    # each self-score is |q|²
    np.testing.assert_allclose(got.self_scores[1], (got.one.queries**2).sum(axis=1))


def test_bank_reads_itself_with_one_matrix_and_river_with_three() -> None:
    got = one_projection(RIVER)
    raw, weights, outputs = by_hand(RIVER, W_Q)
    assert got.focus == 3
    real_self, one_self = got.self_scores
    assert num(float(real_self[3])) == "1.38"  # the seed: bank's query barely matches its key
    assert one_self[3] == pytest.approx(2.3**2 + 2.3**2)  # 10.58
    assert int(np.argmax(got.real.weights[3])) == 2  # river
    assert int(np.argmax(weights[3])) == 3  # bank itself, 94%
    _real_diag, one_diag = got.diagonal_wins
    assert one_diag.tolist() == [bool(np.argmax(weights[i]) == i) for i in range(4)]
    assert one_diag.tolist() == [False, False, False, True]
    # river's own 4 loses to bank's 4.6: a longer vector the same way beats the diagonal
    assert raw[2, 3] > raw[2, 2]
    note = got.note
    for said in ("1.38", num(float(raw[3, 3])), percent(float(weights[3, 3])), vec(outputs[3])):
        assert said in note, said
    assert "1 of 4 with one matrix (bank)" in note
    assert "gives 69% of bank's attention to river" in note


def test_the_context_barely_moves_bank_with_one_matrix() -> None:
    a, b = one_projection(RIVER), one_projection(SAVINGS)
    real, one, said = contexts(a, b)
    outs = [by_hand(s, W_Q)[2][3] for s in (RIVER, SAVINGS)]
    assert one == pytest.approx(float(np.linalg.norm(outs[0] - outs[1])))
    assert real == pytest.approx(float(np.linalg.norm(a.real.outputs[3] - b.real.outputs[3])))
    assert one < real / 10
    assert f"by {num(real)} with three matrices and by {num(one)} with one" in said
    assert "barely change" in said
    # with W_K bank still reads savings, so no sentence says it reads itself
    _, _, keys_said = contexts(
        one_projection(RIVER, shared="keys"), one_projection(SAVINGS, shared="keys")
    )
    assert "reads mostly itself" not in keys_said


def test_an_unknown_role_is_named() -> None:
    with pytest.raises(SharedRoleError, match="queries, keys, values, got 'both'"):
        one_projection(RIVER, shared="both")  # type: ignore[arg-type]


def test_the_finding_is_short_and_reads_the_runs_numbers() -> None:
    for sentence, real_to in (("by the river bank", "river"), ("at the savings bank", "savings")):
        r = one_projection(sentence)
        f = r.focus
        real_self, one_self = r.self_scores
        assert int(r.one.weights[f].argmax()) == f
        said = r.finding.replace("\u2060", "")
        assert said == (
            f"bank's score against itself: {num(float(real_self[f]))} with three matrices, "
            f"|q|² = {num(float(one_self[f]))} with one. Its largest weight moves from {real_to} "
            f"({percent(float(r.real.weights[f].max()))}) to bank itself "
            f"({percent(float(r.one.weights[f, f]))})."
        )
        assert "|\u2060q|\u2060²" in r.finding  # held together on the page
