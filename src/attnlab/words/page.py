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
    "canvas.lesson": "The lesson's picture",
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
    "table.corner": "query ↓ / key →",
    "table.name": "Attention weights",
    "table.masked_title": "masked: {query} may not look at {key}, so the weight is 0",
    "table.pair_title": "{query} → {key}: {weight}",
    "steps.name": "Steps",
    "steps.previous": "Previous step",
    "steps.next": "Next step",
    "steps.play": "Play",
    "steps.pause": "Pause",
    "steps.pill": "Step {number}: {title}",
    "steps.focus": "Follow the token:",
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
    "lesson.settings": "Lesson settings",
    "lesson.context": "Context",
    "lesson.mode": "Normalization",
    "lesson.own_label": "Your own sentence",
    "lesson.own_show": "Show",
    "lesson.own_which": "Which words can I use?",
    "lesson.own_placeholder": "e.g. near the water bank",
}

_LAB_LABELS = {
    "lab.title": "Break the lookup on purpose",
    "lab.loading": "Loading…",
    "lab.dim": "dim {number}",
    "lab.axis.title": "Softmax axis",
    "lab.axis.output": "{token}'s output",
    "lab.axis.across": "softmax across",
    "lab.axis.keys_row": "keys (correct)",
    "lab.axis.queries_row": "queries (mistake)",
    "lab.axis.moved": "{token}'s output moved by {distance}.",
    "lab.causal.title": "Causal mask",
    "lab.positions.title": "Word order: shuffle and positions",
    "lab.positions.label": "Positions",
    "lab.positions.token_at": "{token} ({position})",
    "lab.positions.token_column": "token (position)",
    "lab.positions.encodings": "Position encodings added to the embeddings",
    "lab.positions.rotation": "The rotation of each query",
    "lab.positions.angle_first": "angle, dims 1–2",
    "lab.positions.angle_second": "angle, dims 3–4",
    "lab.positions.q_before": "q before",
    "lab.positions.q_after": "q after rotation",
    "lab.positions.radians": "{angle} rad",
    "lab.positions.turned": "turned {angle} rad",
    "lab.positions.dials": (
        "Each query's first two numbers before (grey) and after (violet) the rotation"
    ),
    "lab.positions.dials_caption": (
        "Dims 1–2 of each query: grey before, violet after RoPE turns it by its position's "
        "angle (dashed arc). The length stays the same."
    ),
    "lab.shuffle.button": "Shuffle tokens",
    "lab.shuffle.same": "{token}: the same output as before",
    "lab.shuffle.moved": "{token}: its output moved by {distance}",
    "lab.shuffle.tiny": "{token}: its output moved by less than 0.01",
    "lab.shuffle.unchanged": "unchanged",
    "lab.shuffle.changed": "changed",
    "lab.shuffle.order": "Shuffled order: {shuffled} (was {tokens}).",
    "lab.shuffle.list": "Each token's output after the shuffle",
    "lab.reading.title": "Read the matrix",
    "lab.reading.transpose": "Transpose",
    "lab.heads.title": "Two heads",
    "lab.heads.label": "Heads",
    "lab.heads.one": "One head, “{name}”: {blurb}",
    "lab.heads.head": "Head {number} ({name}):",
    "lab.heads.dim": "h{number} {dim}",
    "lab.heads.second_table": "Head 2 weights",
    "lab.heads.second_caption": "Head 2's weights (head 1's are the lesson's table above)",
    "lab.heads.concat": "Concatenated outputs",
    "lab.predict.title": "Predict, then reveal",
    "lab.predict.label": "Predict first",
    "lab.predict.guess": "Guess {token}",
    "lab.predict.guesses": "Your guess",
    "lab.predict.again": "Guess again",
    "lab.now.title": "The weights now",
    "lab.now.table": "Weights with sums",
    "lab.now.row_sum": "row sum",
    "lab.now.bits": "bits",
    "lab.now.largest": "largest",
    "lab.now.column_sum": "column sum",
    "lab.edit.title": "Edit vectors",
    "lab.edit.which": "Which vectors",
    "lab.edit.reset": "Reset",
    "lab.edit.token": "token",
    "lab.edit.role.embeddings": "Embeddings x",
    "lab.edit.role.queries": "Queries q (head 1)",
    "lab.edit.role.keys": "Keys k (head 1)",
    "lab.edit.role.values": "Values v (head 1)",
    "lab.edit.noun.embeddings": "embedding",
    "lab.edit.noun.queries": "query",
    "lab.edit.noun.keys": "key",
    "lab.edit.noun.values": "value",
    "lab.edit.field": "{token} {noun}, {dim}",
    "lab.edit.table": "{noun} numbers",
    "lab.edit.drag": "Drag sideways or type a number",
    "lab.edit.preset": "The preset's numbers.",
    "lab.edit.edited_one": "1 vector edited; Reset puts the preset back.",
    "lab.edit.edited_many": "{count} vectors edited; Reset puts the preset back.",
    "lab.edit.refused": "Refused: {error}",
    "lab.edit.field_error": "{field}: {error}",
    "lab.edit.empty": "Type a number here, such as 0.5 or -1.",
    "lab.edit.nan": "NaN is not a number attention can use; type a finite number.",
    "lab.edit.not_number": "“{text}” is not a number; type one such as 0.5 or -1.",
    "lab.edit.beyond": "{text} is beyond ±{limit}; keep each number between −{limit} and {limit}.",
    "lab.temperature.title": "Temperature and saturation",
    "lab.temperature.label": "Temperature",
    "lab.temperature.back": "Back to √dₖ",
    "lab.temperature.mark_unscaled": "= No √dₖ",
    "lab.temperature.mark_sqrt": "{t} = √dₖ",
    "lab.temperature.mark_uniform": "→ Uniform",
    "lab.temperature.uniform": "T = ∞: Uniform, the limit where every weight is 1/n",
    "lab.temperature.unscaled": "T = 1: No √dₖ, the raw dot products",
    "lab.temperature.sqrt": "T = {t} = √dₖ: the real formula",
    "lab.temperature.sharper": "T = {t}, sharper than √dₖ",
    "lab.temperature.flatter": "T = {t}, flatter than √dₖ",
    "lab.temperature.sliding": "T = {t}…",
    "lab.temperature.saturation": (
        "{token}'s row: entropy {entropy} bits (at most {max_entropy}), largest weight "
        "{max_weight}. Softmax Jacobian size {jacobian} (Frobenius norm), largest entry "
        "{jacobian_max}: the gradient the softmax passes back, which falls toward 0 as the row "
        "saturates."
    ),
    "lab.temperature.columns": (
        "With the softmax down the columns, each column is the budget: see the column sums on "
        "the right."
    ),
    "lab.temperature.plots_failed": "The temperature plots could not be drawn: {error}",
    "lab.temperature.axis": "temperature T",
    "lab.temperature.sqrt_mark": "√dₖ",
    "lab.temperature.now_mark": "now",
    "lab.temperature.weights_plot": (
        "{token}'s weight on each key as the temperature goes from {t_min} to {t_max}"
    ),
    "lab.temperature.weights_axis": "{token}'s weights",
    "lab.temperature.entropy_plot": "The entropy of {token}'s row against the temperature",
    "lab.temperature.entropy_axis": "entropy (bits)",
    "lab.temperature.entropy_series": "entropy",
    "lab.temperature.entropy_caption": "0 bits: all on one key. The top: spread evenly.",
    "lab.temperature.jacobian_plot": (
        "The size of the softmax Jacobian of {token}'s row against the temperature"
    ),
    "lab.temperature.jacobian_axis": "Jacobian size (Frobenius)",
    "lab.temperature.jacobian_series": "Jacobian size",
    "lab.temperature.jacobian_caption": "Near 0 the softmax passes almost no gradient back.",
    "lab.cost.title": "Cost",
    "lab.cost.measure": "Measure the cost",
    "lab.cost.again": "Measure again",
    "lab.cost.progress": "Measuring progress",
    "lab.cost.measuring": "Measuring n = 4 to {max_n}… ({number} of {count})",
    "lab.cost.failed": "The measurement failed: {error}",
    "lab.cost.measured": (
        "Measured {count} sizes, n = {min_n} to {max_n}, d = {d}. Dots: measured; dashed: the "
        "fit a + c·n². Times jump when the machine is busy; memory is the steadier line."
    ),
    "lab.cost.n_axis": "tokens n",
    "lab.cost.fit": "fit a + c·n²",
    "lab.cost.measured_series": "measured {what}",
    "lab.cost.plot": "{what} against n, measured, with the n² fit",
    "lab.cost.time": "time per head",
    "lab.cost.memory": "memory",
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

_MODEL_CANVAS = {
    "model.canvas.tokens": (
        "{token} = {vector}. Teal cells are above 0, orange below, deeper = larger."
    ),
    "model.canvas.tokens_head": "each token's {d} numbers, one thin cell each",
    "model.canvas.project": "{token}: q = {query}, k = {key}",
    "model.canvas.project_queries": "query q (what it looks for)",
    "model.canvas.project_keys": "key k (what it offers)",
    "model.canvas.project_values": "value v (what it hands over)",
    "model.canvas.score_keys": "key k",
    "model.canvas.score_head": "q·k / {divisor} = score",
    "model.canvas.score_sign": "← below 0 | above 0 →",
    "model.canvas.softmax": "A budget: {token} gives {best} the most, {weight}. Bar length = weight.",
    "model.canvas.softmax_scores": "score",
    "model.canvas.softmax_weights": "weight (bar and number)",
    "model.canvas.blend": (
        "The violet arrow points at {best}, the largest weight ({weight}). A pale right-hand "
        "strip adds little."
    ),
    "model.canvas.blend_weight": "weight",
    "model.canvas.blend_value": "value v",
    "model.canvas.blend_value_wide": "value v ({d} numbers)",
    "model.canvas.blend_scaled": "weight × v",
    "model.canvas.blend_scaled_wide": "weight × v: what it adds",
    "model.canvas.blend_sum": "sum = new {token}",
    "model.canvas.blend_output": "{token}'s new vector = {vector} ({d} numbers)",
    "model.canvas.parallel": (
        "Row i is token i's budget (the query), column j the token it attends to (the key). "
        "Orange: one pair read both ways."
    ),
    "model.canvas.parallel_keys": "keys → (columns in text order)",
    "model.canvas.parallel_keys_some": (
        "keys → (columns in text order; some rows labelled, the focus always)"
    ),
    "model.canvas.name": "One head of the real model, step by step",
    "model.cosine.in": "in",
    "model.cosine.x_axis": "layer (in = entering layer 0; k = leaving layer k)",
    "model.cosine.y_axis": "cosine similarity (y axis {low} to 1; 1 = same direction)",
}

_MODEL = {
    "model.name.minilm": "all-MiniLM-L6-v2",
    "model.settings": "Real model settings",
    "model.text": "Text",
    "model.run": "Run the model",
    "model.model": "Model",
    "model.layer": "Layer",
    "model.head": "Head",
    "model.status": "Model status",
    "model.table_name": "Real attention weights",
    "model.layer_option": "layer {layer}",
    "model.head_option": "head {head}",
    "model.name_option": "{model} ({id})",
    "model.grid.title": "Every head at a glance",
    "model.grid.name": "Heads: layers × heads",
    "model.grid.corner": "layer ↓ head →",
    "model.grid.cell": "layer {layer} head {head}",
    "model.compare.title": "Compare contexts",
    "model.compare.word": "Word",
    "model.compare.a": "Sentence A",
    "model.compare.b": "Sentence B",
    "model.compare.button": "Compare",
    "model.compare.row_name": "Attention row of {word} in sentence {which}",
    "model.compare.row_caption": "Sentence {which}: “{sentence}”",
    "model.compare.rows_title": (
        "Where “{word}” looks in layer {layer}, head {head} (change the head above): its "
        "attention row in each sentence, the word itself shaded"
    ),
    "model.compare.plot_name": (
        "Line plot: cosine similarity of the two {word} vectors, layer by layer: {values}."
    ),
    "model.compare.plot_value": "{label} {value}",
    "model.compare.table_name": "Cosine similarity by layer",
    "model.compare.table_layer": "layer",
    "model.compare.table_cosine": "cosine similarity",
    "model.compare.table_in": "in (embeddings)",
    "model.compare.table_caption": "Cosine similarity of “{word}” in A and B",
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

PAGE_WORDS: Mapping[str, str] = {**_CANVAS, **_STEPS, **_LESSON, **_LAB, **_LAB_LABELS, **_MODEL, **_MODEL_CANVAS}
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
    "position": "a token's position, from 0",
    "distance": "how far an output moved, written by numfmt's rule",
    "shuffled": "the shuffled tokens, space-separated",
    "tokens": "the tokens in their first order, space-separated",
    "name": "a head's name (the lesson's heads)",
    "blurb": "a head's one-line description (the lesson's heads)",
    "dim": "a dimension's name (the API's dim_names, or lab.dim)",
    "noun": "what is edited, one of lab.edit.noun.*",
    "field": "an edited number's accessible name (lab.edit.field)",
    "text": "what the learner typed",
    "limit": "the API's edit limit, written by numfmt's rule",
    "angle": "an angle in radians, written by numfmt's rule",
    "t": "a temperature, written by numfmt's rule",
    "t_min": "the sweep's lowest temperature, written by numfmt's rule",
    "t_max": "the sweep's highest temperature, written by numfmt's rule",
    "entropy": "the focus row's entropy in bits, written by numfmt's rule",
    "max_entropy": "the most entropy the row can have, in bits",
    "max_weight": "the focus row's largest weight, written by numfmt's rule",
    "jacobian": "the softmax Jacobian's Frobenius norm, written by numfmt's rule",
    "jacobian_max": "the Jacobian's largest entry in size, written by numfmt's rule",
    "max_n": "the largest n measured",
    "min_n": "the smallest n measured",
    "d": "the width of the measured head's vectors",
    "what": "what a cost plot shows (lab.cost.time or lab.cost.memory)",
    "vector": "a vector's first numbers, written by numfmt's rule: [1.37, -1.04, …, 0.2]",
    "best": "the key token with the largest weight",
    "low": "the cosine plot's lowest tick, 0 or -1",
    "word": "the word compared",
    "id": "a model's name in the registry (minilm)",
    "which": "a sentence's letter, A or B",
    "sentence": "a sentence as typed",
    "values": "each layer's label and cosine, comma-separated",
    "label": "a layer's label (the API's cosine_labels)",
    "value": "a number written by numfmt's rule",
}
"""What each `{name}` in a template stands for: the page fills it with the API's value."""


def placeholders(key: str) -> tuple[str, ...]:
    """The `{name}`s in the words at `key`, in order."""
    return tuple(
        name for _, name, _, _ in string.Formatter().parse(PAGE_WORDS[key]) if name is not None
    )
