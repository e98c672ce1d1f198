"""The page's fixed words: help texts, intros, card blurbs and labels that no trace changes.

Served with the presets (`/api/presets` → "words", "choices") so the page writes none of its own
sentences and the narration and the controls cannot drift apart. Words that depend on a trace's
numbers are written from the trace instead (captions.py, narration.py, notes.py). A few words
are templates: `{name}` is filled by the page with a value the API sent (a token, a count, a
number already written by numfmt's rule); `placeholders(key)` lists them and the tests check
that each one is documented in `TEMPLATE_VALUES`.
"""

from __future__ import annotations

import string
from collections.abc import Mapping

from attnlab.words.narration import BEATS

__all__ = ["BEAT_TITLES", "MODE_CHOICES", "PAGE_WORDS", "TEMPLATE_VALUES", "placeholders"]

MODE_CHOICES: tuple[tuple[str, str, str], ...] = (
    ("scaled", "Scaled", "the real formula: scores divided by √dₖ"),
    ("unscaled", "No √dₖ", "a diagnostic: raw dot products, a sharper row"),
    ("uniform", "Uniform", "a diagnostic: every weight 1/n, the scores ignored"),
)
"""The Normalization selector: (value, label, one line of help)."""

BEAT_TITLES: tuple[tuple[str, str], ...] = BEATS
"""The six beats, (key, title), in order."""

_CANVAS = {
    "canvas.bar_legend": "the bar under a number shows its size (orange if negative)",
    "canvas.queries": "q, query: what it looks for",
    "canvas.keys": "k, key: what it offers",
    "canvas.values": "v, value: what it hands over",
    "canvas.key_axis": "key →  (column j: the token attended to)",
    "canvas.query_axis": "query ↓",
    "canvas.masked": "masked",
    "canvas.sum": "sum",
    "canvas.failed": "Could not draw this step: {error}",
}

_STEPS = {
    "steps.title": "Step {number} of {count}: {title}",
    "table.readout_hint": (
        "Point at or focus a cell: row i (query) attends to column j (key) with weight w."
    ),
    "table.readout": (
        "Row {row} (query “{query}”) attends to column {col} (key “{key}”) with weight {weight}."
    ),
    "table.cell_title": "row {row} (query) attends to column {col} (key) with weight {weight}",
    "table.caption": (
        "Attention weights: row i is the query token, column j the key token it attends to; "
        "each row sums to 1."
    ),
    "table.caption_queries": (
        "Attention weights: row i is the query, column j the key (this softmax ran down the "
        "columns)."
    ),
}

_LESSON = {
    "lesson.loading": "Loading the lesson…",
    "lesson.failed": "This lesson could not be shown: {error}",
    "lesson.own_help": "Up to {max_tokens} words from the toy head's vocabulary: {vocabulary}.",
    "lesson.own_sentence": "(your own sentence)",
}

_LAB = {
    "lab.intro": (
        "Each control changes one piece of softmax(QKᵀ/√dₖ)V. The picture and the table above "
        "follow every change; the link in the address bar keeps it."
    ),
    "lab.axis.keys": "Keys (correct)",
    "lab.axis.queries": "Queries (mistake)",
    "lab.axis.help": (
        "The softmax must run across the keys, so each query's row is a budget of 1. Run it "
        "down the queries instead and the numbers still look plausible."
    ),
    "lab.axis.now": (
        "Right now every row sums to 1 ({row_sums}). Pick Queries (mistake) to see what the "
        "wrong axis does."
    ),
    "lab.axis.wrong": "Columns now sum to 1 ({column_sums}); rows do not ({row_sums}).",
    "lab.causal.help": (
        "A decoder may not look ahead: each token attends only to itself and the tokens before "
        "it. The hidden scores become −∞, their weights 0."
    ),
    "lab.causal.on": (
        "The upper triangle is greyed: weight 0. Each row still sums to 1: {row_sums}."
    ),
    "lab.causal.off": "Off: every token may look at every other, even those after it.",
    "lab.positions.help": (
        "Attention alone never reads where a token stands. Shuffle the tokens, each with its "
        "own embedding, and check each one's output; then add positions and shuffle again."
    ),
    "lab.positions.none": "None",
    "lab.positions.sinusoidal": "Sinusoidal",
    "lab.positions.rope": "Rotary (RoPE)",
    "lab.positions.rope_note": (
        "Keys turn by the same angles. A rotation keeps each vector's length, so only the angle "
        "between a query and a key, which depends on how far apart they stand, changes their "
        "score."
    ),
    "lab.shuffle.none": "Not shuffled yet.",
    "lab.reading.help": (
        "Click any cell of the Attention weights table, the picture's matrix or the table on "
        "the right: row i is the query, column j the key."
    ),
    "lab.heads.help": (
        "A second hand-set head attends by sentence structure instead of meaning. Real models "
        "run many heads side by side and join their outputs."
    ),
    "lab.predict.help": (
        "Before the Softmax step, guess which token the followed word will attend to most. The "
        "weights stay hidden until you guess."
    ),
    "lab.predict.off": "Off: the weights show from the start.",
    "lab.predict.ask": (
        "Which token will {token} attend to most? Look at the queries and keys, or the scores, "
        "then click your guess (here, or a token in the picture)."
    ),
    "lab.now.help": (
        "Every control changes these numbers: each row with its sum, its entropy in bits (0 "
        "when all on one key, 2 when spread over four) and its largest weight; the column sums "
        "below."
    ),
    "lab.now.keys": (
        "Each row sums to 1: a query's budget over the keys. The column sums are whatever they "
        "happen to be."
    ),
    "lab.now.queries": (
        "Softmax down the columns: now each column sums to 1 and the rows do not, so a query no "
        "longer spends a budget of 1."
    ),
    "lab.edit.help": (
        "Change any number (drag it sideways, type it, or use the up and down arrow keys) and "
        "every step recomputes through the API. Numbers must lie between −100 and 100."
    ),
    "lab.temperature.help": (
        "The softmax divides every score by a temperature T. The real formula uses T = √dₖ = 2. "
        "Lower T sharpens each row toward one key; higher T flattens it toward the uniform row."
    ),
    "lab.cost.help": (
        "With n tokens the score matrix QKᵀ has n² entries, so time and memory grow like n²·d. "
        "Measure one head (d = 64, random vectors) on this machine, from n = 4 to 2048; it takes "
        "a few seconds."
    ),
}

