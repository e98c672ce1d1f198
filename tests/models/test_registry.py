"""The registry by architecture and the Model protocol: config.json's model_type picks a loader."""

import json
from pathlib import Path

import numpy as np
import pytest

from attnlab.core.diagnostics import head_stats
from attnlab.errors import WeightsError
from attnlab.models import ARCHITECTURES, Model, ModelSummary, architecture_of, load_model


def folder_with(tmp_path: Path, config: dict) -> Path:  # type: ignore[type-arg]
    for name in ("model.safetensors", "tokenizer.json"):
        (tmp_path / name).write_text("{}")
    (tmp_path / "config.json").write_text(json.dumps(config))
    return tmp_path


def test_bert_is_registered() -> None:
    assert "bert" in ARCHITECTURES


def test_an_unknown_architecture_names_config_json_the_key_and_the_supported(tmp_path) -> None:  # type: ignore[no-untyped-def]
    folder = folder_with(tmp_path, {"model_type": "gpt_neox", "hidden_size": 576})
    with pytest.raises(WeightsError, match=r"model_type 'gpt_neox'.*reads 'bert'.*'llama'"):
        load_model(folder)


def test_a_config_without_model_type_is_named(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(WeightsError, match=r"config\.json .* has no model_type key.*'bert'"):
        architecture_of(folder_with(tmp_path, {"hidden_size": 8}))


def test_a_missing_file_is_named_before_the_architecture(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "config.json").write_text('{"model_type": "bert"}')
    with pytest.raises(WeightsError, match=r"lacks model\.safetensors, tokenizer\.json"):
        load_model(tmp_path)


def test_minilm_is_a_model_and_summarises_itself(minilm) -> None:
    assert isinstance(minilm, Model)
    s = ModelSummary.of(minilm)
    assert (s.name, s.architecture, s.n_layers, s.n_heads, s.n_kv_heads) == (
        "minilm",
        "bert",
        6,
        12,
        12,
    )
    assert (s.d_model, s.d_k, s.max_tokens, s.causal) == (384, 32, 512, False)


def test_minilm_keeps_q_k_v_and_its_diagnostics_match_the_weights(minilm) -> None:
    t = minilm.trace("The bank raised its rates; we walked along the river bank.")
    assert t.n_kv_heads == 12 and not t.causal and t.stats.shape == (6, 12)
    assert all(k.mask == "none" and k.keys.shape == (12, t.n, 32) for k in t.layers)
    again = head_stats(t.attentions)
    for name in ("entropy_bits", "first", "previous", "itself", "top1"):
        assert np.allclose(getattr(t.stats, name), getattr(again, name), atol=1e-6), name
    focus = t.focus_index("river")
    assert np.allclose(t.rows(focus), t.attentions[:, :, focus], rtol=0, atol=1e-6)
    assert np.array_equal(t.maps().weights, t.attentions)


def test_minilm_has_attention_sinks_on_cls_or_sep(minilm) -> None:
    """Known of BERT heads (Clark et al., 2019): many park their weight on [CLS] or [SEP]."""
    t = minilm.trace("by the river bank")
    sep = t.rows(4)[:, :, -1]  # (L, H) bank's weight on [SEP]
    assert (np.maximum(t.stats.first, sep) > 0.3).sum() >= 12
