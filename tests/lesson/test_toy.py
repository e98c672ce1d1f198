"""The seed's numbers, as golden values, from the toy head."""

import numpy as np
import pytest

from attnlab import lesson
from attnlab.errors import EmptySequenceError, FocusError, TooLongError, UnknownWordError
from attnlab.lesson.options import LessonOptions

RIVER, SAVINGS = "by the river bank", "at the savings bank"
BANK = 3


def r2(a: np.ndarray) -> list[float]:
    return [round(float(x), 2) + 0.0 for x in a]


def test_bank_query_is_the_seeds() -> None:
    t = lesson.run(RIVER)
    assert r2(t.queries[BANK]) == [2.3, 2.3, 0, 0]


def test_bank_raw_and_scaled_scores() -> None:
    t = lesson.run(RIVER)
    assert t.tokens == ("by", "the", "river", "bank")
    assert r2(t.raw_scores[BANK]) == [0.92, 0, 4.6, 1.38]
    assert r2(t.scores[BANK]) == [0.46, 0, 2.3, 0.69]
    assert t.d_k == 4 and t.divisor == 2


def test_bank_weights_to_two_decimals() -> None:
    assert r2(lesson.run(RIVER).weights[BANK]) == [0.11, 0.07, 0.69, 0.14]


def test_bank_output_points_along_geography() -> None:
    out = lesson.run(RIVER).outputs[BANK]
    assert r2(out) == [1.43, 0.06, 0.14, 0]
    assert lesson.DIM_NAMES[int(np.argmax(out))] == "geographic"


def test_savings_bank_attends_to_savings_and_points_financial() -> None:
    t = lesson.run(SAVINGS)
    assert t.tokens[int(np.argmax(t.weights[BANK]))] == "savings"
    assert lesson.DIM_NAMES[int(np.argmax(t.outputs[BANK]))] == "financial"
    # the identical bank embedding, a different mixture
    assert np.array_equal(t.embeddings[BANK], lesson.run(RIVER).embeddings[BANK])
    assert not np.allclose(t.outputs[BANK], lesson.run(RIVER).outputs[BANK])


def test_matrix_is_not_symmetric_when_scaled() -> None:
    w = lesson.run(RIVER).weights
    assert abs(w[BANK, 2] - w[2, BANK]) > 0.3  # bank→river 0.69, river→bank 0.12


def test_unscaled_is_sharper_and_uniform_is_the_mean() -> None:
    scaled, unscaled = lesson.run(RIVER), lesson.run(RIVER, LessonOptions(mode="unscaled"))
    assert np.allclose(unscaled.scores, scaled.raw_scores)
    assert unscaled.weights[BANK].max() > scaled.weights[BANK].max()
    uniform = lesson.run(RIVER, LessonOptions(mode="uniform"))
    assert np.allclose(uniform.weights, 0.25)
    assert np.allclose(uniform.outputs, uniform.values.mean(axis=0))
    assert np.allclose(uniform.weights, uniform.weights.T)


def test_any_order_of_vocabulary_words() -> None:
    t = lesson.run("bank river the by")
    assert t.tokens == ("bank", "river", "the", "by")
    assert np.allclose(t.weights.sum(axis=1), 1)


def test_vocabulary_is_the_seed_sentences_and_a_dozen_more() -> None:
    seed_words = set((RIVER + " " + SAVINGS).split())
    assert seed_words <= set(lesson.VOCABULARY)
    assert len(set(lesson.VOCABULARY) - seed_words) >= 12
    for word, x in lesson.VOCABULARY.items():
        assert len(x) == lesson.D_MODEL, word


def test_unknown_word_lists_the_vocabulary() -> None:
    with pytest.raises(UnknownWordError, match="'lake'") as info:
        lesson.run("by the lake bank")
    assert "river" in str(info.value) and "savings" in str(info.value)


