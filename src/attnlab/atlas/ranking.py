"""The atlas as a ranking: for each statistic, the heads that show it most, best first.

`ranking(sums)` orders every head by its mean for each statistic (ties by layer, then head);
`render_ranking` writes the terminal's table (`attnlab atlas show ATLAS`), words from
words/atlas_words.py, numbers from the sums.
"""

from __future__ import annotations

import textwrap
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


def _wrapped(label: str, cells: list[str], columns: int) -> list[str]:
    """label, then the cells two spaces apart, a line per `columns` characters; a continued
    line starts under the first cell (or 4 spaces in when the label leaves no room)."""
    indent = " " * (len(label) + 2)
    if columns - len(indent) < max((len(c) for c in cells), default=0) + 2:
        indent = " " * 4
    lines: list[str] = []
    line = label
    for cell in cells:
        fresh = line in (label, indent)
        candidate = line + ("  " if line == label or not fresh else "") + cell
        if not fresh and len(candidate) > columns:
            lines.append(line)
            line = indent + cell
        else:
            line = candidate
    lines.append(line)
    return lines


def render_ranking(
    sums: HeadSums,
    prov: Provenance,
    *,
    top: int | None = None,
    statistic: str | None = None,
    columns: int = 100,
) -> str:
    """The terminal's ranking: `top` heads per statistic (default 5, or every head of one
    chosen statistic), a statistic's heads wrapped to `columns` characters under its label."""
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
    room = max(20, min(70, columns - 40))  # an exemplar's text: the line fits `columns`
    for stat in chosen:
        count = top if top is not None else (5 if statistic is None else None)
        ranked = ranking(sums, stat)[:count]
        cells = [
            f"{w['ranking_head'].format(layer=r.layer, head=r.head)} {_number(r.mean)}"
            for r in ranked
        ]
        lines.extend(_wrapped(f"{STATISTIC_LABELS[stat]:<{width}}", cells, columns))
        best = ranked[0]
        s = STATISTICS.index(stat)
        value, uid = (
            sums.ex_value[s, best.layer, best.head, 0],
            sums.ex_uid[s, best.layer, best.head, 0],
        )
        if value >= 0:
            text = sums.texts[int(uid)]
            lines += textwrap.wrap(
                w.get(f"exemplar_of.{stat}", w["exemplar"]).format(
                    layer=best.layer,
                    head=best.head,
                    text=text if len(text) <= room else text[: room - 1] + "…",
                    position=int(sums.ex_position[s, best.layer, best.head, 0]),
                    value=_number(value / SCALE),
                ),
                width=columns,
                subsequent_indent="    ",
                break_long_words=False,
            )
    return "\n".join(lines) + "\n"
