"""The words the canvas draws for each beat: headings, formulas, notes and a description.

The page's layout (static/layout.js) places these strings; it writes none of its own, so the
picture and the narration (narration.py) cannot disagree about the formula, the divisor or a
tie. `captions(trace, focus)` reads every number from the trace and writes it with numfmt's
rule. The description of each beat is the canvas's accessible name: what a screen reader hears
in place of the picture.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attnlab.core.trace import Trace
from attnlab.words.grammar import and_list, token_names
from attnlab.words.narration import asymmetric_pair
from attnlab.words.numfmt import num, vec

__all__ = ["BeatCaption", "Captions", "captions", "formula", "score_withheld_description"]


@dataclass(frozen=True)
class BeatCaption:
    """One beat's words on the canvas."""

    heading: str  # the line across the top
    description: str  # the canvas's accessible name for this beat
    notes: tuple[str, ...] = ()  # lines under the picture, in order


@dataclass(frozen=True)
class Captions:
    """The six beats' captions, and the pieces the score cells and the budget bar reuse."""

    tokens: BeatCaption
    project: BeatCaption
    score: BeatCaption
    softmax: BeatCaption
    blend: BeatCaption
    parallel: BeatCaption
    divisor: str  # what a score cell divides by: "2", "0.5" (T), "1", "∞"
    budget: str  # the caption over the softmax beat's budget bar
    pair: tuple[str, ...]  # the parallel beat's two highlighted readings (empty when no pair)


def formula(trace: Trace) -> str:
    """The attention formula as this trace computed it."""
    if trace.temperature is not None:
        return f"softmax(QKᵀ/T) with T = {num(trace.temperature)}"
    return {"scaled": "softmax(QKᵀ/√dₖ)", "unscaled": "softmax(QKᵀ)", "uniform": "1/n"}[trace.mode]


def captions(trace: Trace, focus: int) -> Captions:
    """Every caption of the six beats of a single-head `trace`, following row `focus`."""
    who = f"“{token_names(trace.tokens)[focus]}”"
    pair = _pair_lines(trace, focus)
    return Captions(
        tokens=_tokens(trace, who),
        project=BeatCaption(
            "Project: every token gets a query q, a key k and a value v",
            f"Project: the query, key and value of every token; the query of {who} is "
            f"{vec(trace.queries[focus][:8])}.",
        ),
        score=_score(trace, focus, who),
        softmax=_softmax(trace, focus, who),
        blend=_blend(trace, focus, who),
        parallel=_parallel(trace, focus, pair),
        divisor=num(trace.divisor),
        budget=(
            f"The budget of {who}, 100% split across the keys:"
            if trace.axis == "keys"
            else f"The row of {who} (softmax ran down the columns, so it does not sum to 1):"
        ),
        pair=pair,
    )


def _tokens(trace: Trace, who: str) -> BeatCaption:
    width = trace.embeddings.shape[-1] if trace.embeddings is not None else trace.queries.shape[-1]
    shown = ", ".join(trace.tokens) if trace.n <= 16 else f"{trace.n} tokens"
    return BeatCaption(
        f"Tokens: each one is a vector of {width} numbers (its embedding x)",
        f"Tokens: {shown}, each with its embedding; following {who}.",
    )


def _score(trace: Trace, focus: int, who: str) -> BeatCaption:
    div = num(trace.divisor)
    if trace.temperature is not None:
        head = f"Score: the query of {who} dotted with every key, q·k / T"
        line = (
            f"score = q·k / T, with the temperature T = {div} in place of "
            f"√dₖ = √{trace.d_k} = {num(math.sqrt(trace.d_k))}"
        )
    elif trace.mode == "scaled":
        head = f"Score: the query of {who} dotted with every key, q·k / √dₖ"
        line = f"score = q·k / √dₖ, with √dₖ = √{trace.d_k} = {div}"
    elif trace.mode == "unscaled":
        head = f"Score: the query of {who} dotted with every key, q·k / 1"
        line = "No √dₖ: score = q·k / 1, the raw dot product goes straight to the softmax"
    else:
        head = f"Score: the query of {who} dotted with every key, q·k / ∞"
        line = "Uniform: the dot products are ignored (q·k / ∞ = 0), so every key scores the same"
    s = trace.scores[focus]
    best = token_names(trace.columns)[_argmax(s)]
    return BeatCaption(
        head,
        f"Score: the row of {who} fills left to right with q·k / {div}; the best match is {best}.",
        (line,),
    )


