"""Reading a GGUF file (llama.cpp's format): its metadata, and its tensors as float32.

A GGUF file is a little-endian header, then the tensors' bytes:

    magic b"GGUF", version (uint32, 2 or 3), tensor count and key/value count (uint64 each)
    key/value pairs   a string key, a uint32 type, a value (scalars, strings, arrays of them)
    tensor infos      a name, its dimensions (innermost first), its ggml type, an offset
    padding           to `general.alignment` (32 by default), then every tensor's bytes

The header is parsed here with `struct` because `gguf.GGUFReader` builds one NumPy view per
string, and a 49,152-token vocabulary with 48,900 merges makes its opening take about 2.8 s, most
of a load budget of 3 s; this parser reads the same header in a few tens of milliseconds
(tests/models/test_gguf_reader.py checks it against GGUFReader field by field). The tensors are
decoded by gguf_quants.py (Q4_1, Q8_0) or by the `gguf` package's `gguf.quants.dequantize`
(F16, F32 and the other formats).

Every problem is a `WeightsError` naming the file: not a GGUF, truncated, an unknown value type
or tensor type. `gguf` is imported only when tensors are decoded.

A GGUF is input from outside, so the header's numbers are checked as llama.cpp's own loader
(gguf.cpp) checks them, before anything is allocated from them: a count of key/value pairs,
tensors or array items that the file's remaining bytes cannot hold, more than 4 dimensions
(GGML_MAX_DIMS), an alignment that is not a power of two, a duplicate key or tensor name, a
tensor offset not on the alignment, tensors that overlap or run past the end. Element counts are
multiplied as Python integers, so dimensions whose product overflows 64 bits are caught too.

llama.cpp names tensors its own way (`blk.3.attn_q.weight`); `hf_tensor_name` gives a tensor its
Hugging Face name (`model.layers.3.self_attn.q_proj.weight`) from an architecture's table of
per-layer names, which each reader (llama_checkpoint.py, gemma3_checkpoint.py) keeps.
"""

from __future__ import annotations

import math
import mmap
import struct
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np

from attnlab.errors import WeightsError
from attnlab.models.gguf_quants import FAST, dequantize_fast
from attnlab.types import FloatArray

__all__ = ["GGUFFile", "TensorInfo", "hf_tensor_name", "read_gguf"]

MAGIC = b"GGUF"
DEFAULT_ALIGNMENT = 32
HEADER_GUESS = 16 << 20
"""Bytes read for the header first (SmolLM2's is 2 MB); the whole file if it is longer."""
_SCALARS: dict[int, str] = {  # GGUF value type -> struct format
    0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?",
    10: "<Q", 11: "<q", 12: "<d",
}  # fmt: skip
_STRING, _ARRAY = 8, 9
_U64 = struct.Struct("<Q")
MAX_DIMS = 4
"""GGML_MAX_DIMS: a ggml tensor has at most four dimensions."""
_SMALLEST = {"key/value pairs": 13, "tensors": 24}
"""The fewest bytes one entry takes (a key: length 8 + type 4 + a value of 1; a tensor info:
name length 8 + n_dims 4 + type 4 + offset 8), which bounds a count by the bytes left."""


@dataclass(frozen=True)
class TensorInfo:
    """One tensor's entry in the header: dims innermost first, as GGUF stores them."""

    name: str
    dims: tuple[int, ...]
    ggml_type: int
    offset: int  # from the start of the data section

    @property
    def shape(self) -> tuple[int, ...]:
        """The NumPy (row-major) shape: GGUF's dims reversed, (out, in) for a linear layer."""
        return tuple(reversed(self.dims))


