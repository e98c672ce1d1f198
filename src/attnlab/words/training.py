"""The training lab's sentences: each experiment's title, what to watch for, and its summary,
written from the numbers a run measured (train/outcomes.py), never from what it should show."""

from __future__ import annotations

from attnlab.words.numfmt import num

__all__ = [
    "MEASURES", "PAGE", "TITLES", "VARIANTS", "WATCH", "checkpoint_scores_line", "gif_saved",
    "induction_lines",
    "induction_phase", "lookup_lines", "lookup_phase", "sqrt_dk_line", "sqrt_dk_phase",
    "variant_name",
]  # fmt: skip

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
    "induction": "Watch the two-layer model's loss on the repeated half: it falls to a plateau, "
    "then look for a sudden drop, the sign that its heads have learned to use the first copy; "
    "the one-layer control runs beside it.",
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


# The Train view (static/train_view.js): its labels, and the line under the curves saying what
# to watch for in the phase the run has reached. Each phase is chosen from the numbers of the
# run on screen (train/narrate.py), and each line states only those numbers.

PAGE = {
    "heading": "Watch a head learn",
    "intro": "Train a head from random weights, in NumPy, in the server's worker: the curves "
    "grow as each chunk of steps arrives, and the scrubber shows the attention maps saved "
    "along the way.",
    "intro_kernel": "A head trained from random weights, in NumPy, by this notebook's kernel: "
    "Play shows the run's curves growing a chunk of steps at a time, and the scrubber shows the "
    "attention maps saved along the way. To train another experiment or seed, call "
    "attnlab.widget.train again.",
    "experiment": "Experiment",
    "seed": "Seed",
    "steps": "Steps",
    "play": "Play",
    "pause": "Pause",
    "step": "Step",
    "stop": "Stop",
    "play_aria": "Play the training run",
    "pause_aria": "Pause the training run",
    "step_aria": "Step the training run by one chunk",
    "stop_aria": "Stop the training run",
    "speed": "Speed",
    "speed_slow": "slow (1 step at a time)",
    "speed_medium": "medium (5 steps at a time)",
    "speed_fast": "fast (20 steps at a time)",
    "scrub": "Checkpoint",
    "at_step": "step {step} of {steps}",
    "no_run": "Press Play or Step to start a run.",
    "starting": "Starting the run in the server's worker…",
    "running": "Training: step {step} of {steps}.",
    "paused": "Paused at step {step} of {steps}.",
    "stopped": "Stopped at step {step}: the worker is free for the next run.",
    "finished": "Finished: {steps} steps.",
    "watch": "What to watch for",
    "summary": "So far",
    "maps": "Attention maps at the checkpoint",
    "row_of": "{word}'s row",
    "curves": "Curves against the step",
    "curve_aria": "{measure} against the step",
    "map_aria": "{name}: attention weights, a row for each query, a column for each key",
    "step_now": "Latest step:",
}
MEASURES = {
    "loss": "loss",
    "grad_norm": "gradient norm",
    "weight_river": "bank's weight on river",
    "weight_savings": "bank's weight on savings",
    "entropy": "mean row entropy (bits)",
    "hit": "share of queries that find their key",
    "loss_repeated": "loss on the repeated half",
    "loss_first": "loss on the first half",
}
VARIANTS = {
    "scaled": "Scaled",
    "uniform": "Uniform",
    "unscaled": "No √dₖ",
    "two_layer": "two layers",
    "one_layer": "one layer (control)",
}


def variant_name(key: str) -> str:
    """A variant's name for people: "T=2" stays as it is."""
    return VARIANTS.get(key, key)


def lookup_phase(*, step: int, river: float, savings: float, uniform_loss: float,
                 uniform_start: float, loss: float) -> str:  # fmt: skip
    if step == 0:
        return (
            f"Step 0, before any update: W_Q and W_K are random, and bank puts {num(river)} of "
            f"its attention on river (a plain average over the four words would put 0.25). "
            "Watch that weight as the loss falls."
        )
    bar = "above 0.6: bank now reads mostly river" if river > 0.6 else "not yet above 0.6"
    return (
        f"Step {step}: bank's weight on river is {num(river)} ({bar}); in the other sentence "
        f"its weight on savings is {num(savings)}. Scaled's loss is {num(loss, places=3)}; "
        f"Uniform's is {num(uniform_loss, places=3)} (it was {num(uniform_start, places=3)} at "
        "step 0)."
    )


def sqrt_dk_phase(*, step: int, losses: dict[str, float], entropies: dict[str, float],
                  grads: dict[str, float], max_entropy: float) -> str:  # fmt: skip
    each = ", ".join(f"{variant_name(k)} {num(v, places=3)}" for k, v in losses.items())
    ent = ", ".join(f"{variant_name(k)} {num(v)}" for k, v in entropies.items())
    grad = ", ".join(f"{variant_name(k)} {v:.2g}" for k, v in grads.items())
    where = (
        "Step 0, before any update (the same W_Q, W_K under every divisor)"
        if step == 0
        else (f"Step {step}")
    )
    return (
        f"{where}: loss {each}. Mean row entropy {ent} bits (a uniform row has "
        f"{num(max_entropy)}). Gradient norm {grad}: compare the low-entropy rows' gradients "
        "with the others'."
    )


def induction_phase(*, step: int, two: float, one: float, log_vocab: float,
                    drop_at: int | None, one_min: float) -> str:  # fmt: skip
    head = (
        f"Step {step}: the loss on the repeated half is {num(two)} for two layers and "
        f"{num(one)} for the one-layer control (log V = {num(log_vocab)}, a uniform guess)."
    )
    if drop_at is None:
        return head + (
            f" The two-layer loss has not fallen below log V / 2 = {num(log_vocab / 2)}: watch "
            "for a drop, and scrub the checkpoints to see which heads' scores change."
        )
    return head + (
        f" It fell below log V / 2 at step {drop_at}; the control's lowest so far is "
        f"{num(one_min)}. Scrub to checkpoints before and after that step and compare the heads."
    )


def checkpoint_scores_line(best: dict[str, tuple[str, float]]) -> str:
    """The induction checkpoint's best head per score, as read off its maps."""
    named = {"previous": "previous-token", "duplicate": "duplicate-token", "induction": "induction"}
    parts = [f"{named[k]} {head} {num(v)}" for k, (head, v) in best.items()]
    return "Best scores at this checkpoint: " + "; ".join(parts) + "." if parts else ""


def gif_saved(*, path: str, frames: int, width: int, height: int) -> str:
    """The CLI's line once `--gif` is written."""
    return f"Saved {path}: the maps at {frames} checkpoints, one frame each, {width} × {height} px."
