"""What every real model in attnlab is: a name, a config summary, `tokenize` and `trace`.

A `typing.Protocol` (PEP 544), so an architecture joins by having these members, not by
inheriting: bert.py's `BertEncoder` satisfies it, and a Llama-family decoder will too. The
registry (registry.py) picks the loader from config.json's `model_type` and returns a `Model`;
hosts (CLI, web, notebook) call only what is declared here and on `ModelTrace`.

`ArchConfig` is the part of an architecture's config every host may read. Its `d_k` is the head
width (Llama calls it head_dim; it need not be d_model / n_heads); `n_kv_heads` < `n_heads`
means grouped-query attention; `causal` means each token sees only itself and earlier tokens.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from attnlab.models.model_trace import ModelTrace
from attnlab.models.summary import ModelSummary

__all__ = ["ArchConfig", "Model", "ModelSummary"]


class ArchConfig(Protocol):
    """The architecture's numbers a host may show; each config class adds its own."""

    @property
    def architecture(self) -> str: ...  # config.json's model_type: "bert", "llama"
    @property
    def causal(self) -> bool: ...
    @property
    def n_layers(self) -> int: ...
    @property
    def n_heads(self) -> int: ...
    @property
    def n_kv_heads(self) -> int: ...
    @property
    def d_model(self) -> int: ...
    @property
    def d_k(self) -> int: ...
    @property
    def max_positions(self) -> int: ...


@runtime_checkable
class Model(Protocol):
    """A loaded model: `trace(text)` runs the forward pass through the lesson's `attend`."""

    @property
    def name(self) -> str: ...
    @property
    def config(self) -> ArchConfig: ...
    @property
    def max_tokens(self) -> int: ...  # the longest text `trace` accepts, special tokens included
    def tokenize(self, text: str) -> tuple[tuple[str, ...], tuple[int, ...]]: ...
    def trace(self, text: str) -> ModelTrace: ...
