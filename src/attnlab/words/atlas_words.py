"""The head atlas's words: each statistic's name and meaning, the run's progress and summary,
the ranking's and the sinks table's headings. The CLI and the Atlas view read them from here."""

from __future__ import annotations

from collections.abc import Mapping

from attnlab.words.grammar import counted

__all__ = [
    "ATLAS_VIEW_WORDS",
    "ATLAS_WORDS",
    "STATISTIC_HELP",
    "STATISTIC_LABELS",
    "STATISTIC_SHORT",
    "STATISTIC_UNITS",
    "atlas_line",
    "counts",
]

STATISTIC_LABELS: Mapping[str, str] = {
    "entropy": "Row entropy (bits)",
    "first": "Weight on the first token",
    "sink": "Sink share (texts with first-token weight > ε)",
    "previous": "Previous-token weight",
    "self": "Self weight",
    "top1": "Largest weight in a row",
    "distance": "Mean attention distance (tokens)",
    "repeat": "Weight on the same token earlier",
    "induction": "Induction score (probe)",
    "probe_previous": "Previous-token score (probe)",
}
"""A short label per statistic (atlas/stats.py's STATISTICS)."""

STATISTIC_SHORT: Mapping[str, str] = {
    "entropy": "Entropy (bits)",
    "first": "First token",
    "sink": "Sink share",
    "previous": "Previous token",
    "self": "Self",
    "top1": "Largest weight",
    "distance": "Distance (tokens)",
    "repeat": "Earlier copy",
    "induction": "Induction",
    "probe_previous": "Previous (probe)",
}
"""A column heading per statistic (the heads table)."""

STATISTIC_HELP: Mapping[str, str] = {
    "entropy": "How spread a row is: 0 bits when all its weight is on one token, log₂ n when "
    "it is spread evenly over n.",
    "first": "The weight a query gives the first token, averaged over every query of a text, "
    "then over texts.",
    "sink": "The share of texts on which the head is an attention sink: its mean weight on "
    "the first token is over ε (Gu et al., 2024).",
    "previous": "The weight each token gives the token just before it.",
    "self": "The weight each token gives itself.",
    "top1": "Each row's largest weight: 1 when a row looks at one token only.",
    "distance": "How far back or ahead a head looks: Σⱼ wᵢⱼ |i − j|, in tokens.",
    "repeat": "The weight a token gives earlier copies of itself, over the tokens that have one "
    "(copying heads look there).",
    "induction": "On a random sequence repeated twice: the weight a second-half token gives "
    "the token that followed its first occurrence (an induction head's signature).",
    "probe_previous": "On the same repeated random sequences: the weight on the previous token.",
}
"""One plain sentence per statistic."""

STATISTIC_UNITS: Mapping[str, str] = {
    "entropy": "bits",
    "first": "share of a row's weight",
    "sink": "share of texts",
    "previous": "share of a row's weight",
    "self": "share of a row's weight",
    "top1": "share of a row's weight",
    "distance": "tokens",
    "repeat": "share of a row's weight",
    "induction": "share of a row's weight",
    "probe_previous": "share of a row's weight",
}
"""What each statistic's numbers count: the colour scale and the card say it."""

ATLAS_VIEW_WORDS: Mapping[str, str] = {
    "atlas.tab": "Head atlas",
    "atlas.title": "What every head does across a corpus",
    "atlas.about": "{model} on {corpus}: {texts}, {tokens}, {layers} × {heads}. Each square is "
    "one head (row = layer, column = head); its colour is the statistic's mean over the corpus.",
    "atlas.none_title": "No head atlas is served yet",
    "atlas.none": "An atlas is computed once, in the terminal, over a whole corpus; the page then "
    "reads it. Write one (here MiniLM on 300 WordNet glosses, Debian's wordnet-base), then "
    "start the page with it:",
    "atlas.none_make": "attnlab atlas wordnet --model minilm -o minilm.parquet --limit 300",
    "atlas.none_serve": "attnlab serve --atlas minilm.parquet",
    "atlas.fallback": "No atlas named “{name}” is served: showing “{shown}” instead.",
    "atlas.none_served": "no atlas is served: start the page with attnlab serve --atlas "
    "ATLAS.parquet",
    "atlas.unknown_name": "no atlas named {name!r} is served: choose one of {names}",
    "atlas.file": "Atlas",
    "atlas.statistic": "Statistic",
    "atlas.picture": "Every head, coloured by {statistic}",
    "atlas.axes": "Rows: layers 0 to {last_layer} · columns: heads 0 to {last_head} · "
    "press a square (or move with the arrow keys) to read that head's card",
    "atlas.scale": "Colour scale: {low} to {high} {unit}",
    "atlas.no_value": "no value",
    "atlas.cell": "Layer {layer}, head {head}: {value}",
    "atlas.table": "Heads, sortable",
    "atlas.table_hint": "Sort by a column: press its header (Enter or Space) again to reverse.",
    "atlas.col_head": "Head",
    "atlas.card": "Layer {layer}, head {head}",
    "atlas.card_hint": "Pick a head in the picture or the table to read its card.",
    "atlas.rank": "rank {rank} of {of}",
    "atlas.distribution": "{statistic}: this head against the model's {of} heads",
    "atlas.exemplars": "Where this head shows “{statistic}” most",
    "atlas.exemplar": "{value}, the mean over this text's rows; token {position} shows it "
    "most: “{text}”",
    "atlas.exemplar_of.first": "{value}, the mean weight on the first token over this text's "
    "queries; token {position} leans on it most: “{text}”",
    "atlas.exemplar_of.sink": "{value}, the mean weight on the first token over this text's "
    "queries; token {position} leans on it most: “{text}”",
    "atlas.exemplar_note.sink": "A text's value here is its mean weight on the first token: "
    "over ε, the head is a sink on that text.",
    "atlas.exemplar_note.first": "A text's token is the query that leans most on the first "
    "token (in a decoder, often the first token itself).",
    "atlas.open": "Open in the Real model",
    "atlas.open_label": "Open layer {layer}, head {head} in the Real model on this text, "
    "following token {position}",
    "atlas.no_open": "The Real model view does not run {model}: read the exemplar here.",
    "atlas.no_exemplars": "No exemplar: this statistic has no value for this head.",
    "atlas.standalone_note": "The head atlas of {model} on {corpus}, saved as one file: pick a "
    "statistic or a head; opening an exemplar in the Real model needs attnlab serve.",
}
"""The Atlas view's fixed words (page, widget, offline file), filled with str.format."""

