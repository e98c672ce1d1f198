"""The six beats of the lesson, told in words generated from a trace's numbers.

Beats follow the seed's walk through one focus token: Tokens, Project, Score, Softmax, Blend,
Parallel. Every sentence a learner reads about a beat is written here, once; the numbers in it
come from the Trace, never from a constant.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from attnlab.core.trace import Trace
from attnlab.types import BoolArray
from attnlab.words.grammar import and_list, counted, possessive, spoken, spoken_names
from attnlab.words.numfmt import num, percent, vec

BEATS: tuple[tuple[str, str], ...] = (
    ("tokens", "Tokens"),
    ("project", "Project"),
    ("score", "Score"),
    ("softmax", "Softmax"),
    ("blend", "Blend"),
    ("parallel", "Parallel"),
)
LIST_AT_MOST = 8
"""Beyond this many keys, a beat names the few that matter most instead of every one."""


@dataclass(frozen=True)
class Beat:
    """One step of the walk: its key (e.g. "score"), its title, and what it says."""

    key: str
    title: str
    text: str


def narrate(
    trace: Trace, focus: int, *, extras: Mapping[str, str] | None = None
) -> tuple[Beat, ...]:
    """The six beats for query row `focus` of a single-head `trace`.

    `extras` maps a beat's key to a sentence appended to it (e.g. what positions added).
    """
    if trace.weights.ndim != 2:
        raise ValueError(f"narrate needs one head, got weights of shape {trace.weights.shape}")
    texts = (
        _tokens(trace, focus),
        _project(trace, focus),
        _score(trace, focus),
        _softmax(trace, focus),
        _blend(trace, focus),
        _parallel(trace, focus),
    )
    more = extras or {}
    return tuple(
        Beat(key, title, f"{text} {more[key]}" if key in more else text)
        for (key, title), text in zip(BEATS, texts, strict=True)
    )


def _name(trace: Trace, j: int) -> str:
    return spoken_names(trace.columns)[j]


def _shown_keys(trace: Trace, focus: int) -> list[int]:
    """All keys when few; otherwise the heaviest few, in sentence order."""
    m = trace.weights.shape[1]
    if m <= LIST_AT_MOST:
        return list(range(m))
    top = np.argsort(-trace.weights[focus])[: LIST_AT_MOST // 2]
    return sorted(int(j) for j in top)


def _tokens(trace: Trace, focus: int) -> str:
    n, who = trace.n, spoken_names(trace.tokens)[focus]
    said = [spoken(t) for t in trace.tokens]  # the sentence's words as they come, “ bank” quoted
    shown = said if n <= 2 * LIST_AT_MOST else (*said[:4], "…", *said[-3:])
    words = ", ".join(shown)
    text = f"{counted(n, 'token')} {'comes' if n == 1 else 'come'} in: {words}."
    if trace.embeddings is not None:
        width = trace.embeddings.shape[1]
        text += f" Each one is a vector of {width} numbers"
        if trace.dim_names is not None:
            text += f" ({', '.join(trace.dim_names)})"
        if width <= 8:
            text += f"; {who} is {vec(trace.embeddings[focus])}."
        else:
            text += "."
    return text + f" We follow {who}."


def _project(trace: Trace, focus: int) -> str:
    who = spoken_names(trace.tokens)[focus]
    whose = possessive(who)
    if trace.queries.shape[-1] > 8:
        return (
            f"Three different learned matrices turn every token into a query (what it looks for), "
            f"a key (what it offers) and a value (what it hands over), each {trace.d_k} numbers "
            f"wide. {whose} query and key are different vectors: a token need not match itself."
        )
    q, k, v = trace.queries[focus], trace.keys[focus], trace.values[focus]
    own = float(trace.raw_scores[focus, focus]) if trace.key_tokens is None else None
    text = (
        f"Three different matrices give every token three roles. {whose} query, what it looks "
        f"for, is {vec(q)}; its key, what it offers others, is {vec(k)}; its value, what it hands "
        f"over, is {vec(v)}."
    )
    if own is not None:
        text += f" Query and key differ: {whose} query dotted with its own key is only {num(own)}."
    return text


def score_withheld(trace: Trace, focus: int, *, extras: Mapping[str, str] | None = None) -> str:
    """The Score beat told without its answer, for a page that waits for the learner's guess
    (Predict first): the scores themselves, then a question in place of "The best match is …"."""
    text = _score(trace, focus, withhold=True)
    more = (extras or {}).get("score")
    return f"{text} {more}" if more else text


def _score(trace: Trace, focus: int, *, withhold: bool = False) -> str:
    who = spoken_names(trace.tokens)[focus]
    whose = possessive(who)
    raw, s = trace.raw_scores[focus], trace.scores[focus]
    masked = trace.mask is not None and not trace.mask[focus].all()
    if trace.mode == "uniform":
        dots = ", ".join(f"{_name(trace, j)} {num(raw[j])}" for j in _shown_keys(trace, focus))
        return (
            f"Uniform ignores the match: {whose} query is still dotted with every key "
            f"({dots}), "
            f"but every score is then set to 0, so no key can stand out."
        )
    if trace.mode == "scaled":
        div = num(trace.divisor)
        head = f"{whose} query is dotted with every key and divided by √dₖ = √{trace.d_k} = {div}: "
        if trace.temperature is not None:
            head = (
                f"{whose} query is dotted with every key and divided by the temperature "
                f"T = {div} in place of √dₖ = {num(float(np.sqrt(trace.d_k)))}: "
            )
        parts = [
            f"{_name(trace, j)} {num(raw[j])} / {div} = {num(s[j])}"
            if np.isfinite(s[j]) else f"{_name(trace, j)} masked (−∞)"
            for j in _shown_keys(trace, focus)
        ]  # fmt: skip
    else:
        head = (
            f"No √dₖ: {whose} query is dotted with every key and the raw number goes straight on: "
        )
        parts = [
            f"{_name(trace, j)} {num(raw[j])}" if np.isfinite(s[j]) else f"{_name(trace, j)} masked"
            for j in _shown_keys(trace, focus)
        ]
    text = head + "; ".join(parts) + "."
    best = int(np.argmax(s))
    if withhold:
        text += " Which key matches best? Guess first: the Softmax step follows your guess."
    else:
        text += f" The best match is {_name(trace, best)}."
    if masked:
        text += " Masked keys get −∞, so they will get no weight at all."
    return text


def _softmax(trace: Trace, focus: int) -> str:
    who, w = spoken_names(trace.tokens)[focus], trace.weights[focus]
    whose = possessive(who)
    shown = ", ".join(f"{_name(trace, j)} {num(w[j])}" for j in _shown_keys(trace, focus))
    best = int(np.argmax(w))
    if trace.mode == "uniform" and trace.axis == "keys":
        share = num(float(w[best]))
        return (
            f"Uniform hands every key the same weight, 1/{int(np.count_nonzero(w))} = {share}: "
            f"{shown}. The budget still sums to 1, but {who} selects nothing."
        )
    if trace.axis == "queries":
        return (
            f"Softmax down the wrong axis: each column (one key) now sums to 1 across the queries. "
            f"{whose} row reads {shown} and sums to {num(float(w.sum()))}, not 1, yet every number "
            f"still looks like a plausible weight."
        )
    text = f"Softmax turns {whose} scores into weights that are positive and sum to 1, a budget: "
    text += f"{shown}. " + _share(trace, focus)
    if trace.mask is not None and not trace.mask[focus].all():
        hidden = [_name(trace, int(j)) for j in np.flatnonzero(~trace.mask[focus])]
        text += f" Masked keys ({', '.join(hidden)}) get weight 0; the rest still sum to 1."
    return text


def _share(trace: Trace, focus: int) -> str:
    """How the focus spends its budget: on one favourite, a tie, or evenly."""
    who, w = spoken_names(trace.tokens)[focus], trace.weights[focus]
    tied, top = _favourites(trace, focus), percent(float(w.max()))
    if len(tied) == int(np.count_nonzero(w)) and len(tied) > 1:
        return (
            f"{possessive(who)} query matches no key better than another, so it spreads its "
            f"budget evenly: {top} each."
        )
    if len(tied) > 1:
        return f"{who} splits its top share, {top} each, between " + (
            f"{and_list([_name(trace, j) for j in tied])}."
        )
    best = tied[0]
    text = f"{who} spends {top} of its attention on {_name(trace, best)}"
    if best != focus and trace.key_tokens is None:
        text += f" and {percent(float(w[focus]))} on itself"
    return text + "."


def _favourites(trace: Trace, focus: int) -> list[int]:
    """The keys tied for the focus row's largest weight (usually one)."""
    w = trace.weights[focus]
    return [int(j) for j in np.flatnonzero(np.isclose(w, w.max(), rtol=1e-9, atol=1e-12))]


