"""Reading a folder's tensors from safetensors files, as float32, treating the files as hostile.

`read_tensors(folder)` returns every floating-point tensor of the folder by its stored name:

    model.safetensors                  one file, or
    model.safetensors.index.json       the shard index ({"weight_map": {name: file}}) and the
    model-00001-of-00002.safetensors   shards it names, each a plain file name in the folder

The format (huggingface/safetensors): an 8-byte little-endian header length N, N bytes of JSON
({name: {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {...}}), then the data,
each tensor's bytes at [8 + N + begin, 8 + N + end). F32, F16, BF16 and F64 are read and
returned as float32; BF16 is float32's upper 16 bits, so its uint16 words shifted left by 16 are
the float32 values exactly (no torch). Integer and boolean tensors (an old BERT's position_ids
buffer) are checked and skipped: they are not weights.

Why not safetensors' own NumPy loader: measured with safetensors 0.8.0 and NumPy 2.4,
`safetensors.numpy.load_file` and `safe_open(framework="numpy").get_tensor` refuse every BF16
tensor ("data type 'bfloat16' not understood"), and most checkpoints ship in BF16. So the header
is parsed here, with the rules safetensors' own `validate` applies (header at most 100 MB,
offsets contiguous from 0 without overlap, each span exactly its shape × dtype size, the data
fully covered), and each refusal names the file and the problem. The tests check that
safetensors refuses every hostile file this reader refuses, and that F32/F16 arrays equal
`load_file`'s.

Hostile input: nothing is allocated from a size a file claims before that size is checked
against the file's own length (the header length, each tensor's span), so no read allocates
more than the file holds (a float16 or bfloat16 tensor doubles as it becomes float32); shapes
are multiplied as Python integers, which do not overflow. A shard the index names must be a
plain file name inside the folder, and a tensor file that resolves (through a symlink) outside
it must be a `.safetensors` file (a weights file shared between folders, as tests and users link
them) or a blob of the Hugging Face hub cache (`blobs/` beside `snapshots/<revision>/`): a link
to /etc/passwd or a key file is refused before it is opened.
A folder with only `pytorch_model.bin` (a pickle: unpickling runs code) is refused unopened.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from attnlab.errors import TensorFileError, UnsafeFolderError, WeightsError
from attnlab.types import FloatArray

__all__ = [
    "INDEX",
    "PICKLES",
    "SINGLE",
    "StoredTensor",
    "read_safetensors",
    "read_tensors",
    "stored_dtypes",
    "tensor_files",
]

SINGLE = "model.safetensors"
INDEX = "model.safetensors.index.json"
PICKLES = ("pytorch_model.bin", "pytorch_model.bin.index.json", "model.pt", "model.pth")
MAX_HEADER = 100_000_000
"""The largest header safetensors itself accepts (its MAX_HEADER_SIZE)."""
MAX_INDEX = 50_000_000
"""The largest shard index read (a 1,000-layer model's index is a few hundred kB)."""

_FLOATS: dict[str, np.dtype[Any]] = {"F32": np.dtype("<f4"), "F16": np.dtype("<f2"),
                                     "BF16": np.dtype("<u2"), "F64": np.dtype("<f8")}  # fmt: skip
_OTHERS = {"I64": 8, "U64": 8, "I32": 4, "U32": 4, "I16": 2, "U16": 2, "I8": 1, "U8": 1,
           "BOOL": 1, "F8_E5M2": 1, "F8_E4M3": 1, "F8_E8M0": 1}  # fmt: skip
_CONVERT = (
    "convert it to safetensors, e.g. in Python with transformers: "
    "AutoModel.from_pretrained(folder).save_pretrained(folder, safe_serialization=True)"
)


@dataclass(frozen=True)
class StoredTensor:
    """One header entry, checked: dtype name, shape, and the absolute byte span in the file."""

    name: str
    dtype: str
    shape: tuple[int, ...]
    begin: int  # absolute offset of the first byte
    end: int  # absolute offset one past the last byte


def read_tensors(folder: str | os.PathLike[str]) -> dict[str, FloatArray]:
    """Every floating-point tensor of `folder` (single file or shards) as float32, by name."""
    root = Path(folder)
    tensors: dict[str, FloatArray] = {}
    for path, names in tensor_files(root):
        found, stored = _load(path)
        if names is not None:
            lacking = sorted(names - stored)
            if lacking:
                raise TensorFileError(
                    f"{INDEX} places {_some(lacking)} in {path.name}, which lacks "
                    f"{'it' if len(lacking) == 1 else 'them'}"
                )
        clash = sorted(found.keys() & tensors.keys())
        if clash:
            raise TensorFileError(f"{path.name} holds {_some(clash)} again: a tensor in two shards")
        tensors |= found
    return tensors


def stored_dtypes(folder: str | os.PathLike[str]) -> dict[str, str]:
    """Each stored tensor's dtype name (F32, BF16, I64...), from the headers alone."""
    out: dict[str, str] = {}
    for path, _ in tensor_files(Path(folder)):
        with path.open("rb") as f:
            out |= {e.name: e.dtype for e in _entries(f, path.name, _file_size(path))}
    return out


def tensor_files(root: Path) -> Iterator[tuple[Path, set[str] | None]]:
    """The folder's safetensors files, each with the names the index places in it (or None)."""
    if not root.is_dir():
        raise WeightsError(f"no weights folder at {str(root)!r}")
    if (root / INDEX).is_file():
        for name, names in _read_index(root).items():
            yield _inside(root, name, named_by=INDEX), names
        return
    if (root / SINGLE).exists():
        yield _inside(root, SINGLE, named_by=None), None
        return
    pickles = [name for name in PICKLES if (root / name).exists()]
    if pickles:
        raise UnsafeFolderError(
            f"the weights folder {str(root)!r} holds {pickles[0]}, a Python pickle, and no "
            f"{SINGLE}: attnlab never unpickles (loading a pickle can run any code); " + _CONVERT
        )
    raise WeightsError(
        f"the weights folder {str(root)!r} lacks {SINGLE} (or {INDEX} and its shards)"
    )


def read_safetensors(path: Path) -> dict[str, FloatArray]:
    """The floating-point tensors of one safetensors file as float32, every span checked."""
    return _load(path)[0]


def _load(path: Path) -> tuple[dict[str, FloatArray], set[str]]:
    """The float tensors of `path` as float32, and the names of all its tensors."""
    size = _file_size(path)
    with path.open("rb") as f:
        entries = _entries(f, path.name, size)
        out = {e.name: _read(f, e) for e in entries if e.dtype in _FLOATS}
    return out, {e.name for e in entries}


def _read(f: Any, e: StoredTensor) -> FloatArray:
    stored = _FLOATS[e.dtype]
    count = math.prod(e.shape)
    f.seek(e.begin)
    raw = np.fromfile(f, dtype=stored, count=count) if count else np.empty(0, stored)
    if raw.size != count:  # the file shrank since its size was read
        raise TensorFileError(f"{Path(f.name).name}: tensor {e.name} ends past the end of file")
    if e.dtype == "BF16":  # the upper half of a float32: shift the 16 bits back into place
        values = (raw.astype(np.uint32) << 16).view(np.float32)
    else:
        values = raw.astype(np.float32, copy=False)
    return values.reshape(e.shape)


def _file_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError as exc:
        raise WeightsError(f"{path.name} cannot be read: {exc.strerror}") from None


def _entries(f: Any, file: str, size: int) -> list[StoredTensor]:
    """The header's tensors in data order, checked against the file's `size` in bytes."""
    if size < 8:
        raise _refused(file, f"it is {size} bytes, too short for a safetensors header")
    n = int.from_bytes(f.read(8), "little")
    if n > MAX_HEADER or 8 + n > size:
        raise _refused(
            file,
            f"its header claims {n:,} bytes but the file holds {size:,} "
            f"(a safetensors header is at most {MAX_HEADER:,}): not a safetensors file, "
            "or a truncated one",
        )
    try:
        header = json.loads(f.read(n), object_pairs_hook=_no_duplicates)
    except (UnicodeDecodeError, json.JSONDecodeError, _DuplicateKey) as exc:
        raise _refused(file, f"its header is not valid JSON: {exc}") from None
    if not isinstance(header, dict):
        raise _refused(file, "its header must be a JSON object")
    header.pop("__metadata__", None)
    start = 8 + n
    entries = sorted(
        (_entry(name, info, file, start) for name, info in header.items()),
        key=lambda e: (e.begin, e.end),
    )
    at = start
    for e in entries:  # contiguous from the data's start: no gap, no overlap
        if e.begin != at:
            what = "overlaps the tensor before it" if e.begin < at else "leaves a gap before it"
            raise _refused(
                file,
                f"tensor {e.name} starts at data byte {e.begin - start:,} and {what} "
                f"(which ends at {at - start:,})",
            )
        if e.end > size:
            raise _refused(
                file,
                f"tensor {e.name} claims bytes up to {e.end - start:,} of the data but "
                f"the file holds {size - start:,}: a truncated or forged file",
            )
        at = e.end
    if at != size:
        raise _refused(
            file,
            f"its tensors cover {at - start:,} bytes of data but the file holds {size - start:,}",
        )
    return entries


def _entry(name: str, info: Any, file: str, start: int) -> StoredTensor:
    if not isinstance(info, dict):
        raise _refused(file, f"the header entry for {name!r} is not an object")
    dtype, shape, offsets = info.get("dtype"), info.get("shape"), info.get("data_offsets")
    kind = dtype if isinstance(dtype, str) else ""
    width = _FLOATS[kind].itemsize if kind in _FLOATS else _OTHERS.get(kind)
    if width is None:
        raise _refused(
            file,
            f"tensor {name} has dtype {dtype!r}; safetensors names "
            f"{', '.join([*_FLOATS, *_OTHERS])}",
        )
    if not (isinstance(shape, list) and all(_is_count(d) for d in shape)):
        raise _refused(file, f"tensor {name} has shape {shape!r}; expected a list of counts")
    if not (isinstance(offsets, list) and len(offsets) == 2 and all(map(_is_count, offsets))
            and offsets[0] <= offsets[1]):  # fmt: skip
        raise _refused(file, f"tensor {name} has data_offsets {offsets!r}; expected [begin, end]")
    need = math.prod(shape) * width  # Python integers: no overflow
    if offsets[1] - offsets[0] != need:
        raise _refused(
            file,
            f"tensor {name} of shape {tuple(shape)} in {dtype} needs {need:,} bytes but "
            f"its data_offsets span {offsets[1] - offsets[0]:,}",
        )
    return StoredTensor(name, str(dtype), tuple(shape), start + offsets[0], start + offsets[1])


def _refused(file: str, problem: str) -> TensorFileError:
    return TensorFileError(f"{file} cannot be read as safetensors: {problem}")


def _is_count(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0


class _DuplicateKey(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        twice = next(k for k in keys if keys.count(k) > 1)
        raise _DuplicateKey(f"the key {twice!r} appears twice")
    return dict(pairs)


def _read_index(root: Path) -> dict[str, set[str]]:
    """The shard index's files, each with the tensor names placed in it."""
    path = root / INDEX
    if _file_size(path) > MAX_INDEX:
        raise TensorFileError(f"{INDEX} is over {MAX_INDEX:,} bytes: not a shard index")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise TensorFileError(f"{INDEX} is not valid JSON: {exc}") from None
    weight_map = data.get("weight_map") if isinstance(data, dict) else None
    if not isinstance(weight_map, dict) or not weight_map:
        raise TensorFileError(f"{INDEX} lacks its weight_map ({{tensor name: shard file}})")
    shards: dict[str, set[str]] = {}
    for tensor, file in weight_map.items():
        if not isinstance(file, str):
            raise TensorFileError(f"{INDEX} places {tensor} in {file!r}, which is not a file name")
        shards.setdefault(file, set()).add(tensor)
    return shards


def _inside(root: Path, name: str, *, named_by: str | None) -> Path:
    """root / name once it is a file inside `root`, or a link to a hub cache blob or to another
    .safetensors file; else refused."""
    source = f"{named_by} names the shard {name!r}" if named_by else f"{name}"
    if name in ("", ".", "..") or "/" in name or "\\" in name or Path(name).is_absolute():
        raise UnsafeFolderError(
            f"{source}, which is outside the folder: a shard is a file name in the folder "
            "itself; nothing outside it is read"
        )
    path = root / name
    real, home = path.resolve(), root.resolve()
    blobs = home.parent.parent / "blobs" if home.parent.name == "snapshots" else None
    inside = real.is_relative_to(home) or (blobs is not None and real.is_relative_to(blobs))
    if not (inside or real.suffix == ".safetensors"):
        raise UnsafeFolderError(
            f"{source}, a link to {str(real)!r} outside the folder: nothing outside it is read "
            "but .safetensors files"
        )
    if not real.is_file():
        raise WeightsError(f"{source}, which is not a file in {str(root)!r}")
    return path


def _some(names: list[str]) -> str:
    more = f" and {len(names) - 3} more" if len(names) > 3 else ""
    return ", ".join(names[:3]) + more
