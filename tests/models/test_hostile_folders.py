"""Bad and hostile folders (issue 23): each refused by name, nothing read outside the folder, no
allocation from a size the file only claims. Where safetensors itself can judge a file, the test
checks that it refuses it too, so the rules here are the format's, not home-made ones. A config
whose sizes disagree with its tensors is tested in test_config_checks.py and test_llama_folder.py;
`serve` refusing such a folder and serving on, in tests/web/test_hostile_model.py."""

import json
import pickle
import struct
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from attnlab.errors import TensorFileError, UnsafeFolderError, WeightsError
from attnlab.models import load_model
from attnlab.models.gguf_reader import read_gguf
from attnlab.models.tensor_files import read_tensors

safetensors_numpy = pytest.importorskip("safetensors.numpy")

A = np.arange(12, dtype=np.float32).reshape(3, 4)


def forged(path: Path, header: dict[str, object], data: bytes, *, claim: int | None = None) -> Path:
    """A safetensors file with any header, and any header length claimed."""
    text = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(text) if claim is None else claim) + text + data)
    return path


def entry(dtype: str, shape: list[int], begin: int, end: int) -> dict[str, object]:
    return {"dtype": dtype, "shape": shape, "data_offsets": [begin, end]}


def safetensors_refuses(path: Path) -> bool:
    try:
        safetensors_numpy.load_file(str(path))
    except Exception:  # its own SafetensorError
        return True
    return False


# --- safetensors files that lie ---------------------------------------------------------------

HOSTILE = {
    "claims more bytes than the file has": (
        {"w": entry("F32", [1000, 1000], 0, 4_000_000)}, bytes(48),
        r"tensor w claims bytes up to 4,000,000 of the data but the file holds 48",
    ),
    "overlapping tensors": (
        {"a": entry("F32", [4], 0, 16), "b": entry("F32", [4], 8, 24)}, bytes(24),
        r"tensor b starts at data byte 8 and overlaps the tensor before it",
    ),
    "a span that is not its shape": (
        {"a": entry("F32", [4], 0, 8)}, bytes(8),
        r"tensor a of shape \(4,\) in F32 needs 16 bytes but its data_offsets span 8",
    ),
    "dimensions whose product overflows 64 bits": (
        {"a": entry("F32", [2**62, 2**62], 0, 16)}, bytes(16),
        r"needs 85,070,591,730,234,615,865,843,651,857,942,052,864 bytes",
    ),
    "a negative dimension": (
        {"a": entry("F32", [-1, 4], 0, 16)}, bytes(16), r"shape \[-1, 4\]; expected a list",
    ),
    "an unknown dtype": ({"a": entry("Q4", [4], 0, 16)}, bytes(16), r"dtype 'Q4'"),
}  # fmt: skip


@pytest.mark.parametrize("case", HOSTILE)
def test_a_forged_safetensors_header_is_refused_as_safetensors_refuses_it(
    case: str, tmp_path: Path
) -> None:
    header, data, message = HOSTILE[case]
    path = forged(tmp_path / "model.safetensors", header, data)
    with pytest.raises(TensorFileError, match=r"model\.safetensors cannot be read as safetensors"):
        read_tensors(tmp_path)
    with pytest.raises(TensorFileError, match=message):
        read_tensors(tmp_path)
    assert safetensors_refuses(path)


