"""BERT, DistilBERT and RoBERTa folders saved by transformers, and Llama folders saved in bfloat16
and in shards: attnlab's forward pass against transformers' eager float32 one (issue 23).

Each model is tiny and random, with W_Q and W_K scaled up so that attention rows are peaked (a
check on near-uniform rows proves little; each test asserts the peak). Attention to 1e-4, the
last hidden state (or the logits) to 1e-3, ids equal to the tokenizer's default call."""

import json
from pathlib import Path

import numpy as np
import pytest

from attnlab.models import load_model

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

pytestmark = [
    pytest.mark.torch,
    pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::FutureWarning"),
]

WORDPIECE = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "the", "river", "bank", "##s", "was",
             "muddy", "."]  # fmt: skip
BYTE_BPE = {"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3, "<mask>": 4, "T": 5, "h": 6, "e": 7,
            "Ġ": 8, "b": 9, "a": 10, "n": 11, "k": 12, "Th": 13, "The": 14, "Ġb": 15, "an": 16,
            "Ġban": 17, "Ġbank": 18}  # fmt: skip
MERGES = [("T", "h"), ("Th", "e"), ("Ġ", "b"), ("a", "n"), ("Ġb", "an"), ("Ġban", "k")]
SIZES = {"hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4,
         "intermediate_size": 64}  # fmt: skip


def peaked(model, std: float = 0.3):  # type: ignore[no-untyped-def]
    """W_Q and W_K drawn wide (std 0.3, not 0.02), every norm's γ random: rows far from
    uniform."""
    with torch.no_grad():
        for name, p in model.named_parameters():
            if any(k in name for k in ("query", "key", "q_lin", "k_lin", "q_proj", "k_proj")):
                p.normal_(0.0, std)
            elif "LayerNorm.weight" in name or "layer_norm.weight" in name:
                p.copy_(1 + 0.3 * torch.randn_like(p))
    return model.eval()


def encoder(kind: str, folder: Path):  # type: ignore[no-untyped-def]
    words = {w: i for i, w in enumerate(WORDPIECE)}
    torch.manual_seed(0)
    if kind == "bert":
        tok = transformers.BertTokenizer(vocab=words)
        config = transformers.BertConfig(vocab_size=len(words), max_position_embeddings=40,
                                         **SIZES)  # fmt: skip
        model = transformers.BertModel(config, add_pooling_layer=False)
    elif kind == "distilbert":
        tok = transformers.DistilBertTokenizer(vocab=words)
        config = transformers.DistilBertConfig(vocab_size=len(words), dim=32, n_layers=2,
                                               n_heads=4, hidden_dim=64,
                                               max_position_embeddings=40)  # fmt: skip
        model = transformers.DistilBertModel(config)
    else:
        tok = transformers.RobertaTokenizer(vocab=BYTE_BPE, merges=MERGES)
        config = transformers.RobertaConfig(vocab_size=len(BYTE_BPE), max_position_embeddings=42,
                                            pad_token_id=1, type_vocab_size=1, **SIZES)  # fmt: skip
        model = transformers.RobertaModel(config, add_pooling_layer=False)
    config._attn_implementation = "eager"
    peaked(model).save_pretrained(folder)
    tok.save_pretrained(folder)
    return model, transformers.AutoTokenizer.from_pretrained(folder)


TEXTS = {"bert": "the river banks was muddy . the bank", "distilbert": "the bank was muddy .",
         "roberta": "The bank The bank The"}  # fmt: skip


@pytest.mark.parametrize("kind", ["bert", "distilbert", "roberta"])
def test_an_encoder_folder_matches_transformers(kind: str, tmp_path: Path) -> None:
    folder = tmp_path / kind
    reference, tokenizer = encoder(kind, folder)
    text = TEXTS[kind]
    ids = tokenizer(text)["input_ids"]
    model = load_model(folder)
    t = model.trace(text)
    assert model.config.architecture == kind and list(t.token_ids) == ids
    with torch.no_grad():
        out = reference(input_ids=torch.tensor([ids]), output_attentions=True)
    attentions = torch.stack(out.attentions)[:, 0].numpy()  # (L, h, n, n)
    assert attentions.max(axis=-1).mean() > 0.5, "rows near uniform: scale W_Q, W_K more"
    assert np.abs(t.attentions - attentions).max() < 1e-4
    assert np.abs(t.hidden_states[-1] - out.last_hidden_state[0].numpy()).max() < 1e-3
    first, last = t.tokens[0], t.tokens[-1]
    assert (first, last) == (("<s>", "</s>") if kind == "roberta" else ("[CLS]", "[SEP]"))
    assert first in t.special and last in t.special


