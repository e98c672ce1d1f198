"""The Atlas view, computed once: every number the page, the widget and the offline file show.

`atlas_view(sums, prov, name=...)` turns an atlas file's sums (file.py) into one frozen
`AtlasView`: per statistic its label, meaning and unit (words/atlas_words.py), the layer × head
grid of means, the finite range the colour scale spans, each head's rank among the model's heads
(1 = largest; heads with no value have none) and its exemplars (value, text, query position).
encode/atlas_json.py encodes it; the views only lay it out. The Real model view can open an
exemplar when the atlas's model is one the page serves (`real_model`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attnlab.atlas.file import Provenance
from attnlab.atlas.ranking import ranking
from attnlab.atlas.stats import SCALE, STATISTICS, HeadSums
from attnlab.types import FloatArray
from attnlab.words.atlas_words import (
    STATISTIC_HELP,
    STATISTIC_LABELS,
    STATISTIC_SHORT,
    STATISTIC_UNITS,
)

__all__ = ["AtlasView", "Exemplar", "StatisticView", "atlas_view"]


@dataclass(frozen=True)
class Exemplar:
    """Where a head shows a statistic most: the text-level value, the text, the query row."""

    value: float
    text: int  # an index into AtlasView.texts
    position: int


@dataclass(frozen=True)
class StatisticView:
    """One statistic over every head: means (L, H), NaN where nothing was counted."""

    key: str
    label: str
    short: str
    help: str
    unit: str
    means: FloatArray  # (L, H)
    low: float | None  # the finite range of the means (None when no head has a value)
    high: float | None
    ranks: tuple[tuple[int | None, ...], ...]  # (L, H): 1 = the largest mean
    exemplars: tuple[tuple[tuple[Exemplar, ...], ...], ...]  # (L, H, ≤ k)


@dataclass(frozen=True)
class AtlasView:
    """An atlas as the views show it; `names` are the atlases the host serves beside it."""

    name: str
    names: tuple[str, ...]
    provenance: Provenance
    n_layers: int
    n_heads: int
    statistics: tuple[StatisticView, ...]
    texts: tuple[str, ...]
    real_model: str | None  # the Real model view's name for the atlas's model, if it has one


def _ranks(sums: HeadSums, stat: str) -> tuple[tuple[int | None, ...], ...]:
    rank: dict[tuple[int, int], int | None] = {}
    for place, r in enumerate(ranking(sums, stat), start=1):
        rank[r.layer, r.head] = None if np.isnan(r.mean) else place
    return tuple(
        tuple(rank[layer, head] for head in range(sums.n_heads)) for layer in range(sums.n_layers)
    )


def atlas_view(
    sums: HeadSums,
    prov: Provenance,
    *,
    name: str,
    names: tuple[str, ...] = (),
    real_models: tuple[str, ...] = ("minilm", "smollm2"),
) -> AtlasView:
    """The view of an atlas; `real_models` are the names the Real model view can open."""
    means = sums.means()  # (S, L, H)
    uids = sorted(sums.texts)
    index = {u: i for i, u in enumerate(uids)}
    stats = []
    for s, stat in enumerate(STATISTICS):
        m = means[s]
        finite = m[np.isfinite(m)]
        exemplars = tuple(
            tuple(
                tuple(
                    Exemplar(int(v) / SCALE, index[int(u)], int(p))
                    for v, u, p in zip(
                        sums.ex_value[s, layer, head],
                        sums.ex_uid[s, layer, head],
                        sums.ex_position[s, layer, head],
                        strict=True,
                    )
                    if v >= 0
                )
                for head in range(sums.n_heads)
            )
            for layer in range(sums.n_layers)
        )
        stats.append(
            StatisticView(
                key=stat,
                label=STATISTIC_LABELS[stat],
                short=STATISTIC_SHORT[stat],
                help=STATISTIC_HELP[stat],
                unit=STATISTIC_UNITS[stat],
                means=m,
                low=float(finite.min()) if finite.size else None,
                high=float(finite.max()) if finite.size else None,
                ranks=_ranks(sums, stat),
                exemplars=exemplars,
            )
        )
    return AtlasView(
        name=name,
        names=names or (name,),
        provenance=prov,
        n_layers=sums.n_layers,
        n_heads=sums.n_heads,
        statistics=tuple(stats),
        texts=tuple(sums.texts[u] for u in uids),
        real_model=prov.model if prov.model in real_models else None,
    )
