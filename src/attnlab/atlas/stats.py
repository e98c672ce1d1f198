"""Per-head sufficient statistics whose merge is exact: any split of a corpus, one atlas.

A head's statistic over a corpus is a total and a count (its mean is total / count), a weight
histogram, and the top-k exemplars (the texts and positions where the head shows it most). Two
shards' `HeadSums` merge by adding totals, counts and histograms and by keeping the k best
exemplars of both; the atlas of a corpus is the merge of its shards' sums, in any order and any
grouping (a monoid: `HeadSums.empty` is its unit).

Floating-point addition is not associative (1e16 + 1 − 1e16 depends on the order), so totals are
fixed-point integers: each text's contribution, a float computed from that text alone, is
rounded once to a multiple of 2⁻²⁴ (`SCALE`) and from then on only integers are added, which is
exact. One, three or seven shards, in process or on a cluster, give identical sums. At most a
text's 2⁻²⁵ of rounding is lost: far below any digit the atlas prints.

Exemplars are ordered by (value, descending; text uid; position), a total order on distinct keys,
so the k best of a union is the same whichever shards met first.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

__all__ = [
    "BINS",
    "CORPUS_STATISTICS",
    "PROBE_STATISTICS",
    "SCALE",
    "STATISTICS",
    "HeadSums",
    "IntArray",
    "fixed",
]

IntArray: TypeAlias = npt.NDArray[np.int64]

SCALE = 2**24
"""Fixed-point scale of the totals: a text adds round(x · 2²⁴). int64 holds 2⁶³ ≈ 9.2e18, so
a statistic of at most 10 per row (entropy bits, log₂ 512 = 9) overflows only past about 5e10
rows: fifty billion tokens."""

CORPUS_STATISTICS: tuple[str, ...] = (
    "entropy",  # mean row entropy, bits
    "first",  # mean weight on the first token (Gu et al.'s α for k = 1), a per-text mean
    "sink",  # share of texts whose `first` exceeds ε
    "previous",  # mean weight on the previous token
    "self",  # mean weight on the query's own position
    "top1",  # mean of each row's largest weight
    "distance",  # mean attention distance Σⱼ wᵢⱼ |i − j|, tokens
    "repeat",  # weight on the same token's earlier occurrences, over rows that have one
)
PROBE_STATISTICS: tuple[str, ...] = (
    "induction",  # prefix matching on a random sequence repeated twice
    "probe_previous",  # weight on the previous token on the same probes
)
STATISTICS: tuple[str, ...] = CORPUS_STATISTICS + PROBE_STATISTICS
"""Every statistic, in the order of the first axis of `HeadSums.totals`."""

BINS: tuple[str, ...] = (
    "0",
    "1",
    "2–3",
    "4–7",
    "8–15",
    "16–31",
    "32–63",
    "64–127",
    "128–255",
    "256+",
)
"""Distance histogram bins |i − j| (powers of two): bin b ≥ 1 holds 2^(b−1) ≤ d < 2^b."""

NO_TEXT = np.iinfo(np.int64).max
"""The uid of an empty exemplar slot: after every real text in the order."""


def fixed(x: npt.ArrayLike) -> IntArray:
    """Floats as fixed-point integers, round(x · SCALE): the one place floats become exact."""
    return np.rint(np.asarray(x, dtype=np.float64) * SCALE).astype(np.int64)


def _frozen(a: npt.ArrayLike, dtype: type) -> npt.NDArray[np.generic]:
    out: npt.NDArray[np.generic] = np.array(a, dtype=dtype)
    out.flags.writeable = False
    return out


@dataclass(frozen=True, eq=False)
class HeadSums:
    """The atlas's sufficient statistics for L layers × H heads, S = len(STATISTICS).

    totals (S, L, H): fixed-point sums; counts (S, L, H): how many rows (or texts) went in.
    histogram (L, H, len(BINS)): fixed-point attention weight at each distance bin.
    ex_value, ex_uid, ex_position (S, L, H, k): the k best exemplars of each statistic, by their
    fixed-point text-level value (−1 for an empty slot), text uid and query position.
    texts: the text of every uid an exemplar names. texts_read, pieces, tokens, split, skipped:
    corpus texts read, pieces run (a split text is several), tokens run, texts split, skipped.
    """

    totals: IntArray
    counts: IntArray
    histogram: IntArray
    ex_value: IntArray
    ex_uid: IntArray
    ex_position: IntArray
    texts: dict[int, str] = field(default_factory=dict)
    texts_read: int = 0
    pieces: int = 0
    tokens: int = 0
    split: int = 0
    skipped: int = 0

    def __post_init__(self) -> None:
        for name in ("totals", "counts", "histogram", "ex_value", "ex_uid", "ex_position"):
            object.__setattr__(self, name, _frozen(getattr(self, name), np.int64))
        s, n_layers, n_heads = self.totals.shape
        assert s == len(STATISTICS), self.totals.shape
        assert self.counts.shape == self.totals.shape
        assert self.histogram.shape == (n_layers, n_heads, len(BINS))
        assert self.ex_value.shape[:3] == self.totals.shape
        assert self.ex_uid.shape == self.ex_position.shape == self.ex_value.shape

    @classmethod
    def empty(cls, n_layers: int, n_heads: int, *, top_k: int) -> HeadSums:
        """The unit of `merge`: nothing counted, every exemplar slot empty."""
        shape = (len(STATISTICS), n_layers, n_heads)
        return cls(
            totals=np.zeros(shape, np.int64),
            counts=np.zeros(shape, np.int64),
            histogram=np.zeros((n_layers, n_heads, len(BINS)), np.int64),
            ex_value=np.full((*shape, top_k), -1, np.int64),
            ex_uid=np.full((*shape, top_k), NO_TEXT, np.int64),
            ex_position=np.zeros((*shape, top_k), np.int64),
        )

    @property
    def n_layers(self) -> int:
        return int(self.totals.shape[1])

    @property
    def n_heads(self) -> int:
        return int(self.totals.shape[2])

    @property
    def top_k(self) -> int:
        return int(self.ex_value.shape[-1])

    def means(self) -> npt.NDArray[np.float64]:
        """Each statistic's mean, total / count, (S, L, H); NaN where nothing was counted."""
        with np.errstate(invalid="ignore", divide="ignore"):
            out: npt.NDArray[np.float64] = (self.totals / SCALE) / self.counts
        return np.where(self.counts > 0, out, np.nan)

    def merge(self, other: HeadSums) -> HeadSums:
        """Both shards' statistics: sums added, the k best exemplars of the two kept."""
        if self.totals.shape != other.totals.shape or self.top_k != other.top_k:
            raise ValueError(
                f"cannot merge sums of shape {self.totals.shape} (k {self.top_k}) with "
                f"{other.totals.shape} (k {other.top_k}): they come from different models"
            )
        value = np.concatenate([self.ex_value, other.ex_value], axis=-1)  # (S, L, H, 2k)
        uid = np.concatenate([self.ex_uid, other.ex_uid], axis=-1)
        position = np.concatenate([self.ex_position, other.ex_position], axis=-1)
        order = np.lexsort((position, uid, -value), axis=-1)[..., : self.top_k]  # best first
        kept_uid = np.take_along_axis(uid, order, axis=-1)
        texts = {**self.texts, **other.texts}
        named = {int(u) for u in np.unique(kept_uid) if u != NO_TEXT}
        return HeadSums(
            totals=self.totals + other.totals,
            counts=self.counts + other.counts,
            histogram=self.histogram + other.histogram,
            ex_value=np.take_along_axis(value, order, axis=-1),
            ex_uid=kept_uid,
            ex_position=np.take_along_axis(position, order, axis=-1),
            texts={u: texts[u] for u in sorted(named)},
            texts_read=self.texts_read + other.texts_read,
            pieces=self.pieces + other.pieces,
            tokens=self.tokens + other.tokens,
            split=self.split + other.split,
            skipped=self.skipped + other.skipped,
        )

    def __eq__(self, other: object) -> bool:
        """Identical sums, counts, histograms, exemplars and texts: exact, not approximate."""
        if not isinstance(other, HeadSums):
            return NotImplemented
        arrays = ("totals", "counts", "histogram", "ex_value", "ex_uid", "ex_position")
        return all(np.array_equal(getattr(self, a), getattr(other, a)) for a in arrays) and (
            self.texts,
            self._counters(),
        ) == (other.texts, other._counters())

    __hash__ = None  # type: ignore[assignment]

    def _counters(self) -> tuple[int, ...]:
        return (self.texts_read, self.pieces, self.tokens, self.split, self.skipped)

    def to_bytes(self) -> bytes:
        """The sums as one .npz (no pickle): what a finished shard writes to disk."""
        uids = np.array(sorted(self.texts), dtype=np.int64)
        buffer = io.BytesIO()
        np.savez(
            buffer,
            totals=self.totals,
            counts=self.counts,
            histogram=self.histogram,
            ex_value=self.ex_value,
            ex_uid=self.ex_uid,
            ex_position=self.ex_position,
            text_uids=uids,
            text_strings=np.array([self.texts[int(u)] for u in uids], dtype=np.str_),
            counters=np.array(self._counters(), dtype=np.int64),
        )
        return buffer.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes) -> HeadSums:
        """The sums `to_bytes` wrote; ValueError when the bytes are not such a file."""
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            texts_read, pieces, tokens, split, skipped = (int(c) for c in z["counters"])
            uids = z["text_uids"]
            strings = z["text_strings"] if len(uids) else np.array([], dtype=np.str_)
            return cls(
                totals=z["totals"],
                counts=z["counts"],
                histogram=z["histogram"],
                ex_value=z["ex_value"],
                ex_uid=z["ex_uid"],
                ex_position=z["ex_position"],
                texts={int(u): str(t) for u, t in zip(uids, strings, strict=True)},
                texts_read=texts_read,
                pieces=pieces,
                tokens=tokens,
                split=split,
                skipped=skipped,
            )