_MODEL = {
    "model.name.minilm": "all-MiniLM-L6-v2",
    "model.intro": (
        "The lesson's six steps inside a real pretrained transformer, {model} ({n_layers} layers "
        "× {n_heads} heads, {d_model} numbers per token): type a text, pick a head, follow a "
        "token. Every number is the model's own."
    ),
    "model.text_help": (
        "Any text, up to {max_tokens} tokens counting [CLS] and [SEP] (the tokenizer splits rare "
        "words into pieces such as ##s). Each head works with {d_k}-number queries, keys and "
        "values."
    ),
    "model.loading": "Loading {model}… (the first time takes about a second)",
    "model.running": "Running the model…",
    "model.which": (
        "Layer {layer}, head {head} of {model}: {n} tokens, queries and keys {d_k} numbers wide, "
        "so scores are divided by √{d_k} = {divisor}."
    ),
    "model.table_caption": (
        "Real attention weights of layer {layer}, head {head}: row i is the query token, column "
        "j the key token it attends to; each row sums to 1."
    ),
    "model.grid.empty": "Each square will show one head's attention.",
    "model.grid.full": (
        "Each square is one head's whole attention matrix (row = query, column = key, darker = "
        "more weight); the violet line marks {token}'s row. Click a head to step through it."
    ),
    "model.grid.focus": (
        "Each square is {token}'s row in one head: where {token} looks, one cell per token in "
        "reading order (left to right, line by line), darker = more weight, each square scaled "
        "to its own largest weight. Click a head to step through it."
    ),
    "model.compare.help": (
        "The same word in two sentences: which tokens it attends to in the head chosen above, "
        "and how alike its two vectors stay, layer by layer."
    ),
}

PAGE_WORDS: Mapping[str, str] = {**_CANVAS, **_STEPS, **_LESSON, **_LAB, **_MODEL}
"""Fixed sentences by a dotted key (view.place); the page looks each one up by its key."""

TEMPLATE_VALUES: Mapping[str, str] = {
    "error": "a message, the API's or the browser's",
    "number": "a step's number, from 1",
    "count": "how many steps",
    "title": "a beat's title (narration.py)",
    "row": "a row's number, from 1",
    "col": "a column's number, from 1",
    "query": "the query token",
    "key": "the key token",
    "token": "a token, quoted as the page shows it",
    "weight": "a weight written by numfmt's rule",
    "row_sums": "each row's sum, written by numfmt's rule",
    "column_sums": "each column's sum, written by numfmt's rule",
    "max_tokens": "the API's limit on tokens",
    "vocabulary": "the toy head's words, comma-separated",
    "model": "a model's display name (model.name.KEY)",
    "n_layers": "the model's layer count",
    "n_heads": "the model's heads per layer",
    "d_model": "the width of the model's token vectors",
    "d_k": "the width of one head's queries and keys",
    "layer": "a layer's index, from 0",
    "head": "a head's index, from 0",
    "n": "how many tokens",
    "divisor": "the score divisor as the captions write it (5.66)",
}
"""What each `{name}` in a template stands for: the page fills it with the API's value."""


def placeholders(key: str) -> tuple[str, ...]:
    """The `{name}`s in the words at `key`, in order."""
    return tuple(
        name for _, name, _, _ in string.Formatter().parse(PAGE_WORDS[key]) if name is not None
    )
