"""The lab's words: what a learner reads beside the controls that break the lookup on purpose.

The six beats are told in narration.py; everything else the lesson says in sentences lives
here, once: reading a cell of the matrix (and the transposed mistake), what each head attends
by, what positions add, what a shuffle showed, and how saturated the focus row is. Numbers come
from the arguments, never from constants, and are written with numfmt's rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from attnlab.core.trace import Trace
from attnlab.words.grammar import and_list, possessive, token_names
from attnlab.words.numfmt import num, percent, vec

__all__ = [
    "COLUMNS_NOTE",
    "HEAD_BLURBS",
    "POSITION_NOTES",
    "Reading",
    "beat_extras",
    "causal_note",
    "compare_note",
    "heads_note",
    "prediction_note",
    "read_cell",
    "saturation_note",
    "shuffle_note",
    "sweep_note",
    "wrong_axis_note",
]

HEAD_BLURBS: dict[str, str] = {
    "meaning": (
        "Head 1 attends by meaning: content words look for content of their own kind, and an "
        "ambiguous word asks for content of either sense."
    ),
    "structure": (
        "Head 2 attends by grammar, not meaning: content words look at the function words "
        "around them, and function words look at the content words."
    ),
}

POSITION_NOTES: dict[str, str] = {
    "none": (
        "No positions: nothing in score, softmax or blend reads where a token stands, so the "
        "same words in any order give each word the same output."
    ),
    "sinusoidal": (
        "Sinusoidal positions: a fixed pattern of sines and cosines, one per position, is added "
        "to each embedding before the projections, so a word's query, key and value now depend "
        "on where it stands. Here the pattern is scaled to {scale} so it does not drown the "
        "four meaning dimensions."
    ),
    "rope": (
        "Rotary positions (RoPE): after the projections, each pair of query and key numbers is "
        "turned by an angle that grows with the position ({speed} radian per step on the first "
        "pair here). Turning keeps every length, and the score between two words depends only "
        "on how far apart they are. Values are not turned."
    ),
}


@dataclass(frozen=True)
class Reading:
    """The words for cell (row, col) of the weight matrix, read the right way and backwards."""

    row: int
    col: int
    text: str  # the right reading: row = query, column = key
    mistaken: str  # the transposed reading
    why: str  # why the transposed reading is wrong


def read_cell(trace: Trace, row: int, col: int) -> Reading:
    """Cell (row, col): token `row` (the query) attends to token `col` (the key)."""
    q, k = token_names(trace.tokens)[row], token_names(trace.columns)[col]
    q_s, k_s = possessive(q), possessive(k)
    w = num(float(trace.weights[row, col]))
    budget = "budget" if trace.axis == "keys" else "row (softmaxed down the wrong axis)"
    text = f"{q} → {k}: {q_s} query attends to {k_s} key, with weight {w} of {q_s} {budget}."
    if trace.mask is not None and not trace.mask[row, col]:
        text = f"{q} → {k}: masked. {q_s} query may not attend to {k_s} key, so the weight is 0."
    mistaken = f"Read backwards, the same cell would say {k_s} query attends to {q_s} key."
    if row == col:
        why = (
            f"On the diagonal both readings name {q}: it is {q_s} attention to itself. Elsewhere "
            f"the order matters: the row is always the query, the column the key."
        )
    elif trace.key_tokens is None and col < trace.n and row < trace.weights.shape[1]:
        back = num(float(trace.weights[col, row]))
        why = (
            f"Wrong: rows are queries and columns are keys, so this {w} is part of {q_s} row. "
            f"How much {k} attends to {q} is a different cell, row {k}, column {q}: {back}."
        )
    else:
        why = "Wrong: rows are queries and columns are keys; the two are not interchangeable."
    return Reading(row, col, text, mistaken, why)


def causal_note(who: str, hidden: Sequence[str]) -> str:
    """The causal mask from the focus token's side."""
    if not hidden:
        return f"The causal mask hides nothing from {who}: every other token comes before it."
    return (
        f"The causal mask hides the tokens after {who} ({', '.join(hidden)}): their scores "
        f"become −∞ and their weights 0, as in a decoder that may not read ahead."
    )


def saturation_note(
    who: str, entropy: float, ceiling: float, largest: float, frobenius: float | None
) -> str:
    """How peaked the focus row is, and how much gradient its softmax would pass."""
    whose = possessive(who)
    text = (
        f"{whose} row has entropy {num(entropy)} bits (a uniform row would have {num(ceiling)}) "
        f"and its largest weight is {num(largest)}."
    )
    if frobenius is not None:
        text += (
            f" The softmax Jacobian for this row has size {num(frobenius, places=3)} "
            f"(Frobenius norm): as the row saturates toward one key, it falls toward 0 and "
            f"almost no gradient passes back to the scores."
        )
    return text


