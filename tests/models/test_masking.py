"""Masking a token in MiniLM: exact properties of the distances, checked against a direct
recomputation from two independent forward passes."""

import numpy as np
import pytest

from attnlab.errors import MaskTokenError
from attnlab.models.masking import mask_token

TEXT = "by the river bank"  # [CLS] by the river bank [SEP]: bank is 4, river 3


def test_masking_nothing_moves_nothing(minilm) -> None:
    base = minilm.trace(TEXT)
    m = mask_token(minilm, base, focus=4, word=None, how="none")
    assert m.edited is not base and m.edited.tokens == base.tokens  # a second pass
    assert m.shared == tuple((j, j) for j in range(6))
    assert np.array_equal(m.tv, np.zeros((6, 12)))
    assert np.allclose(m.cosine_distance, 0, atol=1e-12) and np.array_equal(m.l2, np.zeros(7))


def test_mask_replaces_the_pieces_and_matches_a_direct_recomputation(minilm) -> None:
    base = minilm.trace(TEXT)
    m = mask_token(minilm, base, focus=4, word="river", how="mask")
    assert m.edited.tokens == ("[CLS]", "by", "the", "[MASK]", "bank", "[SEP]")
    assert m.edited.token_ids[3] == 103 and m.edited_focus == 4
    direct = minilm.trace("by the [MASK] bank")  # the tokenizer's own [MASK]: a separate pass
    keys = [0, 1, 2, 4, 5]
    p = base.attentions[:, :, 4, keys].astype(np.float64)
    q = direct.attentions[:, :, 4, keys].astype(np.float64)
    p, q = p / p.sum(-1, keepdims=True), q / q.sum(-1, keepdims=True)
    assert np.allclose(m.tv, 0.5 * np.abs(p - q).sum(-1), atol=1e-6)
    x, y = base.hidden_states[:, 4].astype(float), direct.hidden_states[:, 4].astype(float)
    cos = (x * y).sum(-1) / np.linalg.norm(x, axis=-1) / np.linalg.norm(y, axis=-1)
    assert np.allclose(m.cosine_distance, 1 - cos, atol=1e-6)
    assert np.allclose(m.l2, np.linalg.norm(x - y, axis=-1), atol=1e-4)
    assert np.allclose(m.target_weight, base.attentions[:, :, 4, 3], atol=1e-7)


def test_under_mask_layer_0s_row_over_the_other_keys_cannot_move(minilm) -> None:
    """Softmax over a subset, renormalised, depends only on those keys' scores; entering layer
    0 the other tokens' vectors are unchanged, so layer 0's renormalised row is the same."""
    m = mask_token(minilm, minilm.trace(TEXT), focus=4, word="river", how="mask")
    assert np.allclose(m.tv[0], 0, atol=1e-6) and m.cosine_distance[0] == pytest.approx(0)
    assert (m.tv[1:] > 1e-3).all() and m.cosine_distance[-1] > 1e-3  # and then they do


def test_drop_removes_the_pieces_and_renormalises_the_plain_row(minilm) -> None:
    base = minilm.trace("a riverbank by the road")  # river ##bank are 2 and 3
    m = mask_token(minilm, base, focus=6, word="riverbank", how="drop")
    assert m.edited.tokens == ("[CLS]", "a", "by", "the", "road", "[SEP]")
    assert m.shared == ((0, 0), (1, 1), (4, 2), (5, 3), (6, 4), (7, 5))
    direct = minilm.trace("a by the road")
    p = base.attentions[:, :, 6, [0, 1, 4, 5, 6, 7]].astype(np.float64)
    p = p / p.sum(-1, keepdims=True)  # the plain row renormalised over the kept keys
    q = direct.attentions[:, :, 4, :].astype(np.float64)  # already sums to 1 over them
    assert np.allclose(q.sum(-1), 1, atol=1e-5)
    assert np.allclose(m.tv, 0.5 * np.abs(p - q).sum(-1), atol=1e-5)
    gone = base.attentions[:, :, 6, 2:4].sum(-1)
    assert np.allclose(m.target_weight, gone, atol=1e-6)


