"""The Atlas view's JSON (GET /api/atlas, the widget's `atlas` trait, the offline file's data).

One encoder of atlas/atlas_view.py's `AtlasView`: NaN means become null, each exemplar names its
text by an index into `passages` (a text is kept once however many heads show it). The words the
view shows come with it: the fixed ones by key (`words`), the run's summary filled (`about`).
"""

from __future__ import annotations

import math

from attnlab.atlas.atlas_view import AtlasView
from attnlab.encode.answers_trace import Answer
from attnlab.words.atlas_words import ATLAS_VIEW_WORDS, counts

__all__ = ["AtlasAnswer", "ExemplarAnswer", "StatisticAnswer", "encode_atlas"]


class ExemplarAnswer(Answer):
    """A text where the head shows the statistic most: its value, the text, the query row."""

    value: float
    text: int
    position: int


class StatisticAnswer(Answer):
    """One statistic over every head: means and ranks as layers × heads, null where none."""

    key: str
    label: str
    short: str
    help: str
    unit: str
    low: float | None
    high: float | None
    means: list[list[float | None]]
    ranks: list[list[int | None]]
    exemplars: list[list[list[ExemplarAnswer]]]


class AtlasAnswer(Answer):
    """An atlas file as the Atlas view reads it."""

    name: str
    names: list[str]
    model: str
    corpus: str
    texts: int
    tokens: int
    layers: int
    heads: int
    epsilon: float
    top_k: int
    probes: int
    causal: bool
    real_model: str | None
    about: str
    words: dict[str, str]
    statistics: list[StatisticAnswer]
    passages: list[str]


def _number(x: float) -> float | None:
    return None if math.isnan(x) else float(x)


def encode_atlas(view: AtlasView) -> AtlasAnswer:
    """The view's answer."""
    p = view.provenance
    stats = [
        StatisticAnswer(
            key=s.key,
            label=s.label,
            short=s.short,
            help=s.help,
            unit=s.unit,
            low=s.low,
            high=s.high,
            means=[[_number(float(x)) for x in row] for row in s.means],
            ranks=[list(row) for row in s.ranks],
            exemplars=[
                [
                    [ExemplarAnswer(value=e.value, text=e.text, position=e.position) for e in cell]
                    for cell in row
                ]
                for row in s.exemplars
            ],
        )
        for s in view.statistics
    ]
    about = ATLAS_VIEW_WORDS["atlas.about"].format(
        model=p.model,
        corpus=p.corpus,
        texts=counts(p.texts, "text"),
        tokens=counts(p.tokens, "token"),
        layers=counts(view.n_layers, "layer"),
        heads=counts(view.n_heads, "head"),
    )
    return AtlasAnswer(
        name=view.name,
        names=list(view.names),
        model=p.model,
        corpus=p.corpus,
        texts=p.texts,
        tokens=p.tokens,
        layers=view.n_layers,
        heads=view.n_heads,
        epsilon=p.epsilon,
        top_k=p.top_k,
        probes=p.probes,
        causal=p.causal,
        real_model=view.real_model,
        about=about,
        words=dict(ATLAS_VIEW_WORDS),
        statistics=stats,
        passages=list(view.texts),
    )
