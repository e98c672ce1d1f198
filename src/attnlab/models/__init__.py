"""Real pretrained transformers in NumPy, run through the lesson's `attend`.

`load_model("minilm")` (or a folder in the Hugging Face layout) gives a `BertEncoder`; its
`trace(text)` gives a `ModelTrace` whose `head(layer, head)` is the lesson's Trace type.
Reading weights needs the `models` extra (safetensors, tokenizers), imported only when loading.
"""

from attnlab.models.bert import MAX_TOKENS, BertEncoder
from attnlab.models.checkpoint import BertConfig, Checkpoint, read_checkpoint
from attnlab.models.model_trace import ModelTrace
from attnlab.models.registry import KNOWN_MODELS, load_model, model_folder

__all__ = [
    "KNOWN_MODELS",
    "MAX_TOKENS",
    "BertConfig",
    "BertEncoder",
    "Checkpoint",
    "ModelTrace",
    "load_model",
    "model_folder",
    "read_checkpoint",
]
