"""Real pretrained transformers in NumPy, run through the lesson's `attend`.

`load_model("minilm")` (or a folder in the Hugging Face layout) gives a `Model` (protocol.py),
the architecture picked from config.json's model_type (registry.py); its `trace(text)` gives a
`ModelTrace` whose `head(layer, head)` is the lesson's Trace type, recomputed on demand, and
whose `stats` are every head's diagnostics. Reading weights needs the `models` extra
(safetensors, tokenizers), imported only when loading.
"""

from attnlab.models.bert import MAX_TOKENS, BertEncoder
from attnlab.models.checkpoint import BertConfig, Checkpoint, read_checkpoint
from attnlab.models.layer_keep import LayerKeep, MaskKind, attend_layer
from attnlab.models.model_trace import ModelTrace
from attnlab.models.protocol import ArchConfig, Model, ModelSummary
from attnlab.models.registry import (
    ARCHITECTURES,
    KNOWN_MODELS,
    architecture_of,
    load_model,
    model_folder,
)

__all__ = [
    "ARCHITECTURES",
    "KNOWN_MODELS",
    "MAX_TOKENS",
    "ArchConfig",
    "BertConfig",
    "BertEncoder",
    "Checkpoint",
    "LayerKeep",
    "MaskKind",
    "Model",
    "ModelSummary",
    "ModelTrace",
    "architecture_of",
    "attend_layer",
    "load_model",
    "model_folder",
    "read_checkpoint",
]
