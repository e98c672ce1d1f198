"""Ids exactly as `AutoTokenizer.from_pretrained(folder)(text)["input_ids"]` gives them (issue 23):
a start token (BOS) where the tokenizer adds one, none where it does not, and the tokens it added
named on the page."""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from attnlab.models.default_ids import (
    added_tokens,
    default_encoding,
    gguf_template,
    template_tokens,
    typed_count,
)

tokenizers = pytest.importorskip("tokenizers")

TEXTS = ["The bank", "the river banks was muddy .", "bank"]
WORDPIECE = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "the", "river", "bank", "##s", "was",
             "muddy", "."]  # fmt: skip
BYTE_BPE = {"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3, "<mask>": 4, "T": 5, "h": 6, "e": 7,
            "Ġ": 8, "b": 9, "a": 10, "n": 11, "k": 12, "Th": 13, "The": 14, "Ġb": 15, "an": 16,
            "Ġban": 17, "Ġbank": 18}  # fmt: skip
MERGES = [("T", "h"), ("Th", "e"), ("Ġ", "b"), ("a", "n"), ("Ġb", "an"), ("Ġban", "k")]
SP = {"<unk>": 0, "<s>": 1, "</s>": 2, "▁": 3, "T": 4, "h": 5, "e": 6, "b": 7, "a": 8, "n": 9,
      "k": 10, "▁b": 11, "▁T": 12, "he": 13, "an": 14, "▁The": 15, "▁ban": 16, "▁bank": 17,
      "r": 18, "i": 19, "v": 20}  # fmt: skip
SP_MERGES = [("▁", "b"), ("▁", "T"), ("h", "e"), ("a", "n"), ("▁T", "he"), ("▁b", "an"),
             ("▁ban", "k")]  # fmt: skip


