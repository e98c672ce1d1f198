"""Learn the lookup: the toy head finds, from random W_Q and W_K, that bank must read river.

Two sentences, the lesson's own: `by the river bank` (bank's sense: geographic) and `at the
savings bank` (financial). The embeddings and W_V are the toy's (lesson/toy.py): a value hands
over its word's content, so bank's output is geographic exactly as far as bank attends to
river. W_Q and W_K start random (seeded) and Adam trains them on one loss: bank's output, read
as two logits (its geographic and financial coordinates), against the sentence's sense
(cross-entropy, the mean over the two sentences).

Why W_V is not trained as well: with a trainable W_V even a plain average (Uniform) can tell
the sentences apart, by inflating river's and savings' values; the task would no longer need a
lookup. `train_values=True` trains it anyway, so that claim can be checked.

The same initial weights are trained twice, side by side: with Scaled attention (softmax(QKᵀ/√dₖ))
and with Uniform (every weight 1/4), which ignores the scores, so W_Q and W_K get no gradient and
its loss stays where it starts.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from attnlab.core.attention import attend
from attnlab.lesson import toy
from attnlab.train.grad import attend_backward
from attnlab.train.optim import Adam, OptimState, global_norm
from attnlab.train.steps import AttentionMap, Checkpoint, Step, checkpoint_steps
from attnlab.types import FloatArray, Mode

__all__ = [
    "SENTENCES", "VARIANTS", "LookupOptions", "LookupState", "lookup_begin", "lookup_step",
    "run_lookup",
]  # fmt: skip

SENTENCES: tuple[tuple[str, str, int], ...] = (
    ("by the river bank", "river", 0),  # (sentence, the word that sets the sense, sense: 0 geo)
    ("at the savings bank", "savings", 1),  # 1: financial
)
VARIANTS: tuple[Mode, ...] = ("scaled", "uniform")
FOCUS = 3  # bank, the last word of both sentences


@dataclass(frozen=True)
class LookupOptions:
    """One run of the lookup experiment."""

    steps: int = 100
    seed: int = 0
    lr: float = 0.02
    init_scale: float = 0.5  # the standard deviation of W_Q's and W_K's entries
    train_values: bool = False
    checkpoints: int = 11


def _loss_and_grads(
    w: dict[str, FloatArray], mode: Mode, train_values: bool
) -> tuple[float, dict[str, FloatArray], list[FloatArray]]:
    """The mean loss over both sentences, its gradient for each trained matrix, and each
    sentence's attention weights (4, 4)."""
    grads = {name: np.zeros_like(p) for name, p in w.items()}
    loss, maps = 0.0, []
    for sentence, _, sense in SENTENCES:
        x = toy.embed(toy.tokenize(sentence))  # (4, 4) the toy's embeddings
        w_v = w.get("W_V", toy.W_V)  # (4, 4)
        trace = attend(x @ w["W_Q"], x @ w["W_K"], x @ w_v, mode=mode)  # weights (4, 4)
        z = trace.outputs[FOCUS, :2]  # (2,) bank's output as logits: geographic, financial
        p = np.exp(z - z.max()) / np.exp(z - z.max()).sum()  # (2,)
        loss += -float(np.log(p[sense])) / len(SENTENCES)
        d_out = np.zeros_like(trace.outputs)  # (4, 4) only bank's row enters the loss
        d_out[FOCUS, :2] = (p - np.eye(2)[sense]) / len(SENTENCES)
        g = attend_backward(trace, d_out)  # dQ, dK, dV (4, 4) each
        grads["W_Q"] += x.T @ g.d_queries  # Q = X W_Q
        grads["W_K"] += x.T @ g.d_keys  # K = X W_K
        if train_values:
            grads["W_V"] += x.T @ g.d_values  # V = X W_V
        maps.append(trace.weights)
    return loss, grads, maps


@dataclass(frozen=True)
class LookupState:
    """What a lookup run carries from one step to the next: each variant's W_Q, W_K (and W_V)
    and its Adam state. Picklable, so a chunk of steps can run in another process."""

    params: dict[Mode, dict[str, FloatArray]]
    states: dict[Mode, OptimState]


def lookup_begin(opts: LookupOptions = LookupOptions()) -> LookupState:
    """The run's state before step 0: the seeded W_Q and W_K, the same for both variants."""
    rng = np.random.default_rng(opts.seed)
    start: dict[str, FloatArray] = {
        name: rng.normal(0, opts.init_scale, (4, 4)) for name in ("W_Q", "W_K")
    }
    if opts.train_values:
        start["W_V"] = rng.normal(0, opts.init_scale, (4, 4))
    adam = Adam(lr=opts.lr)
    return LookupState(
        {mode: dict(start) for mode in VARIANTS}, {mode: adam.init(start) for mode in VARIANTS}
    )


def lookup_step(opts: LookupOptions, state: LookupState, step: int) -> tuple[LookupState, Step]:
    """Step `step`: each variant's numbers, then its update (none after the last step)."""
    adam = Adam(lr=opts.lr)
    params, states = dict(state.params), dict(state.states)
    values: dict[str, float] = {}
    ck_maps: list[AttentionMap] = []
    for mode in VARIANTS:
        loss, grads, maps = _loss_and_grads(params[mode], mode, opts.train_values)
        values[f"{mode}.loss"] = loss
        values[f"{mode}.grad_norm"] = global_norm(grads)
        for (sentence, word, _), m in zip(SENTENCES, maps, strict=True):
            values[f"{mode}.weight_{word}"] = float(m[FOCUS, sentence.split().index(word)])
            tokens = toy.tokenize(sentence)
            out = m[FOCUS] @ (toy.embed(tokens) @ params[mode].get("W_V", toy.W_V))  # (4,)
            values[f"{mode}.{word}_geographic"] = float(out[0])
            values[f"{mode}.{word}_financial"] = float(out[1])
            ck_maps.append(AttentionMap(f"{mode}: {sentence}", m, tokens))
        if step < opts.steps:
            params[mode], states[mode] = adam.step(params[mode], grads, states[mode])
    saved = step in checkpoint_steps(opts.steps, opts.checkpoints)
    return LookupState(params, states), Step(
        step, values, Checkpoint(tuple(ck_maps)) if saved else None
    )


def run_lookup(opts: LookupOptions = LookupOptions()) -> Iterator[Step]:
    """The run, step by step: each variant's loss, gradient norm, bank's weight on the word that
    sets its sense and bank's output (geographic and financial coordinates) in each sentence."""
    state = lookup_begin(opts)
    for step in range(opts.steps + 1):
        state, out = lookup_step(opts, state, step)
        yield out
