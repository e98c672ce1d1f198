"""The tokenizer rebuilt from SmolLM2's GGUF gives transformers' ids on awkward text."""

import os

import pytest

TEXTS = (
    "The river bank was muddy after the rain.",
    "In 1969, 3.14159 and 1,234,567 and 2024-12-01 10:38",
    "  leading spaces,\ttabs\t\tand   runs     of spaces  ",
    "line one\n\nline three\r\n  indented\n",
    "café naïve Ærøskøbing — “quoted” 日本語のテキスト 한국어 🙂🚀 Привет",
    "<|im_start|>system\nYou are helpful.<|im_end|>\n<|im_start|>user\nHi!<|im_end|>\n",
    "<|endoftext|>text after an end<|im_end|>",
    "don't won't it's we'll I'M THE END!!! ...?? (a) [b] {c} <d> x<y>z",
    "def f(x):\n    return x**2  # square\n",
)


@pytest.fixture(scope="module")
def reference():  # type: ignore[no-untyped-def]
    transformers = pytest.importorskip("transformers")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from transformers.utils import logging

    from attnlab.models import model_folder

    logging.set_verbosity_error()
    path = model_folder("smollm2")[1]
    return transformers.AutoTokenizer.from_pretrained(str(path.parent), gguf_file=path.name)


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::FutureWarning")
@pytest.mark.parametrize("text", TEXTS)
def test_ids_match_transformers(smollm2, reference, text: str) -> None:  # type: ignore[no-untyped-def]
    mine = smollm2.tokenizer.encode(text, add_special_tokens=False).ids
    assert mine == reference(text, add_special_tokens=False)["input_ids"]


def test_readable_tokens_put_the_text_back_together(smollm2) -> None:  # type: ignore[no-untyped-def]
    tokens, ids = smollm2.tokenize("café <|im_start|>user\n  12")
    assert "".join(tokens) == "café <|im_start|>user\n  12"
    assert ids[tokens.index("<|im_start|>")] == 1  # a control token stays whole


def test_a_split_character_shows_its_bytes(smollm2) -> None:  # type: ignore[no-untyped-def]
    tokens, _ = smollm2.tokenize("🚀")
    assert all("\ufffd" not in t for t in tokens)
    assert len(tokens) > 1 and "".join(tokens).startswith("\\x")


def test_a_numeric_symbol_stands_alone_as_smollm2s_digits_rule_says(smollm2) -> None:  # type: ignore[no-untyped-def]
    """SmolLM2's tokenizer.json (and llama.cpp's "smollm" pre-tokenizer) isolate every numeric
    character before GPT-2's split, so " ½" is two pieces, " " and "½", as " 7" is. transformers'
    GGUF loader has no rule for "smollm" and keeps " ½" whole (ids 3351, 138): the one place
    where its ids differ from SmolLM2's own, and only for non-ASCII numerals."""
    tokens, ids = smollm2.tokenize("a ½ b 7")
    assert tokens == ("a", " ", "½", " b", " ", "7")
    assert ids[1:3] == (216, 16738)