def saved(tmp_path: Path, kind: str) -> Path:
    """A tokenizer of `kind` built and saved by transformers, as a model folder holds it."""
    transformers = pytest.importorskip("transformers")
    words = {w: i for i, w in enumerate(WORDPIECE)}
    make = {
        "bert": lambda: transformers.BertTokenizer(vocab=words),
        "distilbert": lambda: transformers.DistilBertTokenizer(vocab=words),
        "roberta": lambda: transformers.RobertaTokenizer(vocab=BYTE_BPE, merges=MERGES),
        "gpt2": lambda: transformers.GPT2Tokenizer(vocab=BYTE_BPE, merges=MERGES, bos_token="<s>",
                                                   eos_token="</s>", unk_token="<unk>"),
        "llama": lambda: transformers.LlamaTokenizer(vocab=SP, merges=SP_MERGES,
                                                     add_bos_token=True),
        "llama-no-bos": lambda: transformers.LlamaTokenizer(vocab=SP, merges=SP_MERGES),
    }  # fmt: skip
    folder = tmp_path / kind
    make[kind]().save_pretrained(folder)
    return folder


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::FutureWarning")
@pytest.mark.parametrize(
    ("kind", "first", "last"),
    [("llama", "<s>", None), ("llama-no-bos", None, None), ("gpt2", None, None),
     ("bert", "[CLS]", "[SEP]"), ("distilbert", "[CLS]", "[SEP]"), ("roberta", "<s>", "</s>")],
)  # fmt: skip
def test_ids_are_transformers_default_call(kind: str, first, last, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from transformers import AutoTokenizer

    folder = saved(tmp_path, kind)
    reference = AutoTokenizer.from_pretrained(folder)
    ours = tokenizers.Tokenizer.from_file(str(folder / "tokenizer.json"))
    for text in TEXTS:
        enc = default_encoding(ours, text)
        assert enc.ids == reference(text)["input_ids"], (kind, text)
        assert added_tokens(enc) == tuple(t for t in (first, last) if t)
        assert typed_count(enc) == len(enc.ids) - len(added_tokens(enc))


@pytest.mark.torch
def test_tokenizer_config_add_bos_token_changes_nothing_in_transformers_5(tmp_path: Path) -> None:
    """What default_ids.py's docstring says it measured: tokenizer.json's post-processor decides."""
    from transformers import AutoTokenizer

    folder = saved(tmp_path, "llama-no-bos")
    config = json.loads((folder / "tokenizer_config.json").read_text())
    (folder / "tokenizer_config.json").write_text(json.dumps({**config, "add_bos_token": True}))
    ours = tokenizers.Tokenizer.from_file(str(folder / "tokenizer.json"))
    ids = AutoTokenizer.from_pretrained(folder)("The bank")["input_ids"]
    assert ids == default_encoding(ours, "The bank").ids == [15, 17]


def test_a_special_token_typed_in_the_text_is_the_texts_own() -> None:
    tok = tokenizers.Tokenizer(tokenizers.models.WordLevel({"<s>": 0, "<|im_start|>": 1, "a": 2}))
    tok.pre_tokenizer = tokenizers.pre_tokenizers.WhitespaceSplit()
    tok.add_special_tokens(["<|im_start|>"])
    metadata = {"tokenizer.ggml.tokens": ["<s>", "<|im_start|>", "a"],
                "tokenizer.ggml.add_bos_token": True, "tokenizer.ggml.bos_token_id": 0}  # fmt: skip
    gguf_template(tok, metadata)
    enc = default_encoding(tok, "<|im_start|> a")
    assert enc.tokens == ["<s>", "<|im_start|>", "a"] and added_tokens(enc) == ("<s>",)
    assert template_tokens(tok) == ("<s>",) and typed_count(default_encoding(tok, "")) == 0


def _metadata(**flags: object) -> dict[str, object]:
    return {"tokenizer.ggml.tokens": ["<s>", "</s>", "a"], "tokenizer.ggml.bos_token_id": 0,
            "tokenizer.ggml.eos_token_id": 1, **flags}  # fmt: skip


@pytest.mark.parametrize(
    ("flags", "ids"),
    [({"tokenizer.ggml.model": "gpt2"}, [2]),
     ({"tokenizer.ggml.model": "llama"}, [0, 2]),  # SentencePiece: BOS unless told otherwise
     ({"tokenizer.ggml.model": "llama", "tokenizer.ggml.add_bos_token": False}, [2]),
     ({"tokenizer.ggml.model": "gpt2", "tokenizer.ggml.add_bos_token": True}, [0, 2]),
     ({"tokenizer.ggml.model": "gpt2", "tokenizer.ggml.add_bos_token": True,
       "tokenizer.ggml.add_eos_token": True}, [0, 2, 1]),
     ({"tokenizer.ggml.model": "gpt2", "tokenizer.ggml.add_bos_token": True,
       "tokenizer.ggml.bos_token_id": 99}, [2])],  # an id past the vocabulary: nothing added
)  # fmt: skip
def test_a_gguf_template_follows_transformers_rules(flags, ids) -> None:  # type: ignore[no-untyped-def]
    tok = tokenizers.Tokenizer(tokenizers.models.WordLevel({"<s>": 0, "</s>": 1, "a": 2}))
    gguf_template(tok, _metadata(**flags))
    assert tok.encode("a").ids == ids


def _gguf_with_bos(path: Path) -> None:
    """A tiny llama GGUF whose byte-level BPE vocabulary says add_bos_token: true."""
    gguf = pytest.importorskip("gguf")
    vocab = [t for t, _ in sorted(BYTE_BPE.items(), key=lambda kv: kv[1])]
    w = gguf.GGUFWriter(str(path), "llama")
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("default")
    w.add_token_list(vocab)
    w.add_token_types([3, 3, 3, 3, 3] + [1] * (len(vocab) - 5))
    w.add_token_merges([f"{a} {b}" for a, b in MERGES])
    w.add_bos_token_id(0)
    w.add_eos_token_id(2)
    w.add_add_bos_token(True)
    w.add_tensor("token_embd.weight", np.zeros((len(vocab), 8), dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::FutureWarning")
def test_a_gguf_that_adds_bos_gives_transformers_ids(tmp_path: Path) -> None:
    from transformers import AutoTokenizer

    from attnlab.models.gguf_reader import read_gguf
    from attnlab.models.gguf_tokenizer import gguf_tokenizer

    _gguf_with_bos(tmp_path / "tiny.gguf")
    ours = gguf_tokenizer(read_gguf(tmp_path / "tiny.gguf").metadata, where="tiny.gguf")
    reference = AutoTokenizer.from_pretrained(tmp_path, gguf_file="tiny.gguf")
    for text in TEXTS[:1]:
        assert default_encoding(ours, text).ids == reference(text)["input_ids"]
        assert default_encoding(ours, text).ids[0] == 0


# --- a whole model: the ids, the numbers, and the page's words ----------------------------------


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::FutureWarning")
def test_a_llama_folder_whose_tokenizer_adds_bos_runs_on_transformers_sequence(tmp_path) -> None:  # type: ignore[no-untyped-def]
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from attnlab.models import load_model
    from attnlab.words.model_help import model_words
    from attnlab.words.page import PAGE_WORDS

    folder = saved(tmp_path, "llama")
    torch.manual_seed(0)
    config = transformers.LlamaConfig(
        vocab_size=len(SP), hidden_size=32, intermediate_size=48, num_hidden_layers=1,
        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
        bos_token_id=1, eos_token_id=2, pad_token_id=None, attn_implementation="eager",
    )  # fmt: skip
    model = transformers.LlamaForCausalLM(config).eval()
    with torch.no_grad():  # peaked rows, not near-uniform ones
        for name, p in model.named_parameters():
            if "q_proj" in name or "k_proj" in name:
                p.mul_(8)
    model.save_pretrained(folder)
    text = "The bank"
    ids = transformers.AutoTokenizer.from_pretrained(folder)(text)["input_ids"]
    assert ids[0] == 1  # the reference adds <s>
    t = load_model(folder).trace(text)
    assert list(t.token_ids) == ids and t.tokens[0] == "<s>" and "<s>" in t.special
    with torch.no_grad():
        out = model(input_ids=torch.tensor([ids]), output_attentions=True)
    reference = torch.stack(out.attentions)[:, 0].numpy()
    assert reference[..., -1, :].max() > 0.6  # a peaked row: the check means something
    assert np.abs(t.attentions - reference).max() < 1e-4
    words = model_words(PAGE_WORDS, causal=True, special=t.special, tokens=t.tokens)
    assert words["model.matrix.specials"] == "Special tokens (<s>)"
    shutil.rmtree(folder)
