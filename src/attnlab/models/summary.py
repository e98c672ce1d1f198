"""A model in one line of numbers, as every host shows it: `ModelSummary`.

One frozen object names the model and holds its sizes, the longest text it takes, whether it is
causal (a decoder) and its tokenizer's special tokens, so the page's info, the widget's and the
offline file's read the same numbers and the words shown (words/model_help.py) are chosen by it.
A real model's trace carries its model's summary (`ModelTrace.summary`); a trace built by hand
falls back to the sizes it holds (`summary_of`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from attnlab.models.protocol import Model

__all__ = ["ModelSummary"]


@dataclass(frozen=True)
class ModelSummary:
    """A model's name, sizes and limits; `special` are the tokens its tokenizer adds or
    reserves ([CLS] and [SEP] for a BERT encoder, <|im_start|> … for a chat decoder)."""

    name: str
    architecture: str
    n_layers: int
    n_heads: int
    n_kv_heads: int
    d_model: int
    d_k: int
    max_tokens: int
    causal: bool
    special: tuple[str, ...] = ()
    description: str = ""
    mask_token: str | None = None  # "[MASK]" for BERT; None: the model has none (a decoder)
    windows: tuple[int | None, ...] = ()  # per layer: its sliding window, None where global;
    # () when no layer slides

    def kv_cache_bytes(
        self, n: int, *, kv_heads: int | None = None, windowed: bool = True, itemsize: int = 4
    ) -> int:
        """Bytes a KV cache holds for n tokens: per layer, a key and a value of d_k numbers per
        key/value head (`kv_heads`, the model's own by default) for each token the layer keeps
        (its window's at most when `windowed`), `itemsize` bytes a number (float32)."""
        heads = self.n_kv_heads if kv_heads is None else kv_heads
        windows = self.windows or (None,) * self.n_layers
        kept = sum(min(n, w) if windowed and w is not None else n for w in windows)
        return 2 * heads * self.d_k * itemsize * kept

    @classmethod
    def of(
        cls, model: Model, *, special: tuple[str, ...] = (), description: str = ""
    ) -> ModelSummary:
        """The summary of a loaded model (protocol.py's `Model`)."""
        c = model.config
        return cls(
            name=model.name, architecture=c.architecture, n_layers=c.n_layers,
            n_heads=c.n_heads, n_kv_heads=c.n_kv_heads, d_model=c.d_model, d_k=c.d_k,
            max_tokens=model.max_tokens, causal=c.causal, special=special,
            description=description, mask_token=_mask_token(model), windows=_windows(model),
        )  # fmt: skip


def _mask_token(model: Model) -> str | None:
    """The model's mask token ("[MASK]"), if it has one (masking.py's `mask_of` reads the same)."""
    mask: tuple[str, int] | None = getattr(model, "mask_token", None)
    return None if mask is None else mask[0]


def _windows(model: Model) -> tuple[int | None, ...]:
    """Each layer's sliding window from the model's spec (spec.MaskSpec), () when none slides."""
    mask = getattr(getattr(model, "spec", None), "mask", None)
    if mask is None:
        return ()
    windows = tuple(mask.window_at(i) for i in range(model.config.n_layers))
    return windows if any(w is not None for w in windows) else ()
