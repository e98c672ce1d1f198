"""The training lab's sentences: each experiment's title, what to watch for, and its summary,
written from the numbers a run measured (train/outcomes.py), never from what it should show."""

from __future__ import annotations

import math

from attnlab.words.grammar import counted
from attnlab.words.numfmt import num

__all__ = [
    "MEASURES",
    "PAGE",
    "PREVIOUS_BAR",
    "SATURATED_BITS",
    "SEED_RANGE",
    "STEPS_RANGE",
    "TITLES",
    "VARIANTS",
    "WATCH",
    "checkpoint_scores_line",
    "g2",
    "gif_caption",
    "gif_saved",
    "heads_formed",
    "induction_lines",
    "induction_phase",
    "lookup_lines",
    "lookup_phase",
    "sqrt_dk_divisors",
    "sqrt_dk_line",
    "sqrt_dk_phase",
    "sqrt_dk_verdict",
    "variant_name",
]

TITLES = {
    "lookup": "Learn the lookup: bank finds river",
    "sqrt-dk": "Why √dₖ: one retrieval head at dₖ = 64",
    "induction": "An induction head forms",
}
WATCH = {
    "lookup": "Watch bank's weight on river (and on savings in the other sentence) as W_Q and "
    "W_K learn, and bank's output, its geographic and financial dimensions, move with it; "
    "Uniform ignores the scores, so its loss cannot move.",
    "sqrt-dk": "Watch each divisor's loss, its mean row entropy and its gradient's norm; the "
    "norm is drawn on a log scale, since a saturated row's can be many powers of ten below the "
    "others'. The summary gives each divisor's median and largest late gradient.",
    "induction": "Watch the two-layer model's loss on the repeated half: it falls to a plateau, "
    "then look for a sudden drop, the sign that its heads have learned to use the first copy; "
    "the one-layer control runs beside it.",
}


STEPS_RANGE = "steps must be a whole number from 1 to {max}, got {got}"
SEED_RANGE = "a seed is a whole number from 0 to 2³² - 1, got {got}"
"""The one message for a step count or a seed out of range: train/catalog.py raises it for the
CLI and the routes, and the page says it (PAGE's steps_bad, seed_bad) before it asks."""


def _passed(what: str, at: int | None) -> str:
    return f"{what} at step {at}" if at is not None else f"never {what}"


def lookup_lines(
    *, steps: int, weight_start: float, weight_end: float, crossed_at: int | None,
    savings_end: float, loss_start: float, loss_end: float, uniform_start: float,
    uniform_end: float,
) -> list[str]:  # fmt: skip
    return [
        f"Scaled: bank's weight on river went from {num(weight_start, places=3)} to "
        f"{num(weight_end, places=3)} in {counted(steps, 'step')} (it "
        f"{_passed('passed 0.6', crossed_at)}); on savings, in the other sentence, it was "
        f"{num(savings_end, places=3)} at step {steps}.",  # as many places as the legend
        f"Scaled: the loss went from {num(loss_start, places=3)} to {num(loss_end, places=3)}.",
        f"Uniform: the loss went from {num(uniform_start, places=3)} to "
        f"{num(uniform_end, places=3)}.",
    ]


def g2(x: float) -> str:
    """A number that may span many powers of ten, to two significant digits: 8e-05, 0.88, 19."""
    return f"{x:.2g}"


def sqrt_dk_line(
    *, name: str, loss_start: float, loss_end: float, entropy_start: float, entropy_end: float,
    grad_start: float, grad_late: float, grad_late_max: float, hit_end: float, late_steps: int,
) -> str:  # fmt: skip
    return (
        f"{variant_name(name)}: loss {num(loss_start, places=3)} → {num(loss_end, places=3)}, "
        f"row entropy {num(entropy_start)} → {num(entropy_end)} bits, gradient norm "
        f"{g2(grad_start)} at the start; over the last {counted(late_steps, 'step')} its median "
        f"was {g2(grad_late)} and its largest {g2(grad_late_max)}; "
        f"{round(100 * hit_end)}% of queries find their key at the end."
    )


SATURATED_BITS = 0.5
"""A divisor whose mean row entropy ends below this many bits, with most queries' top key the
wrong one, counts as saturated (Scaled's rows end sharp too, but on the right key)."""


def sqrt_dk_verdict(
    *, late_steps: int, scaled: tuple[float, float], saturated: dict[str, tuple[float, float]]
) -> str:
    """What the run showed about saturation: the saturated divisors' median and largest late
    gradient norms beside Scaled's, and only the conclusion those numbers support."""
    if not saturated:
        return (
            "No divisor saturated on the wrong keys: each either ended with a mean row entropy "
            f"above {num(SATURATED_BITS)} bits or with most queries finding their key."
        )
    clauses = [
        f"{variant_name(k)} median {g2(m)}, largest {g2(x)}: {_saturated_verdict(m, x, scaled)}"
        for k, (m, x) in saturated.items()
    ]
    return (
        f"Over the last {counted(late_steps, 'step')}, Scaled's gradient norm had a median of "
        f"{g2(scaled[0])} and a largest of {g2(scaled[1])}. The saturated divisors (row entropy "
        f"below {num(SATURATED_BITS)} bits, mostly on the wrong key): {'; '.join(clauses)}."
    )


def _saturated_verdict(median: float, largest: float, scaled: tuple[float, float]) -> str:
    """One saturated divisor's late gradient against Scaled's (median, largest): only what
    these two numbers show."""
    if median < scaled[0] / 100:
        if largest > scaled[1]:
            return "almost nothing on most steps, yet more than Scaled's largest on a few"
        return "almost nothing passes back"
    if median < scaled[0]:
        return "below Scaled's, but not silenced"
    return "not silenced: saturation did not stop the gradient in this run"


