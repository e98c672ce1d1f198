"""A model with hand-built heads whose answers are known: the atlas's test bench.

`PatternModel` ("patterns" for `attnlab atlas --model`) reads words split at spaces, a word's id
its CRC-32 modulo 1,000 (plus 10), and has 2 causal layers of 3 heads whose weights are set by
rule, not learnt:

    layer 0: head 0 previous token · head 1 sink (all on token 0) · head 2 uniform
    layer 1: head 0 induction (the token after the same token's last earlier occurrence)
             head 1 self · head 2 copy (the same token's last earlier occurrence)

Rows with no earlier occurrence (induction, copy) and row 0 put their weight on token 0. So a
pure previous-token head scores 1 on `previous`, a pure sink 1 on `first` and `sink`, and the
induction head 1 on the repeated-random-sequence probe. "patterns-slow" sleeps 20 ms a text,
so a test can stop a worker while a job runs.
"""

from __future__ import annotations

import time
import zlib
from dataclasses import dataclass

import numpy as np

from attnlab.errors import EmptySequenceError, TooLongError
from attnlab.types import FloatArray

__all__ = ["PATTERN_HEADS", "PatternConfig", "PatternModel", "PatternTrace"]

PATTERN_HEADS: tuple[tuple[str, ...], ...] = (
    ("previous", "sink", "uniform"),
    ("induction", "self", "copy"),
)
"""What each head of each layer does, by rule."""

VOCABULARY = 1010
"""Ids 0 … 9 are unused, words take 10 … 1009."""


@dataclass(frozen=True)
class PatternConfig:
    """The sizes the atlas reads (protocol.py's ArchConfig)."""

    architecture: str = "patterns"
    causal: bool = True
    n_layers: int = len(PATTERN_HEADS)
    n_heads: int = len(PATTERN_HEADS[0])
    n_kv_heads: int = len(PATTERN_HEADS[0])
    d_model: int = 0
    d_k: int = 0
    max_positions: int = 64


@dataclass(frozen=True)
class PatternTrace:
    """What the atlas reads of a pass: the tokens, their ids and every weight matrix."""

    tokens: tuple[str, ...]
    token_ids: tuple[int, ...]
    attentions: FloatArray  # (L, H, n, n)


def word_id(word: str) -> int:
    """A word's id: stable across processes (CRC-32, not Python's salted hash)."""
    return 10 + zlib.crc32(word.encode()) % (VOCABULARY - 10)


class PatternModel:
    """Hand-built heads (see the module docstring); `delay` seconds of sleep per pass."""

    def __init__(self, *, name: str = "patterns", max_tokens: int = 64, delay: float = 0.0):
        self.name = name
        self.config = PatternConfig(max_positions=max_tokens)
        self.max_tokens = max_tokens
        self.delay = delay

    def tokenize(self, text: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
        words = tuple(text.split())
        if not words:
            raise EmptySequenceError("the text is empty")
        if len(words) > self.max_tokens:
            raise TooLongError(
                f"the text is {len(words)} tokens long; the limit is {self.max_tokens}"
            )
        return words, tuple(word_id(w) for w in words)

    def probe_vocabulary(self) -> tuple[int, ...]:
        """The ids a probe draws from: every word id."""
        return tuple(range(10, VOCABULARY))

    def trace(self, text: str) -> PatternTrace:
        tokens, ids = self.tokenize(text)
        return self.trace_ids(ids, tokens)

    def trace_ids(
        self, ids: tuple[int, ...], tokens: tuple[str, ...] | None = None
    ) -> PatternTrace:
        if self.delay:
            time.sleep(self.delay)
        n = len(ids)
        a = np.zeros((self.config.n_layers, self.config.n_heads, n, n))  # (L, H, n, n)
        last = _last_earlier(ids)  # (n,) the last j < i with ids[j] == ids[i], or −1
        for i in range(n):
            a[0, 0, i, max(i - 1, 0)] = 1.0  # previous token (row 0: itself)
            a[0, 1, i, 0] = 1.0  # sink
            a[0, 2, i, : i + 1] = 1.0 / (i + 1)  # uniform over what it sees
            a[1, 0, i, last[i] + 1 if last[i] >= 0 else 0] = 1.0  # induction
            a[1, 1, i, i] = 1.0  # self
            a[1, 2, i, max(last[i], 0)] = 1.0  # copy
        labels = tokens if tokens is not None else tuple(str(i) for i in ids)
        return PatternTrace(labels, tuple(ids), a)


def _last_earlier(ids: tuple[int, ...]) -> list[int]:
    seen: dict[int, int] = {}
    out = []
    for i, t in enumerate(ids):
        out.append(seen.get(t, -1))
        seen[t] = i
    return out