def _blend(trace: Trace, focus: int) -> str:
    who, w, out = spoken_names(trace.tokens)[focus], trace.weights[focus], trace.outputs[focus]
    whose = possessive(who)
    best = int(np.argmax(w))
    best_s = possessive(_name(trace, best))
    wide = trace.values.shape[-1] > 8
    if wide:
        text = (
            f"Every value is scaled by its weight and the scaled values are added up; "
            f"{best_s} value, with weight {num(float(w[best]))}, counts most. "
            f"{whose} new vector has {trace.values.shape[-1]} numbers."
        )
    else:
        terms = " + ".join(
            f"{num(float(w[j]))}×{vec(trace.values[j])}" for j in _shown_keys(trace, focus)
        )
        text = (
            f"Each value is scaled by its weight and the results are summed: {terms} "
            f"≈ {vec(out)}. This is {whose} new vector."
        )
    if trace.mode == "uniform":
        return (
            text
            + " Under Uniform that is the plain average of the values, the same for every token."
        )
    if len(_favourites(trace, focus)) == int(np.count_nonzero(w)) > 1:
        return text + " With every weight equal, that is the plain average of the values."
    if trace.dim_names is not None and not wide:
        lean = int(np.argmax(np.abs(out)))
        text += f" It points mostly along the {trace.dim_names[lean]} dimension"
        tied = [j for j in _favourites(trace, focus) if j != focus]
        names = and_list([_name(trace, j) for j in tied]) if tied else ""
        text += f": {who} now carries {names} inside it." if tied else "."
    return text