def score_withheld_description(trace: Trace, focus: int) -> str:
    """The Score beat's accessible name without its answer, for a page that waits for the
    learner's guess (Predict first): what fills in, and the question in place of the best match."""
    who = f"“{token_names(trace.tokens)[focus]}”"
    return (
        f"Score: the row of {who} fills left to right with q·k / {num(trace.divisor)}; "
        f"which key will {who} attend to most? Guess before the weights show."
    )


def _softmax(trace: Trace, focus: int, who: str) -> BeatCaption:
    w = trace.weights[focus]
    best = _argmax(w)
    if trace.axis == "queries":  # the wrong axis: the row is no budget, say what it sums to
        head = (
            f"Softmax down the columns: the row of {who} is no budget, it sums to "
            f"{num(float(w.sum()))}"
        )
    elif trace.mode == "uniform":
        head = "Softmax, overruled: Uniform gives every key the same weight, still a budget of 1"
    else:
        head = f"Softmax: the scores of {who} become weights, a budget that sums to 1"
    return BeatCaption(
        head,
        f"Softmax: the weights of {who}; the largest, {num(float(w[best]))}, goes to "
        f"{token_names(trace.columns)[best]}.",
    )


def _blend(trace: Trace, focus: int, who: str) -> BeatCaption:
    w = trace.weights[focus]
    target = _argmax(w)
    out = vec(trace.outputs[focus][:8])
    notes = [f"↑ the new vector of {who}: the values mixed in the proportions of its weights."]
    tied = [token_names(trace.columns)[j] for j in np.flatnonzero(np.abs(w - w[target]) <= 1e-9)]
    if len(tied) > 1:
        notes.append(
            f"A tie: {and_list(tied)} share the largest weight, {num(float(w[target]))}; "
            f"the ray points at the first."
        )
    return BeatCaption(
        f"Blend: the new vector of {who} is the values, each scaled by its weight, summed",
        f"Blend: a violet ray from {who} to {token_names(trace.columns)[target]}, the key with "
        f"the largest weight ({num(float(w[target]))}); the new vector of {who} is {out}.",
        tuple(notes),
    )


def _pair_lines(trace: Trace, focus: int) -> tuple[str, ...]:
    if trace.key_tokens is not None:
        return ()
    i, j = asymmetric_pair(trace, focus)
    if i == j:
        return ()
    a, b = token_names(trace.tokens)[i], token_names(trace.tokens)[j]
    wij, wji = num(float(trace.weights[i, j])), num(float(trace.weights[j, i]))
    return (f"{a} → {b} = {wij} (row {a}, column {b})", f"{b} → {a} = {wji} (row {b}, column {a})")


def _parallel(trace: Trace, focus: int, pair: tuple[str, ...]) -> BeatCaption:
    n, m = trace.weights.shape
    head = f"Parallel: every token at once, the full matrix W = {formula(trace)}"
    if not pair:
        return BeatCaption(head, f"Parallel: the full {n}×{m} weight matrix.")
    i, j = asymmetric_pair(trace, focus)
    a, b = token_names(trace.tokens)[i], token_names(trace.tokens)[j]
    wij, wji = float(trace.weights[i, j]), float(trace.weights[j, i])
    if num(wij) == num(wji):
        note = "The outlined pair happens to be equal here."
    elif trace.mask is not None and not (trace.mask[i, j] and trace.mask[j, i]):
        note = "Not symmetric: the mask hides one of the two from the other."
    else:
        note = "Not symmetric: each row is its own budget, so i → j and j → i differ."
    return BeatCaption(
        head,
        f"Parallel: the full {n}×{m} weight matrix; highlighted, {a} → {b} is {num(wij)} and "
        f"{b} → {a} is {num(wji)}.",
        (note,),
    )


def _argmax(xs: np.ndarray) -> int:
    """The first largest entry that is not NaN (the page's argmax rule)."""
    safe = np.where(np.isnan(xs), -np.inf, xs)
    return int(np.argmax(safe))
