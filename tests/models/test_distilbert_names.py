"""A DistilBERT folder's refusals name its own keys and tensors (transformer.layer.0.ffn.lin1,
hidden_dim, n_layers), never the BERT names they are read under (encoder.layer.0.intermediate
.dense, intermediate_size, num_hidden_layers): the user has to find them in the file."""

import json
from pathlib import Path

import numpy as np
import pytest
import test_encoders_parity as encoders

from attnlab.errors import AttnlabError
from attnlab.models import load_model

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
safetensors_numpy = pytest.importorskip("safetensors.numpy")

pytestmark = [
    pytest.mark.torch,
    pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::FutureWarning"),
]

BERT_WORDS = ("encoder.layer", "intermediate", "attention.self", "attention.output",
              "hidden_size", "intermediate_size", "num_hidden_layers")  # fmt: skip


@pytest.fixture(scope="module")
def distilbert(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("distil") / "distilbert"
    encoders.encoder("distilbert", folder)
    load_model(folder)  # the control: as saved, it loads
    return folder


def copy_of(folder: Path, root: Path) -> Path:
    out = root / "copy"
    out.mkdir()
    for p in folder.iterdir():
        (out / p.name).write_bytes(p.read_bytes())
    return out


def edit_tensors(folder: Path, fn) -> None:  # type: ignore[no-untyped-def]
    path = folder / "model.safetensors"
    tensors = dict(safetensors_numpy.load_file(path))
    fn(tensors)
    safetensors_numpy.save_file(tensors, path)


def refusal(folder: Path) -> str:
    with pytest.raises(AttnlabError) as info:
        load_model(folder)
    said = str(info.value)
    for word in BERT_WORDS:
        assert word not in said, f"names BERT's {word!r}: {said}"
    return said


def test_a_missing_tensor_is_named_as_the_file_names_it(distilbert, tmp_path) -> None:  # type: ignore[no-untyped-def]
    folder = copy_of(distilbert, tmp_path)
    edit_tensors(folder, lambda t: t.pop("transformer.layer.1.ffn.lin2.weight"))
    assert "transformer.layer.1.ffn.lin2.weight" in refusal(folder)


def test_a_tensor_of_the_wrong_shape_is_named_as_the_file_names_it(distilbert, tmp_path) -> None:  # type: ignore[no-untyped-def]
    folder = copy_of(distilbert, tmp_path)
    name = "transformer.layer.0.attention.q_lin.weight"
    edit_tensors(folder, lambda t: t.update({name: np.zeros((32, 31), np.float32)}))
    assert f"tensor {name} has shape (32, 31)" in refusal(folder)


def test_a_size_that_disagrees_with_the_tensors_names_the_key_and_tensor(
    distilbert, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    folder = copy_of(distilbert, tmp_path)
    config = json.loads((folder / "config.json").read_text())
    config["hidden_dim"] = 65
    (folder / "config.json").write_text(json.dumps(config))
    said = refusal(folder)
    assert "hidden_dim" in said and "transformer.layer.0.ffn.lin1.weight" in said


def test_a_layer_count_that_disagrees_names_n_layers(distilbert, tmp_path) -> None:  # type: ignore[no-untyped-def]
    folder = copy_of(distilbert, tmp_path)
    config = json.loads((folder / "config.json").read_text())
    config["n_layers"] = 3
    (folder / "config.json").write_text(json.dumps(config))
    said = refusal(folder)
    assert "n_layers is 3" in said and "transformer.layer.0" in said
