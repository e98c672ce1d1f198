"""The page's fixed words: help texts, intros, card blurbs and labels that no trace changes.

Served with the presets (`/api/presets` → "words", "choices") so the page writes none of its own
sentences and the narration and the controls cannot drift apart. Words that depend on a trace's
numbers are written from the trace instead (captions.py, narration.py, notes.py). The lab's
words (lab.*) are page_lab.py's. A few words
are templates: `{name}` is filled by the page with a value the API sent (a token, a count, a
number already written by numfmt's rule); `placeholders(key)` lists them and the tests check
that each one is documented in `TEMPLATE_VALUES`.
"""

from __future__ import annotations

import string
from collections.abc import Mapping

from attnlab.words.model_help import HELP_WORDS
from attnlab.words.model_views import MODEL_VIEW_VALUES, MODEL_VIEW_WORDS
from attnlab.words.narration import BEATS
from attnlab.words.page_cheaper import CHEAPER_WORDS
from attnlab.words.page_export import EXPORT_WORDS
from attnlab.words.page_lab import LAB_WORDS
from attnlab.words.page_state import STATE_WORDS

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
    "canvas.dims_key": "Bar columns, by dimension: {list}.",
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
    "table.readout_window": (
        "The query “{query}” attends to the key “{key}” with weight {weight} (row {row} and "
        "column {col} of the {shown} shown)."
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
    "lesson.guess.ask": (
        "Which token will {token} attend to most? Pick one, or click a token in the picture."
    ),
    "lesson.guess.group": "Guess a token",
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
    "model.canvas.softmax": (
        "A budget: {token} gives {best} the most, {weight}. Bar length = weight."
    ),
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
    "model.canvas.legend": "heat scale: weight, 0 to 1 (row = query, column = key)",
    "model.canvas.legend_masked": "masked (a later token)",
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
        "Any text, up to {max_tokens} tokens counting the start and end tokens the tokenizer "
        "adds around it (BERT's and DistilBERT's [CLS] and [SEP], RoBERTa's own two; it splits "
        "rare words into pieces, such as ##s in BERT's). Each head works with {d_k}-number "
        "queries, keys and values."
    ),
    "model.intro_decoder": (
        "The lesson's six steps inside a real pretrained decoder, {model} ({n_layers} layers "
        "× {n_heads} heads, {d_model} numbers per token): type a text, pick a head, follow a "
        "token. Each token sees only itself and the tokens before it. Every number is the "
        "model's own."
    ),
    "model.text_help_decoder": (
        "Any text, up to {max_tokens} tokens (the tokenizer splits rare words into pieces and "
        "keeps a word's leading space in its first piece, as in “ bank”). Each head works with "
        "{d_k}-number queries, keys and values."
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
    "model.table_causal": (
        "Grey cells are masked (a later token): they hold 0, and each row sums to 1 over the "
        "keys it can see."
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
    "model.gqa.own": (
        "Multi-head attention: each of the {n_heads} heads has its own keys and values."
    ),
    "model.gqa.one": (
        "Multi-query attention: this layer has 1 key/value head for its {n_heads} query heads "
        "({heads}), so every head reads the same keys and values (checked: identical) and only "
        "the queries differ. The key of “{token}” as each reads it: {vectors}."
    ),
    "model.gqa.shared": (
        "Grouped-query attention: query heads {heads} share key/value head {kv}, so their keys "
        "and values are the same numbers (checked: identical). The key of “{token}” as each "
        "reads it: {vectors}."
    ),
    "model.gqa.differ": (
        "Query heads {heads} should share key/value head {kv}, but their keys differ: {vectors}."
    ),
    "model.window_token": "{token} #{position}",
    "model.gqa.vector": "head {head} {vector}",
    "model.window": (
        "A long text: the steps show {shown} of its {n} tokens (the first, “{token}” and its "
        "neighbours, and the keys it weighs most), holding {weight} of “{token}”'s weight. "
        "The whole matrix is below."
    ),
    "model.ranking.title": "Heads ranked by what they do",
    "model.ranking.name": "Head ranking",
    "model.ranking.help": (
        "Each head's averages over every query row of this text: how spread its rows are "
        "(entropy in bits; 0 = one key, log₂ n = all keys alike) and how much weight goes to "
        "the first token (an “attention sink”), the token just before, the token itself, and "
        "each row's largest weight. Sort by any column; show a head with its layer's button "
        "(one Tab stop: ↑ and ↓ move between the heads, Enter shows one)."
    ),
    "model.ranking.caption": "{n} heads of {model}, averaged over the query rows",
    "model.ranking.sort": "Sort by {column}",
    "model.ranking.show": "Show layer {layer} head {head}",
    "model.ranking.col.layer": "layer",
    "model.ranking.col.head": "head",
    "model.ranking.col.kv": "K/V head",
    "model.ranking.col.entropy_bits": "row entropy (bits)",
    "model.ranking.col.first": "first-token (sink) share",
    "model.ranking.col.previous": "previous-token share",
    "model.ranking.col.itself": "self share",
    "model.ranking.col.top_one": "top-1 share",
    "model.grid.color": "Colour the grid by",
    "model.grid.color.pattern": "attention pattern",
    "model.grid.color.entropy_bits": "row entropy",
    "model.grid.color.first": "first-token (sink) share",
    "model.grid.color.previous": "previous-token share",
    "model.grid.color.itself": "self share",
    "model.grid.color.top_one": "top-1 share",
    "model.grid.stat": (
        "Each square is one head coloured by its {stat}, averaged over the text's rows: from "
        "{least} (palest) to {most} (darkest). Click a head to step through it."
    ),
    "model.grid.kv": "K/V {kv}",
    "model.grid.layer_local": "layer {layer} · local",
    "model.grid.layer_global": "layer {layer} · global",
    "model.grid.cell_stat": "{stat} {value}",
    "model.head_option_gqa": "head {head} (K/V head {kv})",
    "model.rope.title": "Positions by rotation (RoPE) and what the model predicts",
    "model.rope.none": (
        "This model is an encoder: it adds learned position vectors to its embeddings once, "
        "instead of rotating queries and keys, and it does not predict a next token. Choose "
        "SmolLM2 to see RoPE and next-token predictions."
    ),
    "model.rope.title_learned": "Learned positions and what the model predicts",
    "model.rope.learned": (
        "This model is a decoder that predicts the next token, but it has no RoPE: it adds a "
        "learned position vector to each token's embedding once, before the first layer, so "
        "its queries and keys are never rotated and there is no distance curve to draw."
    ),
    "model.rope.loading": "Reading the new model's text …",
    "model.rope.query": (
        "The query of “{token}” (position {position}) before RoPE: {before}; after rotating "
        "each pair of its numbers by an angle proportional to {position}: {after}."
    ),
    "model.rope.plot_name": (
        "Plot: the score of the query of “{token}” against the key of “{key}” as the distance "
        "between them grows"
    ),
    "model.rope.x_axis": "distance δ: how many positions the query comes after the key",
    "model.rope.y_axis": "score q·k / √dₖ (both rotated)",
    "model.rope.legend_curve": "score at distance δ",
    "model.rope.legend_used": "this text (δ = {distance})",
    "model.rope.note": (
        "With RoPE a score depends only on how far apart two tokens are: the same query of "
        "“{token}” and key of “{key}” score differently at each distance; at their distance "
        "in this text, {distance}, the score is {value}, the one the head used."
    ),
    "model.next.after": "Next token after “{token}” (position {position})",
    "model.next.after_last": "Next token after “{token}” (position {position}, the last token)",
    "model.next.token": "token",
    "model.next.special": "special token",
    "model.next.probability": "probability",
    "model.name.smollm2": "SmolLM2-135M-Instruct",
    "model.name.gemma3": "Gemma 3 270M",
    "model.matrix.title": "The whole matrix of layer {layer}, head {head}",
    "model.matrix.name": (
        "Attention matrix of layer {layer}, head {head} as a picture: {n} tokens in {cells} × "
        "{cells} cells, row = query, column = key, darker = more weight"
    ),
    "model.matrix.scale": "Colour scale",
    "model.matrix.scale.linear": "Linear (0 to 1)",
    "model.matrix.scale.row": "Per row (against the row's largest)",
    "model.matrix.scale.log": "Logarithmic (0.0001 to 1)",
    "model.matrix.pool": "Pooling",
    "model.matrix.pool.max": "Max of each block",
    "model.matrix.pool.mean": "Mean of each block",
    "model.matrix.specials": "[CLS] and [SEP]",
    "model.matrix.specials.show": "Shown",
    "model.matrix.specials.hide": "Hidden, not renormalised",
    "model.matrix.specials.renormalise": "Hidden, rows renormalised",
    "model.matrix.exact": (
        "Every cell is one weight: {n} × {n}, row = query token, column = key token, nothing "
        "pooled."
    ),
    "model.matrix.pooled_max": (
        "{n} tokens are too many for one pixel each: pooled to {cells} × {cells} cells of up to "
        "{factor} × {factor} weights, each cell showing the largest weight of its block "
        "(max-pooling), so one strong weight stays visible."
    ),
    "model.matrix.pooled_mean": (
        "{n} tokens are too many for one pixel each: pooled to {cells} × {cells} cells of up to "
        "{factor} × {factor} weights, each cell showing the mean weight of its block "
        "(mean-pooling), its share of the budget."
    ),
    "model.matrix.causal": (
        "Grey cells are masked: a token sees only itself and the tokens before it, so each row's "
        "weights sum to 1 over its visible keys."
    ),
    "model.matrix.hidden": (
        "[CLS] and [SEP] are hidden and the rows are not renormalised: the words' weights as the "
        "model gave them (a row gave {hidden} of its weight to the hidden tokens, on average)."
    ),
    "model.matrix.renormalised": (
        "[CLS] and [SEP] are hidden and every row is renormalised to sum to 1 over the words "
        "shown (the hidden tokens held {hidden} of a row's weight, on average)."
    ),
    "model.matrix.legend_name": "Heat scale",
    "model.matrix.legend.linear": "weight, 0 to 1",
    "model.matrix.legend.row": "weight against its row's largest",
    "model.matrix.legend.log": "weight, logarithmic",
    "model.matrix.window": (
        "Layer {layer} is local: each query sees only the last {window} keys, itself included; "
        "the grey corner at the bottom left holds the keys its window has already passed."
    ),
    "model.matrix.masked_window": "masked (a later key, or outside the {window}-key window)",
    "model.table.outside_window": (
        "masked: {key} is outside the {window}-key window of {query}, so the weight is 0"
    ),
    "model.matrix.masked": "masked (a later token)",
    "model.matrix.hover": (
        "Row {from_row} “{query}” → key {from_key} “{key}”: weight {weight} (positions from 0)"
    ),
    "model.matrix.hover_block_max": (
        "Rows {from_row}–{to_row} (from “{query}”) × keys {from_key}–{to_key} (from “{key}”): "
        "largest weight {weight}"
    ),
    "model.matrix.hover_block_mean": (
        "Rows {from_row}–{to_row} (from “{query}”) × keys {from_key}–{to_key} (from “{key}”): "
        "mean weight {weight}"
    ),
    "model.matrix.row_help": (
        "Point at the picture to read a cell; click a row, or focus the picture and press ↑ or ↓ "
        "(Enter: the followed token's row), to list that row's largest weights here."
    ),
    "model.matrix.row_table": "Numbers of one row",
    "model.matrix.row_caption": (
        "Row {position} “{token}” of layer {layer}, head {head}: its {listed} largest of {visible} "
        "visible weights (the whole row sums to {sum})"
    ),
    "model.matrix.row_pos": "position",
    "model.matrix.row_key": "key token",
    "model.matrix.row_weight": "weight",
    "model.compare.help": (
        "The same word in two sentences: which tokens it attends to in the head chosen above, "
        "and how alike its two vectors stay, layer by layer."
    ),
}

PAGE_WORDS: Mapping[str, str] = {
    **_CANVAS, **_STEPS, **_LESSON, **LAB_WORDS, **_MODEL, **_MODEL_CANVAS, **EXPORT_WORDS,
    **MODEL_VIEW_WORDS, **STATE_WORDS, **CHEAPER_WORDS,
    **{k: v for k, v in HELP_WORDS.items() if k.startswith("model.matrix.")},  # another tokenizer's
}  # fmt: skip
"""Fixed sentences by a dotted key (view.place); the page looks each one up by its key."""

TEMPLATE_VALUES: Mapping[str, str] = {
    "error": "a message, the API's or the browser's",
    "number": "a step's number, from 1",
    "count": "how many steps (or heads)",
    "seconds": "whole seconds a measurement has run so far",
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
    "ratio": "how many times one cost is another's, rounded (the API's ratio)",
    "cached": "the cost model's FLOPs for one cached row (/api/cost kv_cache.model)",
    "recompute": "the cost model's FLOPs for recomputing n × n (/api/cost kv_cache.model)",
    "what": "what a cost plot shows (lab.cost.time or lab.cost.memory)",
    "vector": "a vector's first numbers, written by numfmt's rule: [1.37, -1.04, …, 0.2]",
    "best": "the key token with the largest weight",
    "low": "the cosine plot's lowest tick (0 or -1), or a table's lowest weight",
    "word": "the word compared",
    "id": "a model's name in the registry (minilm)",
    "which": "a sentence's letter, A or B",
    "sentence": "a sentence as typed",
    "values": "each layer's label and cosine, comma-separated",
    "label": "a layer's label (the API's cosine_labels)",
    "value": "a number written by numfmt's rule",
    "scale": "a picture's pixel scale: 1, 2 or 3",
    "file": "a file's name",
    "held": "what an exported file holds numbers for",
    **MODEL_VIEW_VALUES,
    "cells": "how many cells a side the matrix picture has",
    "factor": "how many tokens a side one pooled cell covers, at most",
    "hidden": "the mean weight a row gave the hidden tokens, by numfmt's rule",
    "from_row": "a query token's position, from 0 (a pooled block's first)",
    "to_row": "a pooled block's last query position, from 0",
    "from_key": "a key token's position, from 0 (a pooled block's first)",
    "to_key": "a pooled block's last key position, from 0",
    "listed": "how many numbers are listed",
    "heads": "query heads' indices, comma-separated",
    "kv": "a key/value head's index, from 0",
    "vectors": "each head's vector, semicolon-separated (model.gqa.vector)",
    "window": "a local layer's sliding window in keys, with thousands separators (2,048)",
    "shown": "how many tokens the steps show",
    "before": "a vector before RoPE, its first numbers by numfmt's rule",
    "after": "a vector after RoPE, its first numbers by numfmt's rule",
    "column": "a ranking column's heading (model.ranking.col.*)",
    "stat": "a diagnostic's name (model.grid.color.*)",
    "least": "the smallest value on the grid, by numfmt's rule",
    "most": "the largest value on the grid, by numfmt's rule",
    "visible": "how many keys a row may see",
    "sum": "a row's sum, written by numfmt's rule",
    "edited": "each edited token with what was edited, comma-separated: river (embedding)",
    "kind": "a position kind's name (lab.positions.KIND)",
    "score": "a scaled score written by numfmt's rule",
    "root": "√dₖ written by numfmt's rule",
    "high": "the top of the heat scale, written by numfmt's rule",
}
"""What each `{name}` in a template stands for: the page fills it with the API's value."""


def placeholders(key: str) -> tuple[str, ...]:
    """The `{name}`s in the words at `key`, in order."""
    return tuple(
        name for _, name, _, _ in string.Formatter().parse(PAGE_WORDS[key]) if name is not None
    )
