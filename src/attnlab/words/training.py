"""The training lab's sentences: each experiment's title, what to watch for, and its summary,
written from the numbers a run measured (train/outcomes.py), never from what it should show."""

from __future__ import annotations

from attnlab.words.numfmt import num

__all__ = ["TITLES", "WATCH", "induction_lines", "lookup_lines", "sqrt_dk_line"]

TITLES = {
    "lookup": "Learn the lookup: bank finds river",
    "sqrt-dk": "Why √dₖ: one retrieval head at dₖ = 64",
    "induction": "An induction head forms",
}
WATCH = {
    "lookup": "Watch bank's weight on river (and on savings in the other sentence) as W_Q and "
    "W_K learn; Uniform ignores the scores, so its loss cannot move.",
    "sqrt-dk": "Watch each divisor's loss, its mean row entropy and its gradient's norm: a "
    "saturated row (entropy near 0) passes almost no gradient back.",
    "induction": "Watch the two-layer model's loss on the repeated half: flat near log V, then "
    "a drop when its heads learn to use the first copy; the one-layer control beside it.",
}


def _step(at: int | None) -> str:
    return "never" if at is None else f"at step {at}"


def lookup_lines(
    *, steps: int, weight_start: float, weight_end: float, crossed_at: int | None,
    savings_end: float, loss_start: float, loss_end: float, uniform_start: float,
    uniform_end: float,
) -> list[str]:  # fmt: skip
    return [
        f"Scaled: bank's weight on river went from {num(weight_start)} to {num(weight_end)} in "
        f"{steps} steps (it passed 0.6 {_step(crossed_at)}); on savings, in the other sentence, "
        f"it ended at {num(savings_end)}.",
        f"Scaled: the loss went from {num(loss_start, places=3)} to {num(loss_end, places=3)}.",
        f"Uniform: the loss went from {num(uniform_start, places=3)} to "
        f"{num(uniform_end, places=3)}.",
    ]


def sqrt_dk_line(
    *, name: str, loss_start: float, loss_end: float, entropy_start: float, entropy_end: float,
    grad_start: float, grad_late: float, hit_end: float,
) -> str:  # fmt: skip
    return (
        f"{name}: loss {num(loss_start, places=3)} → {num(loss_end, places=3)}, row entropy "
        f"{num(entropy_start)} → {num(entropy_end)} bits, gradient norm {grad_start:.2g} at the "
        f"start and {grad_late:.2g} late (median), {round(100 * hit_end)}% of queries find "
        "their key at the end."
    )


def induction_lines(
    *, steps: int, log_vocab: float, two_start: float, two_end: float, drop_at: int | None,
    one_min: float, one_end: float, heads: dict[str, tuple[str, float]],
) -> list[str]:  # fmt: skip
    lines = [
        f"Two layers: the loss on the repeated half went from {num(two_start)} to {num(two_end)} "
        f"in {steps} steps (log V = {num(log_vocab)}); it fell below log V / 2 {_step(drop_at)}.",
        f"One layer (the control): its lowest loss on the repeated half was {num(one_min)}, "
        f"{num(one_end)} at the end.",
    ]
    named = {"previous": "previous-token", "duplicate": "duplicate-token", "induction": "induction"}
    for score, (head, value) in heads.items():
        lines.append(
            f"At the last checkpoint the best {named[score]} score is {head}'s, {num(value)}."
        )
    return lines