@dataclass(frozen=True)
class GGUFFile:
    """A parsed GGUF header and the file's bytes, mapped read-only."""

    path: Path
    version: int
    metadata: dict[str, Any]
    tensors: dict[str, TensorInfo]
    data_start: int
    buffer: mmap.mmap

    @property
    def architecture(self) -> str:
        """general.architecture: the prefix of the model's own keys (llama, gemma3, qwen2...)."""
        arch = self.metadata.get("general.architecture")
        if not isinstance(arch, str) or not arch:
            raise WeightsError(f"{self.path.name} lacks the metadata key general.architecture")
        return arch

    def model_value(self, key: str, default: Any = None) -> Any:
        """The metadata value `{architecture}.{key}` (e.g. gemma3.block_count), or `default`."""
        return self.metadata.get(f"{self.architecture}.{key}", default)

    def tensor(self, name: str) -> FloatArray:
        """Tensor `name` decoded to float32 in its NumPy shape (a linear layer's is (out, in))."""
        from gguf.constants import GGML_QUANT_SIZES, GGMLQuantizationType
        from gguf.quants import dequantize

        info = self.tensors[name]
        start = self.data_start + info.offset
        nbytes = _nbytes(info)
        raw = np.frombuffer(self.buffer, dtype=np.uint8, count=nbytes, offset=start)
        if info.ggml_type in FAST:  # Q4_1, Q8_0: decoded here in whole-tensor passes
            count = math.prod(info.dims)
            return dequantize_fast(raw, info.ggml_type, count).reshape(info.shape)
        qtype = GGMLQuantizationType(info.ggml_type)
        block, type_size = GGML_QUANT_SIZES[qtype]
        rows = info.shape[:-1]
        raw = raw.reshape(*rows, info.dims[0] // block * type_size)  # (..., bytes per row)
        out = dequantize(raw, qtype)
        return np.ascontiguousarray(out, dtype=np.float32).reshape(info.shape)


def _nbytes(info: TensorInfo) -> int:
    from gguf.constants import GGML_QUANT_SIZES, GGMLQuantizationType

    try:
        block, type_size = GGML_QUANT_SIZES[GGMLQuantizationType(info.ggml_type)]
    except (ValueError, KeyError):
        raise WeightsError(
            f"tensor {info.name} has ggml type {info.ggml_type}, which the gguf package "
            "cannot decode"
        ) from None
    count = math.prod(info.dims)  # a Python integer: no overflow
    if info.dims and info.dims[0] % block:
        raise WeightsError(
            f"tensor {info.name}: its rows of {info.dims[0]} are not whole blocks of {block}"
        )
    return count // block * type_size


class _Cursor:
    """Reads little-endian values from a buffer, advancing an offset."""

    def __init__(self, buffer: bytes, *, file: str, file_size: int) -> None:
        self.buffer = buffer
        self.at = 0
        self.file = file
        self.file_size = file_size

    def count(self, what: str, smallest: int) -> int:
        """A uint64 count of `what`, each at least `smallest` bytes, that the file can hold."""
        n: int = self.scalar("<Q")
        room = max(self.file_size - self.at, 0) // smallest
        if n > room:
            raise WeightsError(
                f"{self.file} is truncated or damaged: it claims {n:,} {what}, but its "
                f"{self.file_size:,} bytes have room for at most {room:,}"
            )
        return n

    def scalar(self, fmt: str) -> Any:
        (value,) = struct.unpack_from(fmt, self.buffer, self.at)
        self.at += struct.calcsize(fmt)
        return value

    def string(self) -> str:
        size = self.scalar("<Q")
        if self.at + size > len(self.buffer):
            raise struct.error("string runs past the end")
        raw = self.buffer[self.at : self.at + size]
        self.at += size
        return raw.decode("utf-8", errors="surrogateescape")

    def value(self, kind: int) -> Any:
        if kind == _STRING:
            return self.string()
        if kind == _ARRAY:
            inner = self.scalar("<I")
            smallest = struct.calcsize(_SCALARS[inner]) if inner in _SCALARS else 8
            count = self.count("array items", smallest)
            return list(self._items(inner, count))
        fmt = _SCALARS.get(kind)
        if fmt is None:
            raise WeightsError(f"unknown GGUF value type {kind}")
        return self.scalar(fmt)

    def _items(self, inner: int, count: int) -> Iterator[Any]:
        fmt = _SCALARS.get(inner)
        if fmt is not None:  # a numeric array: one unpack for all of it
            size = struct.calcsize(fmt)
            end = self.at + size * count
            if end > len(self.buffer):
                raise struct.error("array runs past the end")
            values = np.frombuffer(self.buffer, dtype=fmt, count=count, offset=self.at)
            self.at = end
            yield from values.tolist()
            return
        if inner == _STRING:  # a vocabulary: 49,152 strings, so the loop is kept tight
            yield from self._strings(count)
            return
        for _ in range(count):
            yield self.value(inner)

    def _strings(self, count: int) -> list[str]:
        buf, at, out = self.buffer, self.at, []
        size_of = _U64.unpack_from
        for _ in range(count):
            (size,) = size_of(buf, at)
            at += 8
            out.append(buf[at : at + size].decode("utf-8", errors="surrogateescape"))
            at += size
        if at > len(buf):
            raise struct.error("strings run past the end")
        self.at = at
        return out


_WHOLE_MODEL_NAMES = {  # llama.cpp's names outside the blocks -> Hugging Face's
    "token_embd.weight": "model.embed_tokens.weight",
    "output_norm.weight": "model.norm.weight",
    "output.weight": "lm_head.weight",
}


def hf_tensor_name(gguf_name: str, layer_names: Mapping[str, str]) -> str | None:
    """A GGUF tensor's Hugging Face name, `layer_names` mapping llama.cpp's per-layer names to
    Hugging Face's (attn_q -> self_attn.q_proj); None for a tensor neither names (rope_freqs)."""
    if gguf_name in _WHOLE_MODEL_NAMES:
        return _WHOLE_MODEL_NAMES[gguf_name]
    parts = gguf_name.split(".")  # blk, layer, name, weight
    if len(parts) == 4 and parts[0] == "blk" and parts[2] in layer_names:
        return f"model.layers.{parts[1]}.{layer_names[parts[2]]}.{parts[3]}"
    return None


def read_gguf(path: str | Path) -> GGUFFile:
    """Parse the header of the GGUF file at `path`; WeightsError if it is not a whole GGUF."""
    path = Path(path)
    try:
        with path.open("rb") as f:
            buffer = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError) as exc:  # ValueError: an empty file cannot be mapped
        raise WeightsError(f"cannot read the GGUF file {str(path)!r}: {exc}") from None
    if buffer[:4] != MAGIC:
        raise WeightsError(f"{path.name} is not a GGUF file: it does not start with b'GGUF'")
    try:  # the header, usually a few MB, parsed from a bytes copy: slicing an mmap is slower
        try:
            return _parse(path, buffer, buffer[:HEADER_GUESS])
        except struct.error:
            if len(buffer) <= HEADER_GUESS:
                raise
            return _parse(path, buffer, buffer[:])
    except (struct.error, UnicodeDecodeError, RecursionError):
        raise WeightsError(
            f"{path.name} is truncated or damaged: its header ends before it is complete"
        ) from None


