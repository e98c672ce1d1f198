"""An induction head forms: a two-layer attention-only model learns to copy a repeated half.

Each training sequence is T random tokens followed by the same T tokens again. On the first
half the next token is unpredictable (the loss cannot fall below log V); on the repeated half a
model can predict it by induction (Olsson et al., 2022): a previous-token head in layer 0
writes "the token before me" into each position, and an induction head in layer 1 attends from
the current token to the position just after that token's first occurrence and copies it. The
loss on the repeated half stays near log V for a while and then drops suddenly, when the two
heads form together. A one-layer model, the control, trained on the same batches from the same
seed, has no earlier layer to compose with and shows no such drop.

Each step draws a fresh batch (seeded). At checkpoints the heads are scored on a fixed probe
batch, with the atlas' definitions: a head's induction score is the mean weight from each
second-half query i to key i - T + 1 (the token after the first occurrence of token i), its
previous-token score the mean weight on key i - 1; its duplicate-token score, the mean weight
from each second-half query to key i - T (the same token's first occurrence), says whether a
layer-0 head found the earlier copy directly instead (then layer 1 can find the token after it
by position: another circuit with the same drop, which this experiment's default run grows).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, replace

import numpy as np

from attnlab.train.model import (
    IntArray,
    ModelConfig,
    Params,
    cross_entropy,
    forward,
    init_params,
    loss_and_grads,
)
from attnlab.train.optim import Adam, OptimState, global_norm
from attnlab.train.steps import AttentionMap, Checkpoint, Step, checkpoint_steps
from attnlab.types import FloatArray

__all__ = [
    "InductionOptions",
    "InductionState",
    "duplicate_token_score",
    "induction_begin",
    "induction_score",
    "induction_step",
    "previous_token_score",
    "repeated_batch",
    "run_induction",
    "training_batch",
]


@dataclass(frozen=True)
class InductionOptions:
    """One run: the model's sizes, the data's, the optimiser's rate, and the seed."""

    steps: int = 500
    seed: int = 0
    vocab: int = 24
    half: int = 10  # T: each sequence is T random tokens, then the same T again
    batch: int = 32
    d_model: int = 32
    n_heads: int = 2
    d_head: int = 16
    lr: float = 0.01
    checkpoints: int = 13
    probes: int = 16  # sequences of the fixed batch the heads are scored on


def repeated_batch(rng: np.random.Generator, opts: InductionOptions, size: int) -> IntArray:
    """`size` probe sequences (size, 2T): T random tokens, then the same T again."""
    first = rng.integers(0, opts.vocab, (size, opts.half))  # (B, T)
    return np.concatenate([first, first], axis=1)  # (B, 2T)


