"""The atlas as a ranking: for each statistic, the heads that show it most, best first.

`ranking(sums)` orders every head by its mean for each statistic (ties by layer, then head);
`render_ranking` writes the terminal's table (`attnlab atlas show ATLAS`), words from
words/atlas_words.py, numbers from the sums.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attnlab.atlas.file import Provenance
from attnlab.atlas.stats import SCALE, STATISTICS, HeadSums
from attnlab.words.atlas_words import ATLAS_WORDS, STATISTIC_LABELS, atlas_line

__all__ = ["Ranked", "ranking", "render_ranking"]


@dataclass(frozen=True)
class Ranked:
    """One head's place in one statistic's ranking."""

    statistic: str
    layer: int
    head: int
    mean: float  # NaN when nothing was counted


def ranking(sums: HeadSums, statistic: str) -> tuple[Ranked, ...]:
    """Every head by its mean for `statistic`, largest first; heads with no value last."""
    s = STATISTICS.index(statistic)
    means = sums.means()[s]  # (L, H)
    heads = [(layer, head) for layer in range(sums.n_layers) for head in range(sums.n_heads)]
    order = sorted(heads, key=lambda lh: (np.isnan(means[lh]), -np.nan_to_num(means[lh]), lh))
    return tuple(Ranked(statistic, la, h, float(means[la, h])) for la, h in order)


def _number(x: float) -> str:
    return "–" if np.isnan(x) else f"{x:.3f}"


def render_ranking(
    sums: HeadSums, prov: Provenance, *, top: int = 5, statistic: str | None = None
) -> str:
    """The terminal's ranking: `top` heads per statistic (or every head of one statistic)."""
    w = ATLAS_WORDS
    lines = [
        atlas_line(
            "ranking_title",
            model=prov.model,
            corpus=prov.corpus,
            texts=prov.texts,
            tokens=prov.tokens,
            layers=sums.n_layers,
            heads=sums.n_heads,
        ),
        "",
    ]
    chosen = STATISTICS if statistic is None else (statistic,)
    width = max(len(STATISTIC_LABELS[s]) for s in chosen)
    for stat in chosen:
        ranked = ranking(sums, stat)[: top if statistic is None else None]
        cells = [
            f"{w['ranking_head'].format(layer=r.layer, head=r.head)} {_number(r.mean)}"
            for r in ranked
        ]
        lines.append(f"{STATISTIC_LABELS[stat]:<{width}}  " + "  ".join(cells))
        best = ranked[0]
        s = STATISTICS.index(stat)
        value, uid = (
            sums.ex_value[s, best.layer, best.head, 0],
            sums.ex_uid[s, best.layer, best.head, 0],
        )
        if value >= 0:
            text = sums.texts[int(uid)]
            lines.append(
                w["exemplar"].format(
                    layer=best.layer,
                    head=best.head,
                    text=text if len(text) <= 70 else text[:69] + "…",
                    position=int(sums.ex_position[s, best.layer, best.head, 0]),
                    value=_number(value / SCALE),
                )
            )
    return "\n".join(lines) + "\n"
