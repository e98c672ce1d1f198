"""The next-token rows mark the tokenizer's special tokens (issue 23: Gemma 3's
<start_of_image> at 74 % read as a word): a tiny Llama folder saved by transformers, whose
tokenizer has <unk>, <s> and </s>, every vocabulary entry asked, each marked special exactly
when transformers' own tokenizer lists it among its special tokens; the trace's answer too."""

from __future__ import annotations

from pathlib import Path

import pytest

from attnlab.models import load_model

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

pytestmark = [
    pytest.mark.torch,
    pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::FutureWarning"),
]

SP = {"<unk>": 0, "<s>": 1, "</s>": 2, "▁": 3, "T": 4, "h": 5, "e": 6, "b": 7, "a": 8, "n": 9,
      "k": 10, "▁b": 11, "▁T": 12, "he": 13, "an": 14, "▁The": 15, "▁ban": 16, "▁bank": 17,
      "r": 18, "i": 19, "v": 20}  # fmt: skip
MERGES = [("▁", "b"), ("▁", "T"), ("h", "e"), ("a", "n"), ("▁T", "he"), ("▁b", "an"),
          ("▁ban", "k")]  # fmt: skip


def _folder(folder: Path) -> None:
    transformers.LlamaTokenizer(vocab=SP, merges=MERGES, add_bos_token=True).save_pretrained(folder)
    torch.manual_seed(0)
    config = transformers.LlamaConfig(
        vocab_size=len(SP), hidden_size=32, intermediate_size=48, num_hidden_layers=1,
        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
        bos_token_id=1, eos_token_id=2,
    )  # fmt: skip
    transformers.LlamaForCausalLM(config).save_pretrained(folder)


def test_every_next_token_is_marked_special_as_transformers_lists_it(tmp_path: Path) -> None:
    folder = tmp_path / "tiny"
    _folder(folder)
    reference = transformers.AutoTokenizer.from_pretrained(folder)
    specials = set(reference.all_special_tokens)
    assert {"<s>", "</s>"} <= specials
    mt = load_model(str(folder)).trace("The bank")
    rows = mt.next_tokens_marked(None, len(SP))  # every entry of the vocabulary
    assert len(rows) == len(SP)
    marked = {w for w, _, s in rows if s}
    assert marked == specials & set(SP)
    assert [(w, p) for w, p, _ in rows] == list(mt.next_tokens(None, len(SP)))


def test_the_trace_answer_carries_the_mark(tmp_path: Path) -> None:
    from attnlab.encode.head_json import encode_head_view
    from attnlab.models.head_view import head_view

    folder = tmp_path / "tiny"
    _folder(folder)
    reference = transformers.AutoTokenizer.from_pretrained(folder)
    mt = load_model(str(folder)).trace("The bank")
    answer = encode_head_view(head_view(mt, layer=0, head=0, grid="none"))
    assert answer.decoder is not None
    for row in answer.decoder.next_after_last:
        assert row.special == (row.token in reference.all_special_tokens)
