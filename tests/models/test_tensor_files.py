"""read_tensors: float32, float16 and bfloat16 safetensors, one file or shards, as float32."""

import json
import struct
from pathlib import Path

import numpy as np
import pytest

from attnlab.errors import TensorFileError, UnsafeFolderError, WeightsError
from attnlab.models.tensor_files import read_safetensors, read_tensors

safetensors_numpy = pytest.importorskip("safetensors.numpy")

RNG = np.random.default_rng(0)
A = RNG.normal(size=(3, 5)).astype(np.float32)
B = RNG.normal(size=(7,)).astype(np.float32)


def write_raw(path: Path, tensors: dict[str, tuple[str, tuple[int, ...], bytes]]) -> None:
    """A safetensors file written by hand (for BF16, which NumPy cannot hand safetensors)."""
    header: dict[str, object] = {}
    data = b""
    for name, (dtype, shape, raw) in tensors.items():
        header[name] = {"dtype": dtype, "shape": list(shape),
                        "data_offsets": [len(data), len(data) + len(raw)]}  # fmt: skip
        data += raw
    text = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(text)) + text + data)


def bf16_bytes(a: np.ndarray) -> bytes:
    """bfloat16 by truncation: the upper 16 bits of each float32."""
    return (a.astype(np.float32).view(np.uint32) >> 16).astype("<u2").tobytes()


def test_float32_and_float16_equal_safetensors_own_loader(tmp_path: Path) -> None:
    path = tmp_path / "model.safetensors"
    safetensors_numpy.save_file({"a": A, "b": B.astype(np.float16)}, str(path))
    ours, theirs = read_tensors(tmp_path), safetensors_numpy.load_file(str(path))
    assert set(ours) == {"a", "b"}
    assert all(a.dtype == np.float32 for a in ours.values())
    assert np.array_equal(ours["a"], theirs["a"])
    assert np.array_equal(ours["b"], theirs["b"].astype(np.float32))


def test_bfloat16_is_read_without_torch_as_the_upper_half_of_float32(tmp_path: Path) -> None:
    exact = np.array([1.0, -2.0, 0.15625, 2.0**127, -0.0], np.float32)  # representable in bf16
    stored = {"w": ("BF16", (5,), bf16_bytes(exact)), "a": ("BF16", (3, 5), bf16_bytes(A))}
    write_raw(tmp_path / "model.safetensors", stored)
    got = read_tensors(tmp_path)
    assert np.array_equal(got["w"], exact) and got["w"].dtype == np.float32
    truncated = (A.view(np.uint32) & 0xFFFF0000).view(np.float32)
    assert np.array_equal(got["a"], truncated)
    assert np.abs(got["a"] - A).max() <= np.abs(A).max() * 2**-7  # bf16 keeps 8 bits


def test_safetensors_own_numpy_loader_refuses_bfloat16(tmp_path: Path) -> None:
    """Why this module parses the header itself (measured with safetensors 0.8)."""
    write_raw(tmp_path / "model.safetensors", {"w": ("BF16", (5,), bf16_bytes(B[:5]))})
    with pytest.raises(TypeError, match="bfloat16"):
        safetensors_numpy.load_file(str(tmp_path / "model.safetensors"))


