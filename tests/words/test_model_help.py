"""The words a host shows for one model: a decoder's or an encoder's, its own special tokens."""

from __future__ import annotations

from attnlab.words.model_help import model_words, specials_named
from attnlab.words.page import PAGE_WORDS
from attnlab.words.weights_only import MAPS_WORDS

WORDS = {**PAGE_WORDS, **MAPS_WORDS}
BERT = ("[CLS]", "[SEP]", "[PAD]", "[MASK]", "[UNK]")


def test_an_encoder_with_cls_and_sep_keeps_the_pages_words() -> None:
    out = model_words(WORDS, causal=False, special=BERT, tokens=("[CLS]", "bank", "[SEP]"))
    assert out == WORDS


def test_a_decoder_gets_the_decoders_intro_and_help_and_no_encoder_words() -> None:
    special = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")
    out = model_words(WORDS, causal=True, special=special, tokens=("it", "'s", " 3"))
    assert out["model.intro"] == PAGE_WORDS["model.intro_decoder"]
    assert out["model.text_help"] == PAGE_WORDS["model.text_help_decoder"]
    said = " ".join(out.values())
    assert "[CLS]" not in said and "##" not in said
    assert out["model.matrix.specials"] == "Special tokens (none in this text)"
    chat = model_words(WORDS, causal=True, special=special, tokens=("<|im_start|>", "hi"))
    assert chat["model.matrix.specials"] == "Special tokens (<|im_start|>)"
    assert chat["model.matrix.hidden"].startswith("Special tokens hidden (<|im_start|>), the rows")


def test_weights_with_no_source_are_not_named_after_one() -> None:
    out = model_words(WORDS, causal=False, special=(), tokens=("a", "b"), weights_only=True)
    assert out["maps.which"].format(layer=0, head=2, n=2, model="x") == (
        "Layer 0, head 2: 2 query tokens, weights only."
    )
    named = model_words(WORDS, causal=False, special=(), tokens=(), source="bert",
                        weights_only=True)  # fmt: skip
    assert named["maps.which"] == MAPS_WORDS["maps.which"]


def test_special_tokens_read_as_a_phrase() -> None:
    assert specials_named(["[CLS]", "[SEP]", "[CLS]"]) == "[CLS] and [SEP]"
    assert specials_named(["<a>", "<b>", "<c>"]) == "<a>, <b> and <c>"
    assert specials_named(["<a>"]) == "<a>"


ROBERTA = ("<s>", "<pad>", "</s>", "<unk>", "<mask>")


def test_a_roberta_encoders_help_names_its_own_start_and_end_tokens() -> None:
    """RoBERTa frames a text with <s> … </s>: no word a host shows for it names BERT's [CLS] and
    [SEP] or its ## pieces (the text help did: it was the page's BERT sentence)."""
    out = model_words(WORDS, causal=False, special=ROBERTA, tokens=("<s>", "ĠThe", "</s>"))
    assert "[CLS]" not in out["model.text_help"] and "##" not in out["model.text_help"]
    assert "<s> and </s>" in out["model.text_help"]
    for key in ("model.intro", "model.text_help", "model.matrix.specials", "model.matrix.hidden",
                "model.matrix.renormalised"):  # fmt: skip
        assert "[CLS]" not in out[key] and "[SEP]" not in out[key], key
    assert out["model.text_help"].format(max_tokens=40, d_k=8).startswith("Any text, up to 40")
