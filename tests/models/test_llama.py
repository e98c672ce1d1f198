"""SmolLM2-135M in NumPy: a causal, grouped-query, rotary decoder read from its GGUF."""

import math
from pathlib import Path

import numpy as np
import pytest

from attnlab.core.diagnostics import head_stats
from attnlab.errors import FocusError, TooLongError
from attnlab.models import Model, ModelSummary, decoder
from attnlab.models.threads import THREADS

TEXT = "The river bank was muddy after the rain."


@pytest.fixture(scope="module")
def bank(smollm2):  # type: ignore[no-untyped-def]
    return smollm2.trace(TEXT)


def test_smollm2_is_a_model_with_its_published_shape(smollm2) -> None:  # type: ignore[no-untyped-def]
    assert isinstance(smollm2, Model)
    s = ModelSummary.of(smollm2)
    assert (s.name, s.architecture, s.n_layers, s.n_heads, s.n_kv_heads) == (
        "smollm2", "llama", 30, 9, 3,
    )  # fmt: skip
    assert (s.d_model, s.d_k, s.max_tokens, s.causal) == (576, 64, 2048, True)
    assert smollm2.config.rope_base == 100000.0 and smollm2.config.tied


def test_tokens_read_as_text_and_focus_finds_a_word(bank) -> None:  # type: ignore[no-untyped-def]
    assert bank.tokens[:3] == ("The", " river", " bank")
    assert "".join(bank.tokens) == TEXT
    assert bank.focus_index("bank") == 2


def test_every_head_is_causal_and_rows_sum_to_one(bank) -> None:  # type: ignore[no-untyped-def]
    t = bank.head(3, 4)
    w = t.weights
    assert w.shape == (bank.n, bank.n)
    assert np.all(w[np.triu_indices(bank.n, 1)] == 0)  # no token sees a later one
    np.testing.assert_allclose(w.sum(axis=-1), 1, atol=1e-6)


def test_query_heads_of_a_group_read_the_same_keys_and_values(bank) -> None:  # type: ignore[no-untyped-def]
    assert [bank.kv_head(i) for i in range(9)] == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    a, b, c = bank.head(5, 3), bank.head(5, 5), bank.head(5, 6)
    assert np.array_equal(a.keys, b.keys) and np.array_equal(a.values, b.values)
    assert not np.array_equal(a.keys, c.keys)
    assert not np.array_equal(a.queries, b.queries)


def test_diagnostics_from_the_pass_match_the_recomputed_weights(bank) -> None:  # type: ignore[no-untyped-def]
    again = head_stats(bank.attentions)
    for name in ("entropy_bits", "first", "previous", "itself", "top1"):
        np.testing.assert_allclose(getattr(bank.stats, name), getattr(again, name), atol=2e-5)


def test_rope_rotates_the_query_and_keeps_its_length(bank) -> None:  # type: ignore[no-untyped-def]
    before, after = bank.rope_query(2, 1, 5)
    assert not np.allclose(before, after)
    assert math.isclose(np.linalg.norm(before), np.linalg.norm(after), rel_tol=1e-5)
    b0, a0 = bank.rope_query(2, 1, 0)  # position 0 turns by angle 0
    np.testing.assert_allclose(b0, a0, atol=1e-6)


def test_the_score_by_distance_passes_through_the_score_the_pass_used(bank) -> None:  # type: ignore[no-untyped-def]
    layer, head, query, key = 4, 2, 7, 3
    curve = bank.score_by_distance(layer, head, query, key)
    assert curve.shape == (bank.n,)
    used = bank.head(layer, head).scores[query, key]
    assert math.isclose(curve[query - key], used, rel_tol=1e-4, abs_tol=1e-4)


def test_the_next_token_after_the_capital_of_france_is_paris(smollm2) -> None:  # type: ignore[no-untyped-def]
    top = smollm2.trace("The capital of France is").next_tokens(k=5)
    assert top[0][0] == " Paris" and top[0][1] > 0.5
    probs = [p for _, p in top]
    assert probs == sorted(probs, reverse=True) and sum(probs) <= 1


def test_next_tokens_after_an_earlier_position(bank) -> None:  # type: ignore[no-untyped-def]
    after_the = bank.next_tokens(0, k=3)
    assert len(after_the) == 3 and after_the != bank.next_tokens(k=3)
    with pytest.raises(FocusError, match=r"outside 0\.\.8"):
        bank.next_tokens(9)


def test_a_head_switch_reads_the_next_tokens_kept_for_the_text(smollm2, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # the next tokens depend on the text, not the head: the decoder panel of every head asked
    # for them again, two d_model × vocab products (~35 ms at 2,048 tokens) per head switch
    from attnlab.models.decoder_trace import DecoderTrace
    from attnlab.models.head_view import rope_view

    t = smollm2.trace(TEXT)
    calls: list[int] = []
    logits = DecoderTrace.logits
    monkeypatch.setattr(
        DecoderTrace, "logits", lambda self, pos: calls.append(pos) or logits(self, pos)
    )
    first = [rope_view(t, 0, head, 3) for head in (0, 1, 2)]
    assert sorted(calls) == [3, t.n - 1]  # once per position, for three heads
    assert first[0] is not None and first[2] is not None
    after, last = first[0].next_after_focus, first[0].next_after_last
    assert after == first[2].next_after_focus and after != last
    assert t.next_tokens(3, 5) is t.next_tokens(3, 5) and len(calls) == 2


def test_a_text_over_2048_tokens_is_refused_with_the_limit(smollm2) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(
        TooLongError,
        match=r"2049 tokens long; the limit for smollm2 is 2048 tokens: shorten it by 1 token$",
    ):
        smollm2.trace(" 1" * 1024 + "1")


FIXTURE = Path(__file__).parents[1] / "fixtures" / "smollm2_reference.npz"


def test_matches_the_stored_transformers_reference(smollm2) -> None:  # type: ignore[no-untyped-def]
    """Without torch: transformers' numbers saved by scripts/make_smollm2_fixture.py."""
    _check_reference(smollm2)


def test_rows_in_halves_match_the_stored_reference(smollm2, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The row halves a long text's layers run in, made to run on the fixture's short texts."""
    if THREADS < 2:
        pytest.skip("one core: the rows are never split")
    monkeypatch.setattr(decoder, "ROWS_SPLIT_FROM", 2)
    assert decoder.row_parts(5) == (slice(0, 2), slice(2, 5))
    _check_reference(smollm2)


def test_short_texts_run_whole_and_long_ones_in_halves() -> None:
    assert decoder.row_parts(decoder.ROWS_SPLIT_FROM - 1) == (
        slice(0, decoder.ROWS_SPLIT_FROM - 1),
    )
    assert len(decoder.row_parts(decoder.ROWS_SPLIT_FROM)) == (2 if THREADS > 1 else 1)


def _check_reference(model) -> None:  # type: ignore[no-untyped-def]
    ref = np.load(FIXTURE)
    for i, text in enumerate(ref["texts"]):
        t = model.trace(str(text))
        assert t.token_ids == tuple(ref[f"ids_{i}"])
        for layer, key in ((0, "first"), (29, "last")):
            mine = np.stack([t.head(layer, h).weights for h in range(t.n_heads)])  # (9, n, n)
            np.testing.assert_allclose(mine, ref[f"attention_{key}_{i}"], atol=1e-4)
        logits = t.logits(t.n - 1)
        np.testing.assert_allclose(logits[ref[f"top_ids_{i}"]], ref[f"top_logits_{i}"], atol=1e-3)
