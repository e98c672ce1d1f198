"""Any Llama-family folder in the Hugging Face layout: a tiny random Llama saved by transformers
loads, matches transformers' own forward pass, and a config that lies about it is named."""

import json
from pathlib import Path

import numpy as np
import pytest

from attnlab.errors import WeightsError
from attnlab.models import load_model

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

CORPUS = [
    "The river bank was muddy after the rain.",
    "The bank raised its interest rate on Monday.",
    "A small decoder attends to the tokens before it, never after.",
] * 20
TEXT = "The river bank raised its rate after the rain."


def _tokenizer(folder: Path) -> None:
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=300, special_tokens=["<|endoftext|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False,
    )  # fmt: skip
    tok.train_from_iterator(CORPUS, trainer)
    tok.save(str(folder / "tokenizer.json"))


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("tiny-llama")
    _tokenizer(folder)
    torch.manual_seed(0)
    config = transformers.LlamaConfig(
        vocab_size=320, hidden_size=64, intermediate_size=96, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=256,
        rope_theta=5000.0, tie_word_embeddings=False, rms_norm_eps=1e-5,
    )  # fmt: skip
    model = transformers.LlamaForCausalLM(config).eval()
    with torch.no_grad():  # random norms too, so that a missing γ would show
        for name, p in model.named_parameters():
            if name.endswith("norm.weight"):
                p.copy_(1 + 0.3 * torch.randn_like(p))
    model.save_pretrained(folder)
    return folder, transformers.LlamaForCausalLM.from_pretrained(
        folder, attn_implementation="eager", dtype=torch.float32
    ).eval()


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::FutureWarning")
def test_a_tiny_llama_folder_matches_transformers(tiny) -> None:  # type: ignore[no-untyped-def]
    folder, reference = tiny
    model = load_model(folder)
    assert model.name == folder.name and model.config.n_kv_heads == 2
    t = model.trace(TEXT)
    assert "".join(t.tokens) == TEXT
    with torch.no_grad():
        out = reference(input_ids=torch.tensor([t.token_ids]), output_attentions=True)
    attentions = torch.stack(out.attentions)[:, 0].numpy()
    assert np.abs(t.attentions - attentions).max() < 1e-5
    logits = np.stack([t.logits(i) for i in range(t.n)])
    assert np.abs(logits - out.logits[0].numpy()).max() < 1e-4


@pytest.mark.torch
def test_a_config_that_does_not_match_its_tensors_is_named(tiny, tmp_path) -> None:  # type: ignore[no-untyped-def]
    folder, _ = tiny
    for name in ("model.safetensors", "tokenizer.json"):
        (tmp_path / name).write_bytes((folder / name).read_bytes())
    config = json.loads((folder / "config.json").read_text())
    (tmp_path / "config.json").write_text(json.dumps({**config, "num_key_value_heads": 4}))
    with pytest.raises(
        WeightsError,
        match=r"k_proj\.weight has shape \(32, 64\); config\.json "
        r"implies \(64, 64\): the config does not match",
    ):
        load_model(tmp_path)
    (tmp_path / "config.json").write_text(json.dumps({**config, "num_hidden_layers": 3}))
    with pytest.raises(WeightsError, match=r"lacks the tensor model\.layers\.2\."):
        load_model(tmp_path)
    (tmp_path / "config.json").write_text(json.dumps({**config, "hidden_act": "gelu"}))
    with pytest.raises(WeightsError, match=r"hidden_act 'gelu' is not supported"):
        load_model(tmp_path)
