"""A model folder's config.json against its tensors and sane ranges (models/config_checks.py).

Each broken folder is the real all-MiniLM-L6-v2 with one thing changed (issue 9): its tensors
and tokenizer are linked, not copied, where only config.json changes.
"""

import json
import math
import shutil
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("safetensors")
pytest.importorskip("tokenizers")

from safetensors.numpy import load_file, save_file

from attnlab.errors import ConfigError, TensorValueError, WeightsError
from attnlab.models import load_model, model_folder
from attnlab.models.config_checks import (
    WEIGHT_BOUND,
    check_divides,
    check_finite_weights,
    check_layer_count,
    config_eps,
    config_int,
)

pytestmark = pytest.mark.usefixtures("minilm")  # skipped where the weights are not installed


@pytest.fixture(scope="module")
def real() -> Path:
    return model_folder("minilm")[1]


def broken(root: Path, real: Path, **change: object) -> Path:
    """MiniLM with config.json changed (a key set to None is removed)."""
    root.mkdir(exist_ok=True)
    config = json.loads((real / "config.json").read_text())
    config.update(change)
    config = {k: v for k, v in config.items() if v is not None}
    (root / "config.json").write_text(json.dumps(config))  # Infinity is written as JSON allows
    for name in ("model.safetensors", "tokenizer.json"):
        (root / name).symlink_to(real / name)
    return root


def test_the_real_folder_passes_every_check(real: Path) -> None:
    assert load_model(real).config.n_layers == 6


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"num_hidden_layers": 2}, r"config\.json: num_hidden_layers is 2 but model\.safetensors "
                                   r"has 6 layers \(encoder\.layer\.0 … 5\)"),
        ({"num_hidden_layers": 8}, "num_hidden_layers is 8 but model.safetensors has 6 layers"),
        ({"hidden_size": 768, "num_attention_heads": 12},
         "hidden_size is 768 but model.safetensors's embeddings.word_embeddings.weight has 384"),
        ({"vocab_size": 30000}, "vocab_size is 30000 but .*word_embeddings.weight has 30522 rows"),
        ({"intermediate_size": 3072},
         "intermediate_size is 3072 but .*intermediate.dense.weight has 1536 rows"),
        ({"max_position_embeddings": 128}, "max_position_embeddings is 128 but .* has 512 rows"),
        ({"num_attention_heads": 7}, "hidden_size 384 does not split into 7 heads evenly"),
        ({"layer_norm_eps": math.inf}, "layer_norm_eps must be finite"),
        ({"layer_norm_eps": -1e-12}, "layer_norm_eps must be finite and between 0 and 1"),
        ({"layer_norm_eps": 0}, "layer_norm_eps must be finite and between 0 and 1"),
        ({"layer_norm_eps": math.nan}, "layer_norm_eps must be finite"),
        ({"layer_norm_eps": "1e-12"}, "layer_norm_eps must be a small positive number"),
        ({"num_hidden_layers": 0}, "num_hidden_layers must be a positive integer, got 0"),
        ({"num_hidden_layers": 2.0}, "num_hidden_layers must be a positive integer, got 2.0"),
        ({"num_attention_heads": True}, "num_attention_heads must be a positive integer"),
        ({"hidden_size": 10**30}, "hidden_size is 10+, beyond the largest size"),
        ({"intermediate_size": None}, r"config\.json lacks intermediate_size"),
    ],
)  # fmt: skip
def test_a_config_that_disagrees_is_refused_by_key(
    tmp_path: Path, real: Path, change: dict, message: str
) -> None:
    folder = broken(tmp_path / "m", real, **change)
    with pytest.raises(ConfigError, match=message) as caught:
        load_model(folder)
    assert "config.json" in str(caught.value)
    assert isinstance(caught.value, WeightsError)  # what a host already catches


@pytest.fixture(scope="module")
def huge_weight(tmp_path_factory: pytest.TempPathFactory, real: Path) -> Path:
    root = tmp_path_factory.mktemp("huge")
    tensors = load_file(str(real / "model.safetensors"))
    w = tensors["encoder.layer.3.attention.self.key.weight"].copy()
    w[5, 7] = 3e38  # finite in float32, but the first product overflows to inf
    tensors["encoder.layer.3.attention.self.key.weight"] = w
    save_file(tensors, str(root / "model.safetensors"))
    for name in ("config.json", "tokenizer.json"):
        shutil.copy(real / name, root / name)
    return root


def test_a_weight_of_3e38_is_refused_at_load(huge_weight: Path) -> None:
    with pytest.raises(TensorValueError, match=r"encoder\.layer\.3\.attention\.self\.key\.weight "
                                               r"holds 3e\+38 at \(5, 7\)"):  # fmt: skip
        load_model(huge_weight)


def test_the_bound_has_room_above_real_weights(real: Path) -> None:
    largest = max(float(np.abs(a).max()) for name, a in load_file(str(real / "model.safetensors"))
                  .items() if a.dtype.kind == "f")  # fmt: skip
    assert largest < WEIGHT_BOUND / 100  # 7.9 in all-MiniLM-L6-v2


# The small functions on their own, as another architecture's loader calls them.


def test_config_int_and_eps_defaults_and_limits() -> None:
    assert config_int({}, "n_layer", default=4) == 4
    assert config_eps({}, "rms_norm_eps", default=1e-5) == 1e-5
    with pytest.raises(ConfigError, match=r"config\.json: rms_norm_eps must be finite"):
        config_eps({"rms_norm_eps": math.inf}, "rms_norm_eps", default=1e-5)
    with pytest.raises(ConfigError, match="lacks num_key_value_heads"):
        config_int({}, "num_key_value_heads")


def test_layer_count_names_gaps_and_prefix() -> None:
    names = [f"model.layers.{i}.mlp.weight" for i in (0, 1, 3)]
    with pytest.raises(ConfigError, match=r"num_hidden_layers is 4 but model.safetensors has "
                                          r"layers 0, 1, 3"):  # fmt: skip
        check_layer_count(names, 4, prefix="model.layers.")
    with pytest.raises(ConfigError, match=r"has no model\.layers\.… tensors"):
        check_layer_count(["embed.weight"], 1, prefix="model.layers.")
    check_layer_count([f"model.layers.{i}.w" for i in range(3)], 3, prefix="model.layers.")


def test_divides_names_both_keys() -> None:
    with pytest.raises(ConfigError, match="num_attention_heads 9 does not split into 2 kv heads"):
        check_divides(9, 2, whole_key="num_attention_heads", part_key="num_key_value_heads",
                      what="kv heads")  # fmt: skip


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf, 2e4, -3e38])
def test_finite_weights_refuses_non_finite_and_huge(value: float) -> None:
    a = np.zeros((3, 4), np.float32)
    a[2, 1] = value
    with pytest.raises(TensorValueError, match=r"tensor w holds .* at \(2, 1\)"):
        check_finite_weights("w", a)
    check_finite_weights("w", np.full((2, 2), 9999.0, np.float32))