def sqrt_dk_divisors(*, d_k: int, divisors: dict[str, float]) -> str:
    """Each divisor beside Scaled's √dₖ: how much larger or smaller it makes the scores."""
    root = math.sqrt(d_k)
    parts = []
    for name, tau in divisors.items():
        if name == "scaled":
            continue
        ratio = root / tau
        size = (
            f"scores {num(ratio)} times Scaled's"
            if ratio >= 1
            else f"scores 1/{num(1 / ratio)} of Scaled's"
        )
        parts.append(f"{variant_name(name)} divides by {num(tau)} ({size})")
    return f"Scaled divides the scores by √dₖ = √{d_k} = {num(root)}; " + "; ".join(parts) + "."


PREVIOUS_BAR = 0.5
"""The previous-token score a layer-0 head needs before the words call it one (a perfect one
puts all its weight one token back: 1)."""


def heads_formed(heads: dict[str, tuple[str, float]]) -> list[str]:
    """What the run's heads became, from its own scores: layer 0's strongest kind (named a head
    of that kind only once it scores PREVIOUS_BAR or more), and whether this is the textbook
    previous-token + induction pair or not."""
    prev, dup, ind = heads.get("previous"), heads.get("duplicate"), heads.get("induction")
    out = []
    if prev and dup:
        top, other = ("duplicate-token", dup), ("previous-token", prev)
        if prev[1] >= dup[1]:
            top, other = other, top
        if top[1][1] >= PREVIOUS_BAR:
            out.append(
                f"Layer 0's strongest head is a {top[0]} head ({top[1][0]}, {num(top[1][1])}), "
                f"not a {other[0]} head (the best {other[0]} score is {other[1][0]}'s, "
                f"{num(other[1][1])})."
            )
        else:
            out.append(
                f"No layer-0 head has specialised: the best previous-token score is {prev[0]}'s, "
                f"{num(prev[1])}, the best duplicate-token score {dup[0]}'s, {num(dup[1])}."
            )
    if ind:
        out.append(f"Layer 1's best induction score is {ind[0]}'s, {num(ind[1])}.")
    if prev and ind:
        if prev[1] >= PREVIOUS_BAR and ind[1] >= PREVIOUS_BAR:
            out.append(
                "A previous-token head in layer 0 beside an induction head in layer 1: the pair "
                "described for induction heads (Olsson et al., 2022)."
            )
        elif prev[1] < PREVIOUS_BAR:
            out.append(
                "So far this is not the usual previous-token + induction pair: no layer-0 head "
                f"looks one token back (none scores {num(PREVIOUS_BAR)} or more)."
            )
    return out


def induction_lines(
    *, steps: int, log_vocab: float, two_start: float, two_end: float, drop_at: int | None,
    one_min: float, one_end: float, heads: dict[str, tuple[str, float]],
) -> list[str]:  # fmt: skip
    lowest = (
        f"its lowest loss on the repeated half was {num(one_min)} and it is {num(one_end)} at "
        f"step {steps}"
        if num(one_min) != num(one_end)
        else f"its loss on the repeated half is at its lowest, {num(one_end)}, at step {steps}"
    )
    return [
        f"Two layers: the loss on the repeated half went from {num(two_start)} to {num(two_end)} "
        f"in {counted(steps, 'step')} (log V = {num(log_vocab)}); it "
        f"{_passed('fell below log V / 2', drop_at)}.",
        f"One layer (the control): {lowest}.",
        *(["At the last checkpoint: " + " ".join(heads_formed(heads))] if heads else []),
    ]


# The Train view (static/train_view.js): its labels, and the line under the curves saying what
# to watch for in the phase the run has reached. Each phase is chosen from the numbers of the
# run on screen (train/narrate.py), and each line states only those numbers.

PAGE = {
    "tab": "Watch it learn",  # index.html's tab (tests/browser/test_view_tabs.py checks they agree)
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
    "stopped": "Stopped at step {step}: the worker is free for the next run. Press Play or "
    "Step to start a new one.",
    "steps_bad": STEPS_RANGE,
    "seed_bad": SEED_RANGE,
    "seed_used": "Seed {seed}.",
    "finished": "Finished: {steps} steps.",
    "finished_next": "Play or Step starts a new run from step 0.",
    "finished_next_kernel": "Play or Step plays this run again from step 0.",
    "new_run": "A new run from step 0 (the last one's curves are cleared): paused at step "
    "{step} of {steps}.",
    "legend_at": "at step {step}:",
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
    "grad_norm": "gradient norm (log scale)",
    "weight_river": "bank's weight on river",
    "weight_savings": "bank's weight on savings",
    "river_geographic": "bank's output, geographic dimension (by the river bank)",
    "river_financial": "bank's output, financial dimension (by the river bank)",
    "savings_geographic": "bank's output, geographic dimension (at the savings bank)",
    "savings_financial": "bank's output, financial dimension (at the savings bank)",
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
    grad = ", ".join(f"{variant_name(k)} {g2(v)}" for k, v in grads.items())
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
    """The induction checkpoint's best head per score, and what they make, as read off its maps."""
    said = heads_formed(best)
    return "At this checkpoint: " + " ".join(said) if said else ""


def gif_caption(*, step: int, steps: int) -> str:
    """A GIF frame's caption: which step, and how to read the maps."""
    return (
        f"Step {step} of {steps}: a row for each query, a column for each key; darker = more weight"
    )


def gif_saved(*, path: str, frames: int, width: int, height: int) -> str:
    """The CLI's line once `--gif` is written."""
    return f"Saved {path}: the maps at {frames} checkpoints, one frame each, {width} × {height} px."
