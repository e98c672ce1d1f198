"""The words of the one-projection experiment (lesson/one_projection.py): what using one matrix
for the query, the key and the value did to the lookup, told from its numbers.

The seed's first common mistake is "treating Q, K and V as one vector". These sentences say what
the numbers of one run show; they take plain numbers and names, never a trace, so words/ does
not depend on the lesson.
"""

from __future__ import annotations

from collections.abc import Sequence

from attnlab.words.grammar import and_list, possessive
from attnlab.words.numfmt import num, percent, vec

__all__ = [
    "MATRIX",
    "Q_SQUARED",
    "contexts_note",
    "one_projection_finding",
    "one_projection_note",
    "rows_on_themselves",
]

MATRIX = {"queries": "W_Q", "keys": "W_K", "values": "W_V"}
"""The name of the matrix that serves as the one W, by the role it came from."""

Q_SQUARED = "|\u2060q|\u2060²"
"""|q|² held together by word joiners (U+2060): a line never breaks after a bar, so "|q|" and
"²" stay on one line."""


def rows_on_themselves(names: Sequence[str]) -> str:
    """'bank' / 'by and river' / 'none': the tokens whose largest weight is on themselves."""
    return and_list(list(names)) if names else "none"


def one_projection_note(
    who: str,
    *,
    shared: str,
    self_real: float,
    self_one: float,
    best_real: tuple[str, float],
    best_one: tuple[str, float],
    out_real: Sequence[float],
    out_one: Sequence[float],
    diagonal_real: Sequence[str],
    diagonal_one: Sequence[str],
    n: int,
) -> str:
    """One paragraph: the focus's score against itself, where its weight went, its new vector,
    and which rows put their largest weight on themselves, in the real head and with Q = K = V."""
    whose, w = possessive(who), MATRIX[shared]
    text = (
        f"With three matrices, {whose} query dotted with its own key is {num(self_real)}; "
        f"with one matrix ({w}) for all three roles it is {whose} query dotted with itself, "
        f"{Q_SQUARED} = {num(self_one)}. "
    )
    (real_to, real_w), (one_to, one_w) = best_real, best_one
    text += f"The real head gives {percent(real_w)} of {whose} attention to {real_to}; "
    if one_to == who:
        text += f"the one projection gives {percent(one_w)} to {who} itself. "
    else:
        text += f"the one projection gives {percent(one_w)} to {one_to}. "
    text += f"{whose} new vector: {vec(out_real)} with three matrices, {vec(out_one)} with one. "
    text += (
        f"Rows that put their largest weight on their own token: {len(diagonal_one)} of {n} "
        f"with one matrix ({rows_on_themselves(diagonal_one)}), {len(diagonal_real)} of {n} with "
        f"three ({rows_on_themselves(diagonal_real)}). "
    )
    text += (
        "With Q = K every score q_i·q_j is at most |q_i||q_j|, so a token's own score wins its row "
        "unless a longer vector points the same way: the diagonal tends to win, and what a token "
        "looks for can no longer differ from what it offers."
    )
    return text


def one_projection_finding(
    who: str,
    *,
    self_real: float,
    self_one: float,
    best_real: tuple[str, float],
    best_one: tuple[str, float],
) -> str:
    """The finding in two short sentences, for a card with its numbers beside it: the focus's
    score against itself and where its largest weight goes, three matrices → one."""
    (real_to, real_w), (one_to, one_w) = best_real, best_one
    one_to = f"{who} itself" if one_to == who else one_to
    return (
        f"{possessive(who)} score against itself: {num(self_real)} with three matrices, "
        f"{Q_SQUARED} = {num(self_one)} with one. Its largest weight moves from {real_to} "
        f"({percent(real_w)}) to {one_to} ({percent(one_w)})."
    )


def contexts_note(
    who: str,
    sentences: tuple[str, str],
    *,
    real_distance: float,
    one_distance: float,
    reads_itself: bool,
) -> str:
    """How far the focus's new vector moves between two sentences, with three matrices and with
    one: the lookup's point is that the context changes it. `reads_itself`: with one matrix the
    focus's largest weight is on itself in both sentences."""
    a, b = sentences
    text = (
        f"From “{a}” to “{b}”, {possessive(who)} new vector moves by {num(real_distance)} with "
        f"three matrices and by {num(one_distance)} with one."
    )
    if reads_itself and one_distance < real_distance / 2:
        text += (
            f" With one matrix {who} reads mostly itself, so its neighbours barely change what "
            "it becomes."
        )
    return text