def test_roberta_counts_positions_from_padding_idx_plus_one(tmp_path: Path) -> None:
    """Rows 0 and 1 of RoBERTa's position table are never used by a text without padding: a
    pass that counted from 0 would differ (this is the check that the offset is applied)."""
    folder = tmp_path / "roberta"
    reference, tokenizer = encoder("roberta", folder)
    model = load_model(folder)
    assert model.max_tokens == 40  # 42 rows, 2 before the first position
    ids = tokenizer("The bank")["input_ids"]
    with torch.no_grad():
        reference.embeddings.position_embeddings.weight[:2] = 100.0  # rows a text never uses
        expected = reference(input_ids=torch.tensor([ids])).last_hidden_state[0].numpy()
        reference.save_pretrained(folder)
    got = load_model(folder).trace("The bank").hidden_states[-1]
    assert np.abs(got - expected).max() < 1e-3


def test_a_distilbert_folder_lacking_a_key_names_its_own_key(tmp_path: Path) -> None:
    from attnlab.errors import WeightsError

    folder = tmp_path / "distilbert"
    encoder("distilbert", folder)
    config = json.loads((folder / "config.json").read_text())
    del config["dim"]
    (folder / "config.json").write_text(json.dumps(config))
    with pytest.raises(WeightsError, match=r"config\.json lacks dim"):
        load_model(folder)


# --- Llama folders as they ship: bfloat16, and sharded ----------------------------------------


def tiny_llama(folder: Path, **save):  # type: ignore[no-untyped-def]
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=300, special_tokens=["<|endoftext|>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False)  # fmt: skip
    tok.train_from_iterator(["The river bank was muddy after the rain."] * 20, trainer)
    folder.mkdir(parents=True)
    tok.save(str(folder / "tokenizer.json"))
    torch.manual_seed(0)
    config = transformers.LlamaConfig(
        vocab_size=300, hidden_size=64, intermediate_size=96, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
        tie_word_embeddings=False, attn_implementation="eager",
    )  # fmt: skip
    model = peaked(transformers.LlamaForCausalLM(config), std=0.2)
    if save.pop("bf16", False):
        model = model.to(torch.bfloat16)
    model.save_pretrained(folder, **save)
    return transformers.LlamaForCausalLM.from_pretrained(
        folder, attn_implementation="eager", dtype=torch.float32
    ).eval()


@pytest.mark.parametrize(
    ("save", "files"),
    [({"bf16": True}, ["model.safetensors"]),
     ({"max_shard_size": "100KB"}, ["model.safetensors.index.json"])],
    ids=["bfloat16", "sharded"],
)  # fmt: skip
def test_a_llama_folder_as_it_ships_matches_transformers(save, files, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "llama"
    reference = tiny_llama(folder, **save)
    assert all((folder / f).exists() for f in files)
    if "max_shard_size" in save:
        assert len(list(folder.glob("model-*-of-*.safetensors"))) > 1
    else:
        header = (folder / "model.safetensors").read_bytes()[:4000]
        assert b'"BF16"' in header
    t = load_model(folder).trace("The river bank was muddy.")
    with torch.no_grad():
        out = reference(input_ids=torch.tensor([t.token_ids]), output_attentions=True)
    attentions = torch.stack(out.attentions)[:, 0].numpy()
    assert attentions[..., 2:, :].max(axis=-1).mean() > 0.5
    assert np.abs(t.attentions - attentions).max() < 1e-4
    logits = np.stack([t.logits(i) for i in range(t.n)])
    assert np.abs(logits - out.logits[0].numpy()).max() < 1e-3


def test_roberta_shows_its_tokens_as_text_not_byte_pieces(tmp_path: Path) -> None:
    """RoBERTa's byte-level pieces are written in GPT-2's byte alphabet ("ĠThe" for " The"); the
    page, the narration and explain showed them raw. Its labels are what transformers decodes
    each id to, as GPT-2's and Qwen's are; BERT keeps its own "##" pieces."""
    folder = tmp_path / "roberta"
    _, tokenizer = encoder("roberta", folder)
    text = TEXTS["roberta"]
    ids = tokenizer(text)["input_ids"]
    t = load_model(folder).trace(text)
    assert list(t.tokens) == [tokenizer.decode([i]) for i in ids]
    assert any(tok.startswith(" ") for tok in t.tokens)
    assert not any("Ġ" in tok for tok in t.tokens)
    bert = tmp_path / "bert"
    _, bert_tokenizer = encoder("bert", bert)
    b = load_model(bert).trace(TEXTS["bert"])
    assert list(b.tokens) == bert_tokenizer.convert_ids_to_tokens(
        bert_tokenizer(TEXTS["bert"])["input_ids"]
    )
