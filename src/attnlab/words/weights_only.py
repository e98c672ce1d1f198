"""The words for attention weights handed in alone (from transformers, BertViz, CircuitsVis...).

Weights W come without the queries, keys and values that made them, so four of the six beats
(Tokens' vectors, Project, Score, Blend) and Softmax's scores cannot be shown: each says so, in
the same place the lesson's narration goes, instead of failing. The Parallel beat, the heads grid
and the weights table read W alone. `MAPS_WORDS` are the page's words (by key, like page.py's)
the model view reads for such weights; `narrate_weights` writes the six beats for a focus row.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from attnlab.words.grammar import counted
from attnlab.words.narration import BEATS
from attnlab.words.numfmt import num

__all__ = [
    "MAPS_WORDS",
    "NEEDS_QKV",
    "SIZES",
    "WEIGHTS_BEATS",
    "narrate_weights",
    "pair_row_words",
    "pair_summary",
    "pair_words",
    "sized",
    "text_is_fixed",
]

WEIGHTS_BEATS = ("parallel",)
"""The beats drawn from the weights alone; the others need Q, K and V."""

NEEDS_QKV = (
    "This step needs the head's queries, keys and values (Q, K, V). Attention weights handed "
    "in alone do not carry them, so there is nothing to show here. The Parallel step, the heads "
    "grid and the weights table use the weights themselves."
)

MAPS_WORDS: Mapping[str, str] = {
    "maps.needs_qkv": "{title} needs Q, K and V: weights handed in alone do not carry them.",
    "maps.intro": (
        "Attention weights from {model}: {n_layers} layers × {n_heads} heads, read as they were "
        "handed in. They came without queries, keys and values, so the steps that need those "
        "say so; the heads grid, the Parallel step and the table use the weights."
    ),
    "maps.which": "Layer {layer}, head {head} of {model}: {n} query tokens, weights only.",
}
"""The page's words for weights handed in alone, merged into a widget's "words"."""


SIZES = "{n_layers} layers × {n_heads} heads"
"""The sizes as the intros write them for any count; `sized` says them for the weights shown."""


def sized(words: Mapping[str, str], *, n_layers: int, n_heads: int) -> dict[str, str]:
    """`words` with the weights' intros counting their layers and heads in agreement ("1 layer
    × 1 head", not "1 layers × 1 heads"): the counts are known here, not in the view."""
    said = f"{counted(n_layers, 'layer')} × {counted(n_heads, 'head')}"
    return {k: v.replace(SIZES, said) if k.startswith("maps.intro") else v
            for k, v in words.items()}  # fmt: skip


def pair_summary(tokens: Sequence[str], b: int, *, a_to_b: float, b_to_a: float, heads: int) -> str:
    """A pair of sentences (BertViz's sentence_b_start): where B starts, and how much each
    sentence's tokens attend to the other, averaged over the `heads` heads shown."""
    return (
        f"Two sentences: A is tokens 0 to {b - 1}, B starts at token {b} (“{tokens[b]}”). "
        f"Averaged over the {counted(heads, 'head')} shown, a token of sentence A gives "
        f"{num(a_to_b)} of its attention to sentence B, and a token of B gives {num(b_to_a)} "
        "to sentence A (the rest stays inside its own sentence)."
    )


def pair_row_words(tokens: Sequence[str], focus: int, b: int, other: float) -> str:
    """The focus row's weight on the other sentence of a pair, in this head."""
    own, far = ("A", "B") if focus < b else ("B", "A")
    return (
        f"“{tokens[focus]}” is in sentence {own}: this head gives {num(other)} of its weight "
        f"to sentence {far}."
    )


def narrate_weights(
    tokens: Sequence[str],
    key_tokens: Sequence[str],
    row: Sequence[float],
    focus: int,
    *,
    sentence_b_start: int | None = None,
) -> list[tuple[str, str, str]]:
    """The six beats as (key, title, text) for the focus row `row` of one head's weights; with
    a pair's boundary, the Parallel beat also says the row's weight on the other sentence."""
    top = max(range(len(row)), key=lambda j: row[j])
    parallel = (
        f"Every row at once: row i is token i's budget over the keys, and each row sums to 1. "
        f"“{tokens[focus]}” gives the most to “{key_tokens[top]}” ({num(row[top])})."
    )
    b = sentence_b_start
    if b is not None:
        other = sum(row[b:]) if focus < b else sum(row[:b])
        parallel += " " + pair_row_words(tokens, focus, b, float(other))
    return [(k, t, parallel if k in WEIGHTS_BEATS else NEEDS_QKV) for k, t in BEATS]


def pair_words(
    tokens: Sequence[str], key_tokens: Sequence[str], w: Any, pair: tuple[int, int]
) -> tuple[str, ...]:
    """The Parallel beat's pair read both ways ("bank → river: 0.69", "river → bank: 0.12"),
    one way when the queries and keys are different tokens (w is n × m, n != m)."""
    i, j = pair
    said = [f"{tokens[i]} → {key_tokens[j]}: {num(float(w[i, j]))}"]
    if len(tokens) == len(key_tokens):
        said.append(f"{tokens[j]} → {key_tokens[i]}: {num(float(w[j, i]))}")
    return tuple(said)


def text_is_fixed(source: str) -> str:
    """The refusal when a learner types a new text into weights that came from elsewhere."""
    return (
        f"these weights came from {source}: attnlab cannot run another text through them. "
        "Call attnlab.show again with that text's attention"
    )