def test_an_absurd_header_length_is_refused_before_anything_is_allocated(tmp_path: Path) -> None:
    """A naive reader calls f.read(n) with n from the file: 90 MB for a 100-byte file."""
    path = forged(tmp_path / "model.safetensors", {"a": entry("F32", [4], 0, 16)}, bytes(16),
                  claim=90_000_000)  # fmt: skip
    tracemalloc.start()
    try:
        with pytest.raises(TensorFileError, match=r"header claims 90,000,000 bytes but the file"):
            read_tensors(tmp_path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000
    forged(path, {}, b"", claim=2**64 - 1)
    with pytest.raises(TensorFileError, match=r"18,446,744,073,709,551,615 bytes"):
        read_tensors(tmp_path)
    assert safetensors_refuses(path)


def test_duplicate_names_in_a_header_are_refused(tmp_path: Path) -> None:
    text = b'{"a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}, "a": ' \
           b'{"dtype": "F32", "shape": [1], "data_offsets": [4, 8]}}'  # fmt: skip
    (tmp_path / "model.safetensors").write_bytes(struct.pack("<Q", len(text)) + text + bytes(8))
    with pytest.raises(TensorFileError, match="the key 'a' appears twice"):
        read_tensors(tmp_path)


# --- an index that points outside -------------------------------------------------------------


def outside(tmp_path: Path) -> tuple[Path, Path]:
    """A folder, and beside it a valid safetensors file the folder must never read."""
    folder = tmp_path / "model"
    folder.mkdir()
    secret = tmp_path / "secret.safetensors"
    safetensors_numpy.save_file({"a": A}, str(secret))
    return folder, secret


def index(folder: Path, shard: str) -> None:
    (folder / "model.safetensors.index.json").write_text(json.dumps({"weight_map": {"a": shard}}))


@pytest.mark.parametrize("shard", ["../secret.safetensors", "../../etc/passwd", "sub/../../x"])
def test_an_index_naming_a_path_outside_the_folder_is_refused(shard: str, tmp_path: Path) -> None:
    folder, _ = outside(tmp_path)
    index(folder, shard)
    with pytest.raises(UnsafeFolderError, match=rf"names the shard '{shard}'.*outside the folder"):
        read_tensors(folder)


def test_an_index_naming_an_absolute_path_is_refused(tmp_path: Path) -> None:
    folder, secret = outside(tmp_path)
    index(folder, str(secret))  # the file exists and is valid: only the rule refuses it
    with pytest.raises(UnsafeFolderError, match="outside the folder"):
        read_tensors(folder)


def test_a_shard_that_links_outside_the_folder_is_refused(tmp_path: Path) -> None:
    folder, secret = outside(tmp_path)
    passwd = tmp_path / "passwd"  # a valid safetensors file, but not named as one
    passwd.write_bytes(secret.read_bytes())
    (folder / "model-00001-of-00001.safetensors").symlink_to(passwd)
    index(folder, "model-00001-of-00001.safetensors")
    with pytest.raises(UnsafeFolderError, match=r"a link to '.*passwd' outside the folder"):
        read_tensors(folder)
    (folder / "model.safetensors.index.json").unlink()  # the single file as a link, too
    (folder / "model.safetensors").symlink_to(passwd)
    with pytest.raises(UnsafeFolderError, match="outside the folder"):
        read_tensors(folder)


def test_a_link_to_another_safetensors_file_is_read(tmp_path: Path) -> None:
    """Weights shared between folders by a link (as the tests' own folders do) still load."""
    folder, secret = outside(tmp_path)
    (folder / "model.safetensors").symlink_to(secret)
    assert np.array_equal(read_tensors(folder)["a"], A)


def test_an_index_that_is_not_an_index_is_named(tmp_path: Path) -> None:
    (tmp_path / "model.safetensors.index.json").write_text('{"weight_map": []}')
    with pytest.raises(TensorFileError, match="lacks its weight_map"):
        read_tensors(tmp_path)


# --- a pickle ----------------------------------------------------------------------------------


class _Touch:
    """Unpickling this creates the file `path`: proof that a pickle was opened."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (Path.touch, (self.path,))


def test_a_pickle_only_folder_is_never_unpickled_and_says_how_to_convert(tmp_path: Path) -> None:
    marker = tmp_path / "unpickled"
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "pytorch_model.bin").write_bytes(pickle.dumps(_Touch(marker)))
    (folder / "config.json").write_text('{"model_type": "bert"}')
    (folder / "tokenizer.json").write_text("{}")
    for call in (read_tensors, load_model):
        with pytest.raises(UnsafeFolderError) as caught:
            call(folder)
        message = str(caught.value)
        assert "pytorch_model.bin, a Python pickle" in message
        assert "save_pretrained(folder, safe_serialization=True)" in message
    assert not marker.exists()


# --- a GGUF whose numbers are absurd -------------------------------------------------------------


def _s(text: str) -> bytes:
    return struct.pack("<Q", len(text)) + text.encode()


def gguf_file(
    path: Path,
    *,
    n_tensors: int | None = None,
    n_kv: int | None = None,
    tensors: tuple[tuple[str, tuple[int, ...], int], ...] = (("w", (8, 2), 0),),
    alignment: int = 32,
    vocab_count: int | None = None,
    data: int = 64,
) -> Path:
    """A tiny F32 GGUF v3 written by hand, so that any count or offset can lie."""
    kv = [_s("general.architecture") + struct.pack("<I", 8) + _s("llama"),
          _s("general.alignment") + struct.pack("<II", 4, alignment)]  # fmt: skip
    if vocab_count is not None:
        kv.append(_s("tokenizer.ggml.tokens") + struct.pack("<IIQ", 9, 8, vocab_count) + _s("a"))
    infos = b"".join(
        _s(name) + struct.pack("<I", len(dims)) + struct.pack(f"<{len(dims)}Q", *dims)
        + struct.pack("<IQ", 0, offset)
        for name, dims, offset in tensors
    )  # fmt: skip
    head = b"GGUF" + struct.pack("<IQQ", 3, len(tensors) if n_tensors is None else n_tensors,
                                 len(kv) if n_kv is None else n_kv)  # fmt: skip
    body = head + b"".join(kv) + infos
    body += bytes(-len(body) % 32)
    path.write_bytes(body + bytes(data))
    return path


def test_a_well_formed_hand_written_gguf_reads(tmp_path: Path) -> None:
    g = read_gguf(gguf_file(tmp_path / "ok.gguf"))
    assert g.tensors["w"].shape == (2, 8) and g.architecture == "llama"
    assert g.tensor("w").shape == (2, 8)


GGUF_CASES = {
    "an absurd tensor count": (
        {"n_tensors": 2**63}, r"claims 9,223,372,036,854,775,808 tensors, but its \d+ bytes"
    ),
    "an absurd key/value count": ({"n_kv": 2**40}, r"claims 1,099,511,627,776 key/value pairs"),
    "an absurd array length": ({"vocab_count": 2**60}, r"claims 1,152,921,504,606,846,976 array"),
    "a tensor past the end": (
        {"tensors": (("w", (8, 2), 4096),)}, r"tensor\(s\) run past its end \(the first: w"
    ),
    "dimensions whose product overflows 64 bits": (
        {"tensors": (("w", (2**32, 2**32), 0),)}, r"run past its end \(the first: w"
    ),
    "five dimensions": ({"tensors": (("w", (1, 1, 1, 1, 1), 0),)}, r"claims 5 dimensions"),
    "overlapping tensors": (
        {"tensors": (("a", (8, 2), 0), ("b", (8,), 32))}, r"tensors a and b overlap"
    ),
    "a misaligned offset": ({"tensors": (("w", (4,), 8),)}, r"offset 8, which is not a multiple"),
    "a zero alignment": ({"alignment": 0}, r"general\.alignment is 0; it must be a power of two"),
    "a duplicate tensor": (
        {"tensors": (("w", (8,), 0), ("w", (8,), 32))}, r"holds the tensor w twice"
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", GGUF_CASES)
def test_a_gguf_with_absurd_numbers_is_refused_by_name(case: str, tmp_path: Path) -> None:
    changes, message = GGUF_CASES[case]
    path = gguf_file(tmp_path / "bad.gguf", **changes)  # type: ignore[arg-type]
    with pytest.raises(WeightsError, match=r"bad\.gguf") as caught:
        read_gguf(path)
    assert caught.match(message)


def test_a_gguf_with_an_absurd_count_allocates_nothing_from_it(tmp_path: Path) -> None:
    path = gguf_file(tmp_path / "bad.gguf", vocab_count=10**8)  # 800 MB of lengths claimed
    tracemalloc.start()
    try:
        with pytest.raises(WeightsError, match="array items"):
            read_gguf(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000, peak