@pytest.mark.parametrize(
    ("sentence", "error"),
    [("", EmptySequenceError), ("   ", EmptySequenceError), ("the " * 13, TooLongError)],
)
def test_bad_sentences(sentence: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        lesson.run(sentence)


def test_focus_by_word_index_or_default() -> None:
    toks = lesson.tokenize(RIVER)
    assert lesson.focus_index(toks, "bank") == 3
    assert lesson.focus_index(toks, "BANK") == 3
    assert lesson.focus_index(toks, 1) == 1
    assert lesson.focus_index(toks, "2") == 2
    assert lesson.focus_index(toks, None) == 3
    with pytest.raises(FocusError, match="'money'"):
        lesson.focus_index(toks, "money")
    with pytest.raises(FocusError, match="7"):
        lesson.focus_index(toks, 7)


def test_presets_tokenize_and_name_their_focus() -> None:
    for p in lesson.PRESETS:
        assert p.focus in lesson.tokenize(p.sentence)


# --- the lab: temperature, positions, causal mask, edits, two heads ---------------------------


def test_temperature_two_is_the_seed_row() -> None:
    t = lesson.run(RIVER, LessonOptions(temperature=2.0))
    assert r2(t.weights[BANK]) == [0.11, 0.07, 0.69, 0.14] and t.temperature == 2.0


def test_wrong_axis_columns_sum_to_one_and_bank_changes() -> None:
    t, right = lesson.run(RIVER, LessonOptions(axis="queries")), lesson.run(RIVER)
    assert np.allclose(t.weights.sum(axis=0), 1) and not np.allclose(t.weights.sum(axis=1), 1)
    assert not np.allclose(t.outputs[BANK], right.outputs[BANK])
    assert (t.weights >= 0).all() and (t.weights <= 1).all()  # still plausible-looking numbers


def test_causal_zero_upper_triangle_rows_sum_to_one() -> None:
    run = lesson.compute(RIVER, LessonOptions(causal=True))
    w = run.trace.weights
    assert run.causal and (np.triu(w, 1) == 0).all() and np.allclose(w.sum(axis=1), 1)
    assert np.array_equal(w[BANK], lesson.run(RIVER).weights[BANK])  # the last word sees all
    assert w[0, 0] == 1.0


@pytest.mark.parametrize("kind", ["sinusoidal", "rope"])
def test_positions_keep_bank_on_river(kind: str) -> None:
    run = lesson.compute(RIVER, LessonOptions(positions=kind))
    assert run.trace.tokens[int(np.argmax(run.trace.weights[BANK]))] == "river"
    assert not np.allclose(run.trace.outputs, lesson.run(RIVER).outputs)


def test_sinusoidal_adds_the_encodings_to_the_embeddings() -> None:
    run = lesson.compute(RIVER, LessonOptions(positions="sinusoidal"))
    assert run.encodings is not None and run.rotary is None
    assert np.allclose(run.trace.embeddings, run.word_embeddings + run.encodings)
    assert np.allclose(run.encodings[0], [0, lesson.SINUSOIDAL_SCALE, 0, lesson.SINUSOIDAL_SCALE])


def test_rope_rotates_queries_and_keys_not_values() -> None:
    run, plain = lesson.compute(RIVER, LessonOptions(positions="rope")), lesson.run(RIVER)
    assert run.rotary is not None and run.encodings is None
    assert np.allclose(run.rotary.queries, plain.queries)
    assert np.allclose(run.trace.queries, run.rotary.rotated_queries)
    assert np.allclose(run.trace.values, plain.values)
    assert np.allclose(
        np.linalg.norm(run.trace.queries, axis=1), np.linalg.norm(plain.queries, axis=1)
    )
    assert np.allclose(run.rotary.angles[:, 0], lesson.ROPE_SPEED * np.arange(4))


def test_edited_embedding_changes_every_beat_after_it() -> None:
    from attnlab.lesson.edits import Edits

    e = Edits.parse({"embeddings": ["river=0,1,0,0"]})  # river now reads as money
    t = lesson.run(RIVER, LessonOptions(edits=e))
    assert t.embeddings[2].tolist() == [0, 1, 0, 0]
    assert lesson.DIM_NAMES[int(np.argmax(t.outputs[BANK]))] == "financial"
    q = Edits.parse({"queries": ["bank=0,0,0,0"]})  # bank asks for nothing: a uniform row
    assert np.allclose(lesson.run(RIVER, LessonOptions(edits=q)).weights[BANK], 0.25)


def test_second_head_attends_by_structure_and_first_is_unchanged() -> None:
    meaning, structure = (lesson.compute(RIVER, head=h) for h in (0, 1))
    assert np.array_equal(meaning.trace.weights, lesson.run(RIVER).weights)
    w = structure.trace.weights
    assert {structure.trace.tokens[j] for j in np.argsort(-w[BANK])[:2]} == {"by", "the"}
    assert structure.trace.tokens[int(np.argmax(w[1]))] in {"river", "bank"}  # "the" → content
    both = lesson.concat_outputs((meaning, structure))
    assert both.shape == (4, 8) and np.array_equal(both[:, :4], meaning.trace.outputs)
    with pytest.raises(Exception, match="head 2 does not exist"):
        lesson.compute(RIVER, head=2)