def _parse(path: Path, buffer: mmap.mmap, header: bytes) -> GGUFFile:
    c = _Cursor(header, file=path.name, file_size=len(buffer))
    c.at = 4
    version = c.scalar("<I")
    if version not in (2, 3):
        raise WeightsError(f"{path.name} is GGUF version {version}; attnlab reads versions 2 and 3")
    n_tensors = c.count("tensors", _SMALLEST["tensors"])
    n_kv = c.count("key/value pairs", _SMALLEST["key/value pairs"])
    metadata: dict[str, Any] = {}
    for _ in range(n_kv):
        key = c.string()
        if key in metadata:
            raise WeightsError(f"{path.name} holds the metadata key {key!r} twice")
        metadata[key] = c.value(c.scalar("<I"))
    tensors: dict[str, TensorInfo] = {}
    for _ in range(n_tensors):
        name = c.string()
        n_dims = c.scalar("<I")
        if n_dims > MAX_DIMS:
            raise WeightsError(
                f"{path.name}: tensor {name} claims {n_dims:,} dimensions; GGUF allows at "
                f"most {MAX_DIMS}"
            )
        dims = tuple(c.scalar("<Q") for _ in range(n_dims))
        if name in tensors:
            raise WeightsError(f"{path.name} holds the tensor {name} twice")
        tensors[name] = TensorInfo(name, dims, c.scalar("<I"), c.scalar("<Q"))
    align = _alignment(path.name, metadata)
    data_start = -(-c.at // align) * align
    _check_spans(path.name, tensors, align, data_start, len(buffer))
    return GGUFFile(path, version, metadata, tensors, data_start, buffer)


def _alignment(file: str, metadata: dict[str, Any]) -> int:
    align = metadata.get("general.alignment", DEFAULT_ALIGNMENT)
    if isinstance(align, bool) or not isinstance(align, int) or align < 1 or align & (align - 1):
        raise WeightsError(
            f"{file}: general.alignment is {align!r}; it must be a power of two (32 by default)"
        )
    return align


def _check_spans(
    file: str, tensors: dict[str, TensorInfo], align: int, data_start: int, size: int
) -> None:
    """Every tensor on the alignment, inside the file, and apart from every other."""
    spans = []
    for name, t in tensors.items():
        if t.offset % align:
            raise WeightsError(
                f"{file}: tensor {name} starts at offset {t.offset:,}, which is not a multiple "
                f"of the alignment {align}"
            )
        try:
            nbytes = _nbytes(t)
        except WeightsError as exc:
            raise WeightsError(f"{file}: {exc}") from None
        spans.append((data_start + t.offset, data_start + t.offset + nbytes, name))
    short = [(end, name) for _, end, name in spans if end > size]
    if short:
        end, name = short[0]
        raise WeightsError(
            f"{file} is truncated: it is {size:,} bytes long, and {len(short)} tensor(s) run "
            f"past its end (the first: {name}, to byte {end:,}); download it again"
        )
    spans.sort()
    for (_, end, before), (begin, _, name) in pairwise(spans):
        if begin < end:
            raise WeightsError(f"{file}: tensors {before} and {name} overlap in the file")
