"""all-MiniLM-L6-v2 in NumPy: tokens, shapes, one head as the lesson's Trace, limits, reference."""

from pathlib import Path

import numpy as np
import pytest

from attnlab import attend
from attnlab.core.trace import Trace
from attnlab.errors import EmptySequenceError, FocusError, TooLongError, UnknownHeadError
from attnlab.models import MAX_TOKENS

FIXTURE = Path(__file__).parents[1] / "fixtures" / "minilm_reference.npz"


def test_tokens_are_written_as_the_tokenizer_writes_them(minilm) -> None:
    assert minilm.trace("by the river bank").tokens == (
        "[CLS]", "by", "the", "river", "bank", "[SEP]",
    )  # fmt: skip
    assert minilm.trace("bys").tokens == ("[CLS]", "by", "##s", "[SEP]")


def test_shapes_and_dtypes(minilm) -> None:
    t = minilm.trace("by the river bank")
    assert t.attentions.shape == (6, 12, 6, 6)
    assert t.hidden_states.shape == (7, 6, 384)
    assert t.attentions.dtype == t.hidden_states.dtype == np.float32
    assert len(t.layers) == 6 and t.layers[0].queries.shape == (12, 6, 32)
    assert np.allclose(t.attentions.sum(axis=-1), 1, atol=1e-5)


def test_a_head_is_the_lessons_trace_with_divisor_root_32(minilm) -> None:
    t = minilm.trace("by the river bank")
    h = t.head(2, 5)
    assert isinstance(h, Trace)
    assert h.tokens == t.tokens and h.d_k == 32 and h.divisor == pytest.approx(32**0.5)
    assert h.queries.shape == (6, 32) and h.weights.shape == (6, 6)
    assert h.embeddings is not None and np.array_equal(h.embeddings, t.hidden_states[2])
    assert np.array_equal(h.weights, t.attentions[2, 5])


def test_a_head_is_exactly_attend_on_its_q_k_v(minilm) -> None:
    h = minilm.trace("at the savings bank").head(0, 0)
    again = attend(h.queries, h.keys, h.values)
    assert np.array_equal(again.weights, h.weights) and np.array_equal(again.outputs, h.outputs)


def test_the_trace_is_frozen(minilm) -> None:
    t = minilm.trace("by the river bank")
    with pytest.raises(ValueError, match="read-only"):
        t.hidden_states[0, 0, 0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        t.head(0, 0).weights[0, 0] = 1.0


@pytest.mark.parametrize("text", ["", "   ", "\n"])
def test_an_empty_text_is_refused(minilm, text: str) -> None:
    with pytest.raises(EmptySequenceError, match="empty"):
        minilm.trace(text)


def test_the_limit_is_512_tokens_with_cls_and_sep(minilm) -> None:
    assert MAX_TOKENS == 512 == minilm.config.max_positions
    assert minilm.trace("bank " * (MAX_TOKENS - 2)).n == 512
    with pytest.raises(
        TooLongError, match=r"513 tokens long.*the limit is 512: shorten it by 1 token$"
    ):
        minilm.trace("bank " * (MAX_TOKENS - 1))
    with pytest.raises(TooLongError, match=r"514 tokens long.*shorten it by 2 tokens$"):
        minilm.trace("bank " * MAX_TOKENS)


@pytest.mark.parametrize(("layer", "head", "message"), [(6, 0, "layer 6 is outside 0..5"),
                                                        (0, 12, "head 12 is outside 0..11"),
                                                        (-1, 0, "layer -1")])  # fmt: skip
def test_a_head_outside_the_model_is_named(minilm, layer: int, head: int, message: str) -> None:
    with pytest.raises(UnknownHeadError, match=message):
        minilm.trace("by the river bank").head(layer, head)


def test_focus_by_word_piece_index_or_default(minilm) -> None:
    t = minilm.trace("bys by the river bank")
    assert t.focus_index() == 6 and t.focus_index("BANK") == 6
    assert t.focus_index("##s") == 2 and t.focus_index("s") == 2 and t.focus_index("0") == 0
    with pytest.raises(FocusError, match="'money' is not a token"):
        t.focus_index("money")
    # the default is the last word, not a trailing mark (the CLI and the page both use it)
    marked = minilm.trace("by the river bank >")
    assert marked.tokens[marked.focus_index()] == "bank"
    with pytest.raises(FocusError, match=r"outside 0\.\.7"):
        t.focus_index(8)


def test_agrees_with_the_transformers_reference_fixture(minilm) -> None:
    ref = np.load(FIXTURE)
    for i, text in enumerate(ref["sentences"]):
        t = minilm.trace(str(text))
        assert t.token_ids == tuple(ref[f"ids_{i}"])
        assert np.abs(t.attentions[0] - ref[f"attention_first_{i}"]).max() < 1e-4
        assert np.abs(t.attentions[-1] - ref[f"attention_last_{i}"]).max() < 1e-4
        assert np.abs(t.hidden_states[-1] - ref[f"hidden_last_{i}"]).max() < 1e-4


def test_the_same_word_in_two_contexts_starts_equal_and_drifts(minilm) -> None:
    a, b = minilm.trace("by the river bank"), minilm.trace("at the savings bank")
    ia, ib = a.focus_index("bank"), b.focus_index("bank")
    assert np.array_equal(a.hidden_states[0, 0], b.hidden_states[0, 0])  # [CLS] at position 0
    va, vb = a.hidden_states[:, ia], b.hidden_states[:, ib]
    cos = (va * vb).sum(-1) / np.linalg.norm(va, axis=-1) / np.linalg.norm(vb, axis=-1)
    assert cos[0] > 0.99 and cos[-1] < cos[0]


def test_attentions_are_stacked_once_and_read_only(minilm) -> None:
    t = minilm.trace("by the river bank")
    assert t.attentions is t.attentions
    with pytest.raises(ValueError, match="read-only"):
        t.attentions[0, 0, 0, 0] = 1.0


def test_the_fixture_holds_the_scripts_sentences() -> None:
    import importlib.util

    path = Path(__file__).parents[2] / "scripts" / "make_minilm_fixture.py"
    spec = importlib.util.spec_from_file_location("make_minilm_fixture", path)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    assert tuple(np.load(FIXTURE)["sentences"]) == script.SENTENCES
    assert FIXTURE.stat().st_size < 200_000
