"""Sliding windows and attention sinks on a decoder, measured by its next-token loss.

A sliding window of w keys lets query i see keys i − w < j ≤ i only (Longformer, Mistral): a
cache of w keys instead of n. StreamingLLM (Xiao et al., 2024, "Efficient Streaming Language
Models with Attention Sinks") keeps the first s tokens too, keys j < s, since models put much
of their attention on them (the "attention sink"); dropping them breaks the model. `Scheme` is
one such rule as a boolean mask (attend's convention: True = may attend), the same rule as the
model kit's `MaskSpec(window=w, sinks=s)`.

The loss of a text under a scheme is the mean negative log-likelihood of each next token,

    NLL = −(1 / (n − 1)) Σᵢ log softmax(logitsᵢ)[idᵢ₊₁],        perplexity = exp(NLL),

with every layer's attention under the scheme's mask (`masked_logits`: the decoder's forward
with a key mask, llama.py's `key_mask` hook). `window_table` runs full attention, each window
and each sinks + window on one text.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from attnlab.errors import ArgumentTypeError
from attnlab.models.nn_decoder import rms_norm
from attnlab.types import BoolArray, FloatArray

__all__ = ["Loss", "Scheme", "next_token_nll", "window_schemes"]

READ_ROWS = 256
"""Rows of logits computed at once: (256, 49,152) float32 is 50 MB."""


@dataclass(frozen=True)
class Scheme:
    """Full causal attention (window None), a window of w keys, or s sinks + a window."""

    window: int | None = None
    sinks: int = 0

    def __post_init__(self) -> None:
        if self.window is not None and (isinstance(self.window, bool) or self.window < 1):
            raise ArgumentTypeError(f"a window holds at least 1 key, got {self.window!r}")
        if self.sinks < 0 or (self.sinks and self.window is None):
            raise ArgumentTypeError(f"sinks ({self.sinks!r}) go with a window, and are ≥ 0")

    @property
    def name(self) -> str:
        if self.window is None:
            return "full"
        return f"window {self.window}" + (f" + {self.sinks} sinks" if self.sinks else "")

    def allowed(self, n: int, rows: slice) -> BoolArray:
        """(rows, n) True where query i may see key j: j ≤ i, and i − w < j or j < s."""
        i = np.arange(n)[rows][:, None]  # (r, 1)
        j = np.arange(n)[None, :]  # (1, n)
        ok: BoolArray = j <= i
        if self.window is not None:
            ok &= (j > i - self.window) | (j < self.sinks)
        return ok


def window_schemes(
    windows: Sequence[int] = (64, 128, 256, 512, 1024), sinks: int = 4
) -> tuple[Scheme, ...]:
    """Full attention, each window alone, and each window with `sinks` sinks."""
    return (Scheme(), *(Scheme(w) for w in windows), *(Scheme(w, sinks) for w in windows))


@dataclass(frozen=True)
class Loss:
    scheme: Scheme
    n_tokens: int
    nll: float  # mean over the n − 1 predicted tokens, in nats
    kept_keys: float  # mean keys a query sees

    @property
    def perplexity(self) -> float:
        return math.exp(self.nll)


def next_token_nll(
    final: FloatArray, ids: Sequence[int], *, norm: FloatArray, eps: float, unembed: FloatArray
) -> float:
    """The mean NLL of ids[1:] given the last layer's hidden states `final` (n, d), read out in
    blocks of READ_ROWS rows (the final RMSNorm, the logits, a stable log-softmax)."""
    n = int(final.shape[0])
    target = np.asarray(ids[1:])
    total = 0.0
    for r0 in range(0, n - 1, READ_ROWS):
        r1 = min(n - 1, r0 + READ_ROWS)
        logits = rms_norm(final[r0:r1], norm, eps=eps) @ unembed.T  # (r, vocab)
        logits = logits.astype(np.float64)
        top = logits.max(axis=-1, keepdims=True)
        log_z = top[:, 0] + np.log(np.exp(logits - top).sum(axis=-1))  # (r,)
        total += float((log_z - logits[np.arange(r1 - r0), target[r0:r1]]).sum())
    return total / (n - 1)


def kept_keys(scheme: Scheme, n: int) -> float:
    """The mean number of keys a query sees under `scheme`."""
    return float(scheme.allowed(n, slice(None)).sum(axis=1).mean())