@pytest.mark.torch
def test_bfloat16_matches_torch(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    from safetensors.torch import save_file

    t = torch.randn(4, 6, dtype=torch.float32).to(torch.bfloat16)
    save_file({"t": t}, str(tmp_path / "model.safetensors"))
    assert np.array_equal(read_tensors(tmp_path)["t"], t.float().numpy())


def test_integer_tensors_are_skipped_and_empty_ones_read(tmp_path: Path) -> None:
    safetensors_numpy.save_file(
        {"embeddings.position_ids": np.arange(4, dtype=np.int64)[None], "a": A,
         "empty": np.zeros((0, 3), np.float32)}, str(tmp_path / "model.safetensors"),
    )  # fmt: skip
    got = read_tensors(tmp_path)
    assert set(got) == {"a", "empty"} and got["empty"].shape == (0, 3)


def shard(tmp_path: Path, index: dict[str, str]) -> None:
    safetensors_numpy.save_file({"a": A}, str(tmp_path / "model-00001-of-00002.safetensors"))
    write_raw(tmp_path / "model-00002-of-00002.safetensors", {"b": ("BF16", (7,), bf16_bytes(B))})
    (tmp_path / "model.safetensors.index.json").write_text(
        json.dumps({"metadata": {"total_size": 74}, "weight_map": index})
    )


def test_a_sharded_folder_reads_every_shard_its_index_names(tmp_path: Path) -> None:
    shard(tmp_path, {"a": "model-00001-of-00002.safetensors",
                     "b": "model-00002-of-00002.safetensors"})  # fmt: skip
    got = read_tensors(tmp_path)
    assert set(got) == {"a", "b"} and np.array_equal(got["a"], A)
    assert np.abs(got["b"] - B).max() <= np.abs(B).max() * 2**-7


def test_an_index_that_misplaces_a_tensor_is_named(tmp_path: Path) -> None:
    shard(tmp_path, {"a": "model-00002-of-00002.safetensors",
                     "b": "model-00002-of-00002.safetensors"})  # fmt: skip
    with pytest.raises(TensorFileError, match=r"places a in model-00002-of-00002.safetensors"):
        read_tensors(tmp_path)


def test_an_index_naming_a_missing_shard_is_named(tmp_path: Path) -> None:
    shard(tmp_path, {"a": "model-00001-of-00002.safetensors", "b": "model-00003.safetensors"})
    with pytest.raises(WeightsError, match=r"names the shard 'model-00003\.safetensors'"):
        read_tensors(tmp_path)


def test_a_tensor_in_two_shards_is_named(tmp_path: Path) -> None:
    safetensors_numpy.save_file({"a": A}, str(tmp_path / "one.safetensors"))
    safetensors_numpy.save_file({"a": A, "b": B}, str(tmp_path / "two.safetensors"))
    (tmp_path / "model.safetensors.index.json").write_text(
        json.dumps({"weight_map": {"a": "one.safetensors", "b": "two.safetensors"}})
    )
    with pytest.raises(TensorFileError, match="holds a again"):
        read_tensors(tmp_path)


def test_a_folder_without_tensors_is_named(tmp_path: Path) -> None:
    with pytest.raises(WeightsError, match=r"lacks model.safetensors \(or model.safetensors.index"):
        read_tensors(tmp_path)
    with pytest.raises(WeightsError, match="no weights folder"):
        read_tensors(tmp_path / "absent")


def test_the_hub_cache_layout_of_links_into_blobs_is_read(tmp_path: Path) -> None:
    """huggingface_hub keeps snapshots/<rev>/model.safetensors as a link to ../../blobs/<sha>."""
    blobs, snapshot = tmp_path / "blobs", tmp_path / "snapshots" / "abc123"
    blobs.mkdir()
    snapshot.mkdir(parents=True)
    safetensors_numpy.save_file({"a": A}, str(blobs / "9f2c"))
    (snapshot / "model.safetensors").symlink_to("../../blobs/9f2c")
    assert np.array_equal(read_tensors(snapshot)["a"], A)
    elsewhere = tmp_path / "elsewhere"  # the same link from a folder that is no snapshot
    elsewhere.mkdir()
    (elsewhere / "model.safetensors").symlink_to(blobs / "9f2c")
    with pytest.raises(UnsafeFolderError, match="outside the folder"):
        read_tensors(elsewhere)


def test_read_safetensors_reads_one_file(tmp_path: Path) -> None:
    safetensors_numpy.save_file({"a": A}, str(tmp_path / "x.safetensors"))
    assert np.array_equal(read_safetensors(tmp_path / "x.safetensors")["a"], A)
