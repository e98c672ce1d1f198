"""The README's "Adding an architecture" cites only what exists: every path it names is a file,
every code name one of the modules it points to defines, and every registered architecture has
the parity case it tells a newcomer to add (issue 23, item 1)."""

from __future__ import annotations

import importlib
import keyword
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "attnlab"
README = (ROOT / "README.md").read_text(encoding="utf-8")
MODULES = ("attnlab.models", "attnlab.models.readers", "attnlab.models.readers.common",
           "attnlab.models.spec", "attnlab.models.decoder", "attnlab.models.registry",
           "attnlab.models.decoder_pieces", "attnlab.models.readers.qwen2")  # fmt: skip
CONFIG_WORDS = {"model_type", "config", "tensors", "folder"}  # config.json's key; read's arguments


def _section() -> str:
    m = re.search(r"^## Adding an architecture\n(.*?)(?=^## |\Z)", README, re.S | re.M)
    assert m is not None, "the README has no section 'Adding an architecture'"
    return m.group(1)


def _cited() -> list[str]:
    return re.findall(r"`([^`]+)`", _section())


def _defined(name: str) -> bool:
    if name in CONFIG_WORDS or keyword.iskeyword(name):
        return True
    return any(hasattr(importlib.import_module(m), name) for m in MODULES) or any(
        re.search(rf"^(def|class)?\s*{name}\b", (ROOT / p).read_text(), re.M)
        for p in ("tests/models/test_spec_parity.py",)
    )


def test_every_path_the_section_names_exists() -> None:
    paths = [c for c in _cited() if c.endswith(".py") or c.endswith("/")]
    assert len(paths) >= 8, paths
    for path in paths:
        assert (ROOT / path).exists() or (SRC / path).exists(), path


def test_every_code_name_the_section_cites_is_defined() -> None:
    names = []
    for cited in _cited():
        if cited.endswith((".py", "/")) or cited.startswith("attnlab ") or "{" in cited:
            continue  # a path (above), a command, or a type in words ({tensor name: array})
        names += re.findall(r"[A-Za-z_][A-Za-z0-9_]*", cited.split("(")[0].split(":")[0])
        names += re.findall(r"\(([A-Za-z_]\w*)", cited)  # read(config, ...)'s arguments
    assert {"READERS", "ARCHITECTURES", "DecoderSpec", "llama_layout", "CASES"} <= set(names)
    missing = [n for n in names if not _defined(n)]
    assert not missing, f"the README cites names nothing defines: {missing}"


@pytest.mark.torch
def test_every_registered_decoder_has_the_parity_case_the_section_asks_for() -> None:
    import test_spec_parity

    from attnlab.models.readers import READERS

    assert set(READERS) == set(test_spec_parity.CASES)