def test_bad_targets_are_named(minilm) -> None:
    base = minilm.trace(TEXT)
    with pytest.raises(MaskTokenError, match="the focus 'bank' is the token masked"):
        mask_token(minilm, base, focus=4, word="bank")
    with pytest.raises(MaskTokenError, match="special token"):
        mask_token(minilm, base, focus=4, word=0)
    with pytest.raises(MaskTokenError) as caught:
        mask_token(minilm, base, focus=4, word="sea")
    assert str(caught.value) == (
        "“sea” is not a word of the text: type one of its words: by, the, river, bank"
    )
    with pytest.raises(MaskTokenError, match="choose a word to mask"):
        mask_token(minilm, base, focus=4, word=" ")


def test_repr_is_short(minilm) -> None:
    m = mask_token(minilm, minilm.trace(TEXT), focus=4, word="river")
    assert repr(m).startswith("Masking(mask 'river', focus 4 'bank'") and len(repr(m)) < 200


def test_in_a_decoder_dropping_a_later_token_moves_nothing(smollm2) -> None:
    """Causal attention: the focus never sees a token after it, so dropping one changes neither
    its row nor its vector (positions before it are unchanged too). A decoder has no mask token."""
    base = smollm2.trace("The river bank was flooded by the storm")
    bank = base.focus_index("bank")
    later = mask_token(smollm2, base, focus=bank, word="storm", how="drop")
    assert later.edited.n == base.n - 1
    assert np.allclose(later.tv, 0, atol=1e-5) and np.allclose(later.cosine_distance, 0, atol=1e-6)
    earlier = mask_token(smollm2, base, focus=base.focus_index("storm"), word="river", how="drop")
    assert earlier.tv.shape == (30, 9) and earlier.tv_mean[-1] > 1e-3
    with pytest.raises(MaskTokenError, match="smollm2 has no mask token: drop the word instead"):
        mask_token(smollm2, base, focus=bank, word="storm", how="mask")
    assert len(repr(base)) < 300 and repr(base).startswith("DecoderTrace('smollm2': 8 tokens")


NEWCOMER = "The bank of the river flooded, so the bank downtown closed early."


def test_the_edited_text_is_the_text_with_the_word_cut_not_the_tokens_joined(smollm2) -> None:
    """Bug (issue 22): dropping river showed "The bank of the flooded , so the bank downtown
    closed early ." (the tokens joined by spaces); it is the text, cut along the token spans."""
    base = smollm2.trace(NEWCOMER)
    m = mask_token(smollm2, base, focus=base.n - 2, word="river", how="drop")
    assert m.edited_text == "The bank of the flooded, so the bank downtown closed early."
    first = mask_token(smollm2, base, focus=base.n - 2, word="The", how="drop")
    assert first.edited_text == "bank of the river flooded, so the bank downtown closed early."
    none = mask_token(smollm2, base, focus=base.n - 2, word=None, how="none")
    assert none.edited_text == NEWCOMER


def test_a_masked_word_of_pieces_is_one_mask_token_a_piece_in_the_text(minilm) -> None:
    base = minilm.trace("A riverbank by the road")  # river ##bank are 2 and 3
    m = mask_token(minilm, base, focus=6, word="riverbank", how="mask")
    assert m.edited_text == "A [MASK][MASK] by the road"
    assert minilm.trace(m.edited_text).tokens == m.edited.tokens  # the text runs what was run


def test_an_unknown_word_is_refused_in_plain_words_listing_what_can_be_typed(smollm2) -> None:
    """Bug (issue 22): "'zebra' is not a word of the text: choose one of ['The', …, 'flooded,',
    …, 'early.']": a Python list, punctuation stuck to the words."""
    base = smollm2.trace(NEWCOMER)
    with pytest.raises(MaskTokenError) as caught:
        mask_token(smollm2, base, focus=3, word="zebra", how="drop")
    said = str(caught.value)
    assert said == (
        "“zebra” is not a word of the text: type one of its words: The, bank, of, river, "
        "flooded, so, downtown, closed, early"
    )
    for word in ("flooded", "early", "downtown"):  # every word listed is one that masks
        assert mask_token(smollm2, base, focus=1, word=word, how="drop").target is not None