ATLAS_WORDS: Mapping[str, str] = {
    "progress": "atlas: {done}/{shards} · {read:,}/{total} · {tps:,.1f} texts/s "
    "· {tokps:,.0f} tokens/s",
    "dashboard": "atlas: Dask dashboard at {link}",
    "stopped": "stopped: {kept} of {shards} kept in {store}/; run the same command again to resume",
    "no_scheduler": "no Dask scheduler answers at {address!r} (waited {seconds:g} s: {why}): "
    "start one with 'dask scheduler' and 'dask worker ADDRESS', or use --scheduler local or "
    "none",
    "resumed": "atlas: {loaded} of {shards} read from {store} (an earlier run), {todo} to compute",
    "wrote": "atlas: wrote {path} ({size:,} bytes): {layers} × {heads}, "
    "{texts}, {tokens}, {shards} ({computed} computed, {loaded} "
    "read), {seconds:.1f} s",
    "long": "atlas: texts over {limit}, the limit of {model}: {split} split at spaces, "
    "{skipped} skipped (empty, or too long with --long skip)",
    "ranking_title": "{model} on {corpus}: {texts}, {tokens}, {layers} × {heads}",
    "ranking_head": "L{layer} H{head}",
    "ranking_none": "no value (nothing counted)",
    "exemplar": "  best: L{layer} H{head} on “{text}”: {value}, the mean over its rows; "
    "most at token {position}",
    "exemplar_of.first": "  best: L{layer} H{head} on “{text}”: {value}, the mean weight on "
    "token 0 over its queries; token {position} leans on it most",
    "exemplar_of.sink": "  best: L{layer} H{head} on “{text}”: {value}, the mean weight on "
    "token 0 over its queries; token {position} leans on it most",
    "sinks_title": "Attention sinks in {model} ({layers} × {heads}): share of heads "
    "whose mean weight on the first token exceeds ε = {epsilon:g} (Gu et al., 2024, Table 1)",
    "sinks_columns": "input      tokens  samples  sink heads  mean weight on token 0",
    "sinks_row": "{input:<10} {tokens:>6}  {samples:>7}  {share:>9.2%}  {alpha:>22.3f}",
    "sinks_inputs.natural": "natural",
    "sinks_inputs.random": "random",
    "sinks_inputs.repeated": "repeated",
}
"""The run's and the ranking's lines, filled by `atlas_line`: a field named in COUNTED is a
count, written with its noun in agreement ("1 text", "2 texts")."""

COUNTED: Mapping[str, str] = {
    "total": "text",
    "texts": "text",
    "tokens": "token",
    "layers": "layer",
    "heads": "head",
    "shards": "shard",
    "limit": "token",
}
"""The fields `atlas_line` writes as counts, and each one's noun."""


def counts(n: int, noun: str) -> str:
    """ "1 text", "1,234 texts": grammar.counted's agreement, thousands grouped."""
    return f"{n:,} {counted(n, noun).split(' ', 1)[1]}"


def atlas_line(key: str, **values: object) -> str:
    """ATLAS_WORDS[key] filled, the fields of COUNTED as counts with their nouns."""
    filled = {
        k: counts(int(v), COUNTED[k]) if k in COUNTED and isinstance(v, int) else v
        for k, v in values.items()
    }
    return ATLAS_WORDS[key].format(**filled)