def training_batch(
    rng: np.random.Generator, opts: InductionOptions, size: int
) -> tuple[IntArray, FloatArray, FloatArray]:
    """`size` training sequences (size, 2T) and where each half's loss is read (size, 2T - 1).

    Each sequence is P random filler tokens, then t random tokens, then the same t again
    (P = 2T - 2t, t drawn from T/2..T for each sequence): the distance to the earlier copy
    varies, so a head cannot find it by position alone and must match tokens. "repeated" marks
    the inputs whose next token is the repeat's (t - 1 of them), "first" the filler's and the
    first copy's."""
    n = 2 * opts.half
    seqs = rng.integers(0, opts.vocab, (size, n))  # (B, 2T) filler everywhere, then the copies
    lengths = rng.integers(opts.half // 2, opts.half + 1, size)  # (B,) t
    repeated = np.zeros((size, n - 1))
    first = np.zeros((size, n - 1))
    for b, t in enumerate(lengths):
        start = n - 2 * t  # P: the first copy starts here
        seqs[b, start + t :] = seqs[b, start : start + t]  # the second copy
        repeated[b, start + t : n - 1] = 1.0  # inputs in the second copy but its last
        first[b, : start + t - 1] = 1.0  # inputs whose next token is filler or first copy
    return seqs, repeated, first


def induction_score(weights: FloatArray, half: int) -> FloatArray:
    """Mean weight from each second-half query i to key i - T + 1, per head."""
    i = np.arange(half, 2 * half)  # (T,) the repeated half's queries
    return weights[..., i, i - half + 1].mean(axis=-1)  # type: ignore[no-any-return]


def duplicate_token_score(weights: FloatArray, half: int) -> FloatArray:
    """Per head: the mean weight from each second-half query i to key i - T (its token, earlier)."""
    i = np.arange(half, 2 * half)  # (T,)
    return weights[..., i, i - half].mean(axis=-1)  # type: ignore[no-any-return]


def previous_token_score(weights: FloatArray) -> FloatArray:
    """Mean weight from each query i ≥ 1 to key i - 1, per head: weights (..., n, n)."""
    i = np.arange(1, weights.shape[-1])  # (n - 1,)
    return weights[..., i, i - 1].mean(axis=-1)  # type: ignore[no-any-return]


@dataclass(frozen=True)
class InductionState:
    """What a run carries between steps: its random generator (the next batch), the fixed probe
    batch, both models' parameters and Adam states. Picklable, so a chunk of steps can run in
    another process."""

    rng: np.random.Generator
    probe: IntArray  # (P, 2T)
    params: dict[str, Params]
    states: dict[str, OptimState]


def _models(opts: InductionOptions) -> dict[str, ModelConfig]:
    cfg2 = ModelConfig(
        vocab=opts.vocab,
        n_ctx=2 * opts.half,
        d_model=opts.d_model,
        n_layers=2,
        n_heads=opts.n_heads,
        d_head=opts.d_head,
    )
    return {"two_layer": cfg2, "one_layer": replace(cfg2, n_layers=1)}


def induction_begin(opts: InductionOptions = InductionOptions()) -> InductionState:
    """The run's state before step 0: both models initialised from the seed, the probe batch."""
    rng = np.random.default_rng(opts.seed)
    params: dict[str, Params] = {n: init_params(cfg, rng) for n, cfg in _models(opts).items()}
    adam = Adam(lr=opts.lr)
    states: dict[str, OptimState] = {name: adam.init(p) for name, p in params.items()}
    probe = repeated_batch(np.random.default_rng(opts.seed + 1), opts, opts.probes)
    return InductionState(rng, probe, params, states)


def induction_step(
    opts: InductionOptions, state: InductionState, step: int
) -> tuple[InductionState, Step]:
    """Step `step`: a fresh batch, both models' numbers, then their updates (none after the
    last step); at checkpoints the two-layer model's heads. The generator advances in place."""
    models = _models(opts)
    adam = Adam(lr=opts.lr)
    params, states = dict(state.params), dict(state.states)
    seqs, repeated, first = training_batch(state.rng, opts, opts.batch)  # (B, 2T), (B, 2T - 1)
    x, y = seqs[:, :-1], seqs[:, 1:]  # (B, 2T - 1) inputs and their next tokens
    values: dict[str, float] = {"log_vocab": math.log(opts.vocab)}
    for name, cfg in models.items():
        loss, grads, fwd = loss_and_grads(params[name], cfg, x, y, np.ones_like(repeated))
        values[f"{name}.loss"] = loss
        values[f"{name}.loss_repeated"] = cross_entropy(fwd.logits, y, repeated)[0]
        values[f"{name}.loss_first"] = cross_entropy(fwd.logits, y, first)[0]
        values[f"{name}.grad_norm"] = global_norm(grads)
        if step < opts.steps:
            params[name], states[name] = adam.step(params[name], grads, states[name])
    checkpoint = None
    if step in checkpoint_steps(opts.steps, opts.checkpoints):
        checkpoint = _checkpoint(params["two_layer"], models["two_layer"], state.probe, opts)
    return InductionState(state.rng, state.probe, params, states), Step(step, values, checkpoint)


def run_induction(opts: InductionOptions = InductionOptions()) -> Iterator[Step]:
    """Both models, step by step: each one's loss on the repeated half and on the first half,
    and its gradient norm; at checkpoints every head's map on one probe and its scores."""
    state = induction_begin(opts)
    for step in range(opts.steps + 1):
        state, out = induction_step(opts, state, step)
        yield out


def _checkpoint(
    params: Params, cfg: ModelConfig, probe: IntArray, opts: InductionOptions
) -> Checkpoint:
    """Every head's map on the first probe sequence, and each head's scores over all probes."""
    fwd = forward(params, cfg, probe)  # traces' weights (P, H, 2T, 2T)
    tokens = tuple(str(int(t)) for t in probe[0])
    maps, scores = [], {}
    for layer, trace in enumerate(fwd.traces):
        ind = induction_score(trace.weights, opts.half).mean(axis=0)  # (H,)
        prev = previous_token_score(trace.weights).mean(axis=0)  # (H,)
        dup = duplicate_token_score(trace.weights, opts.half).mean(axis=0)  # (H,)
        for h in range(cfg.n_heads):
            name = f"L{layer}H{h}"
            maps.append(AttentionMap(name, trace.weights[0, h], tokens))
            scores[f"{name}.induction"] = float(ind[h])
            scores[f"{name}.previous"] = float(prev[h])
            scores[f"{name}.duplicate"] = float(dup[h])
    return Checkpoint(tuple(maps), scores)