def _parallel(trace: Trace, focus: int) -> str:
    n, m = trace.weights.shape
    text = (
        f"The same three moves run for every token at once: the full {n}×{m} matrix, "
        f"{_formula(trace)} in one step. Row i is token i's budget (the query); "
        f"column j is the token it attends to (the key)."
    )
    if trace.mask is not None and n == m and _sees_no_later_key(trace.mask):
        if not trace.mask.all():
            text += (
                " The causal mask zeroes the upper triangle: no token attends to a later one, "
                "and every row still sums to 1."
            )
    if trace.mode == "uniform" and trace.mask is None:
        return text + f" Under Uniform every entry is 1/{m}, so this matrix is symmetric."
    if trace.key_tokens is not None:
        return text
    i, j = asymmetric_pair(trace, focus)
    names = spoken_names(trace.tokens)
    a, b = names[i], names[j]
    wij, wji = float(trace.weights[i, j]), float(trace.weights[j, i])
    if abs(wij - wji) < 5e-3:
        return text + f" Here {a} → {b} and {b} → {a} happen to match: {num(wij)}."
    hidden = [
        (x, y) for x, y in ((i, j), (j, i)) if trace.mask is not None and not trace.mask[x, y]
    ]
    if hidden:
        x, y = hidden[0]
        why = f"because the mask hides {names[y]} from {names[x]}"
    else:
        why = "because each row is its own budget"
    return text + (
        f" The matrix is not symmetric: {a} → {b} is {num(wij)} but {b} → {a} is {num(wji)}, {why}."
    )


def _sees_no_later_key(mask: BoolArray) -> bool:
    """True when no query row i sees a key j > i (the mask is lower-triangular), read off each
    row's last visible key: at 2,048 tokens np.tril would build another n × n mask to compare."""
    n, m = mask.shape
    last = m - 1 - np.argmax(mask[:, ::-1], axis=1)  # (n,) each row's last True (m − 1 if none)
    return bool(np.all(~mask.any(axis=1) | (last <= np.arange(n))))


def _formula(trace: Trace) -> str:
    if trace.temperature is not None:
        return f"softmax(QKᵀ/T) with T = {num(trace.temperature)}"
    return {"scaled": "softmax(QKᵀ/√dₖ)", "unscaled": "softmax(QKᵀ)", "uniform": "1/n"}[trace.mode]


def asymmetric_pair(trace: Trace, focus: int) -> tuple[int, int]:
    """The pair (focus, j) the Parallel beat highlights: the focus and its favourite other key."""
    w = trace.weights[focus].copy()
    if w.shape[0] > 1:
        w[focus] = -1.0
    return focus, int(np.argmax(w))