def _distance(d: float) -> str:
    """How far an output moved, as the page's shuffle list says it: never a bare 0 for a move."""
    if d <= 1e-9:
        return "unchanged"
    return "less than 0.01" if num(d) == "0" else num(d)


def shuffle_note(
    kind: str,
    tokens: Sequence[str],
    shuffled: Sequence[str],
    distances: Sequence[float],
    *,
    causal: bool = False,
) -> str:
    """What one shuffle showed, token by token, and what made the outputs move."""
    order = " ".join(shuffled)
    if max(distances) <= 1e-9:
        return (
            f"Shuffled to '{order}': every token's output is the same vector as before, only in "
            f"a new place. Without positions, attention is blind to order."
        )
    moved = ", ".join(
        f"{t}: {_distance(float(d))}" for t, d in zip(token_names(tokens), distances, strict=True)
    )
    label = {"sinusoidal": "sinusoidal positions", "rope": "rotary positions"}.get(kind)
    if label is None:  # no positions: only the causal mask reads where a token stands
        return (
            f"Shuffled to '{order}': the outputs moved ({moved}), not because of word order "
            f"in the vectors (there are no positions) but because the causal mask reads places: "
            f"after the shuffle each token may see a different set of earlier tokens."
        )
    why = "each token's vector now depends on where it stands"
    if causal:
        why += ", and the causal mask lets it see a different set of earlier tokens"
    return f"Shuffled to '{order}': with {label} the outputs moved ({moved}), because {why}."


def heads_note(
    who: str, names: Sequence[str], favourites: Sequence[str], concat: Sequence[float]
) -> str:
    """What each head chose for the focus token, and the concatenated output."""
    whose = possessive(who)
    parts = "; ".join(
        f"head {h + 1} ({name}) looks most at {fav}"
        for h, (name, fav) in enumerate(zip(names, favourites, strict=True))
    )
    return (
        f"For {who}, {parts}. Each head makes its own {len(concat) // len(names)} numbers; "
        f"side by side they make {whose} {len(concat)}: {vec(concat)}."
    )


COLUMNS_NOTE = (
    "Softmax ran down the columns, the mistake: each column is now a distribution over the "
    "queries, and no row is a budget."
)


def sweep_note(who: str, sqrt_d_k: float) -> str:
    """The temperature sweep, in one sentence."""
    whose = possessive(who)
    return (
        f"{whose} row as the divisor T moves from 0.1 to 10 (T = √dₖ = {num(sqrt_d_k)} is "
        f"Scaled, T = 1 is No √dₖ): colder rows are sharper and pass less gradient; hotter rows "
        f"flatten toward Uniform."
    )


def prediction_note(who: str, guess: str, answer: str, w_guess: float, w_answer: float) -> str:
    """Predict, then reveal: what the learner hears after picking `guess` as the favourite."""
    if guess == answer:
        return f"Right: {who} spends the most of its budget, {percent(w_answer)}, on {answer}."
    return (
        f"Not this time: you picked {guess}, which gets {percent(w_guess)}; {who} spends the "
        f"most, {percent(w_answer)}, on {answer}."
    )


def wrong_axis_note(
    who: str, wrong: Sequence[float], right: Sequence[float], row_sum: float, moved: float
) -> str:
    """The wrong softmax axis, from the focus token's side."""
    whose = possessive(who)
    return (
        f"With the softmax down the columns, {whose} new vector is {vec(wrong)} instead of "
        f"{vec(right)} (moved by {num(moved)}), and its row sums to {num(row_sum)}, not 1. Every "
        f"number still looks like a plausible weight, which is why this mistake goes unnoticed."
    )


def beat_extras(*, positions: str, scale: float, speed: float) -> dict[str, str]:
    """Sentences appended to a beat when positions change what it shows."""
    if positions == "sinusoidal":
        return {
            "tokens": (
                f"Each vector here already includes its position's sinusoidal encoding "
                f"(scaled to {num(scale)})."
            )
        }
    if positions == "rope":
        return {
            "project": (
                f"The query and key shown are already turned by RoPE, by an angle that grows "
                f"with the position ({num(speed)} radian per step on the first pair); the scores "
                f"use these turned vectors."
            )
        }
    return {}


def compare_note(word: str, first: float, last: float, layers: int) -> str:
    """The same word in two texts: how alike its two vectors are entering and leaving."""
    return (
        f"{word} enters both texts as nearly the same vector (cosine {num(first)}); after "
        f"{layers} layers of attention the two {word}s have cosine {num(last)}: "
        "the same word, a different mixture of its neighbours."
    )


def toy_only_message(flags: Sequence[str]) -> str:
    """The CLI's refusal of lab flags with --model, its verbs agreeing with how many there are."""
    if len(flags) == 1:
        return (
            f"{flags[0]} changes the toy lesson and does not apply to --model; leave it out, "
            "or drop --model"
        )
    return (
        f"{and_list(list(flags))} change the toy lesson and do not apply to --model; leave them "
        "out, or drop --model"
    )
