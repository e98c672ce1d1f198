"""Sliding windows and attention sinks on a decoder, measured by its next-token loss.

A sliding window of w keys lets query i see keys i − w < j ≤ i only (Longformer, Mistral): a
cache of w keys instead of n. StreamingLLM (Xiao et al., 2024, "Efficient Streaming Language
Models with Attention Sinks") keeps the first s tokens too, keys j < s, since models put much
of their attention on them (the "attention sink"); dropping them breaks the model. `Scheme` is
one such rule as a boolean mask (attend's convention: True = may attend), the same rule as the
model kit's `MaskSpec(window=w, sinks=s)`.

The loss of a text under a scheme is the mean negative log-likelihood of each next token,

    NLL = −(1 / (n − 1)) Σᵢ log softmax(logitsᵢ)[idᵢ₊₁],        perplexity = exp(NLL),

with every layer's attention under the scheme's mask: `masked_decoder` is the model with its
spec's mask replaced by `MaskSpec(window=w, sinks=s)` (every layer local), so the forward pass
(decoder.py, its blocks in causal_blocks.py) applies the window in every layer, as Mistral's
decoders do; `scheme_loss` runs it on a text's ids and reads out the loss
(`next_token_nll`). `window_table` does that for full attention, then for each number of sinks
s and each window w, with a progress callback per scheme since a 2,048-token SmolLM2 pass takes
seconds. (The paper's "window recomputed at every token" variant, which re-encodes the last w
tokens for every position, is not here.)
"""

from __future__ import annotations

import copy
import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from attnlab.errors import ArgumentTypeError, ShapeError, TooLongError
from attnlab.models.decoder import Decoder
from attnlab.models.decoder_pieces import soft_cap
from attnlab.models.decoder_trace import Readout
from attnlab.models.spec import MaskSpec
from attnlab.types import BoolArray, FloatArray

__all__ = [
    "Loss", "Progress", "Scheme", "kept_keys", "masked_decoder", "next_token_nll", "scheme_loss",
    "window_schemes", "window_table",
]  # fmt: skip

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
    def mask(self) -> MaskSpec:
        """The model kit's mask for this scheme, on every layer."""
        return MaskSpec(window=self.window, sinks=self.sinks)

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
    """One row of the table: a scheme's next-token loss on one text."""

    scheme: Scheme
    n_tokens: int
    nll: float  # mean over the n − 1 predicted tokens, in nats
    kept_keys: float  # mean keys a query sees

    @property
    def perplexity(self) -> float:
        return math.exp(self.nll)

    @property
    def scored(self) -> int:
        """The tokens whose prediction is scored: every one but the first."""
        return self.n_tokens - 1


Progress = Callable[[int, int, Scheme], None]
"""(index, count, scheme) before each scheme's pass: index 0..count − 1."""


def next_token_nll(final: FloatArray, ids: Sequence[int], *, readout: Readout) -> float:
    """The mean NLL of ids[1:] given the last layer's hidden states `final` (n, d), read out in
    blocks of READ_ROWS rows (the final norm, the logits and their cap, a stable log-softmax)."""
    n = int(final.shape[0])
    if n < 2 or len(ids) != n:
        raise ShapeError(f"a loss needs at least 2 tokens and one id each, got {n} rows for "
                         f"{len(ids)} ids")  # fmt: skip
    target = np.asarray(ids[1:])
    total = 0.0
    for r0 in range(0, n - 1, READ_ROWS):
        r1 = min(n - 1, r0 + READ_ROWS)
        logits = readout.norm(final[r0:r1]) @ readout.unembed.T  # (r, vocab)
        logits = soft_cap(logits, readout.spec.final_softcap).astype(np.float64)
        top = logits.max(axis=-1, keepdims=True)
        log_z = top[:, 0] + np.log(np.exp(logits - top).sum(axis=-1))  # (r,)
        total += float((log_z - logits[np.arange(r1 - r0), target[r0:r1]]).sum())
    return total / (n - 1)


def kept_keys(scheme: Scheme, n: int) -> float:
    """The mean number of keys a query sees under `scheme`."""
    return float(scheme.allowed(n, slice(None)).sum(axis=1).mean())


def masked_decoder(model: Decoder, scheme: Scheme) -> Decoder:
    """`model` (weights shared, not copied) with every layer's mask the scheme's."""
    masked = copy.copy(model)
    masked.spec = replace(model.spec, mask=scheme.mask)
    masked.readout = replace(model.readout, spec=masked.spec)
    masked._lock = threading.Lock()
    return masked


def scheme_loss(model: Decoder, ids: Sequence[int], scheme: Scheme) -> Loss:
    """The next-token loss of `ids` with every layer's attention under `scheme`."""
    ids = tuple(int(i) for i in ids)
    trace = masked_decoder(model, scheme).trace_ids(ids)
    final = trace.hidden_states[-1]  # (n, d) leaving the last layer
    nll = next_token_nll(final, ids, readout=model.readout)
    return Loss(scheme, len(ids), nll, kept_keys(scheme, len(ids)))


def window_table(
    model: Decoder,
    ids: Sequence[int],
    windows: Sequence[int] = (64, 128, 256, 512, 1024),
    sinks: Sequence[int] = (0, 4),
    *,
    progress: Progress | None = None,
) -> tuple[Loss, ...]:
    """Full attention, then every window w with every number of sinks s (s = 0: the window
    alone), each the loss of `ids` with the window in every layer."""
    if len(ids) > model.max_tokens:
        raise TooLongError(f"{len(ids)} tokens: {model.name} runs at most {model.max_tokens}")
    schemes = (Scheme(), *(Scheme(w, s) for s in sinks for w in windows))
    rows = []
    for index, scheme in enumerate(schemes):
        if progress is not None:
            progress(index, len(schemes), scheme)
        rows.append(scheme_loss(model, ids, scheme))
    return tuple(rows)
