"""Why √dₖ: one retrieval head at a real head size, trained with and without the divisor.

Each step draws n random items e₁..eₙ (standard normal, width d). Item i's query is eᵢW_Q, its
key eᵢW_K, and its value the one-hot label of i (V = I, fixed), so the head's output for query
i is its attention row aᵢ, and the loss is the squared error of the retrieved label,
mean over i of ‖aᵢ - oneHot(i)‖²: each query must find the key that matches it. The gradient
reaches W_Q and W_K only through the softmax's Jacobian, as it does inside a real model, so a
saturated row (one-hot on the wrong key) passes almost nothing back.

The same initial W_Q, W_K (entries N(0, init_scale²/d), so scores QKᵀ have a standard
deviation near init_scale²·√dₖ) are trained once per divisor τ: Scaled (τ = √dₖ), No √dₖ
(τ = 1) and the temperatures asked for. The optimiser is plain SGD with momentum: Adam divides
each step by the gradient's own size and would hide how small the gradient became. Each step
records, per variant, the loss, the mean row entropy (bits) and the gradient's norm.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from attnlab.core.attention import attend
from attnlab.core.softmax import entropy_bits
from attnlab.train.grad import attend_backward
from attnlab.train.optim import SGD, OptimState, global_norm
from attnlab.train.steps import AttentionMap, Checkpoint, Step, early_checkpoint_steps
from attnlab.types import FloatArray

__all__ = [
    "SqrtDkOptions", "SqrtDkState", "run_sqrt_dk", "sqrt_dk_begin", "sqrt_dk_step",
    "variant_divisors",
]  # fmt: skip


@dataclass(frozen=True)
class SqrtDkOptions:
    """One run: the head's size, the number of items, the initial scale, the temperatures."""

    steps: int = 300
    seed: int = 0
    d_k: int = 64
    items: int = 16
    init_scale: float = 1.0
    lr: float = 0.5
    temperatures: tuple[float, ...] = (2.0, 32.0)
    every_first: int = 30  # a checkpoint every step up to here (Scaled learns in ~20 steps)
    checkpoints: int = 8  # then this many more, spaced in log(step), up to the last


def variant_divisors(opts: SqrtDkOptions) -> dict[str, float]:
    """Each variant's name and its divisor τ: scaled √dₖ, unscaled 1, then T=… for each T."""
    out = {"scaled": math.sqrt(opts.d_k), "unscaled": 1.0}
    for t in opts.temperatures:
        out[f"T={t:g}"] = float(t)
    return out


def _loss_and_grads(
    w: dict[str, FloatArray], e: FloatArray, tau: float
) -> tuple[float, dict[str, FloatArray], FloatArray]:
    """The retrieval loss on items `e` (n, d), dL/dW_Q and dL/dW_K, and the weights (n, n)."""
    n = e.shape[0]
    labels = np.eye(n)  # (n, n) item j's value: its one-hot label
    q, k = e @ w["W_Q"], e @ w["W_K"]  # (n, d_k) each
    trace = attend(q, k, labels, temperature=tau, check_finite=False)  # weights (n, n)
    err = trace.outputs - labels  # (n, n) what each query retrieved, minus what it should
    loss = float(np.sum(err * err)) / n
    g = attend_backward(trace, 2 * err / n)  # dL/dO = 2(O - Y)/n
    return loss, {"W_Q": e.T @ g.d_queries, "W_K": e.T @ g.d_keys}, trace.weights


@dataclass(frozen=True)
class SqrtDkState:
    """What a run carries between steps: its random generator (the next items), each variant's
    W_Q, W_K and SGD state. Picklable, so a chunk of steps can run in another process."""

    rng: np.random.Generator
    params: dict[str, dict[str, FloatArray]]
    states: dict[str, OptimState]


def sqrt_dk_begin(opts: SqrtDkOptions = SqrtDkOptions()) -> SqrtDkState:
    """The run's state before step 0: the same seeded W_Q, W_K for every divisor."""
    rng = np.random.default_rng(opts.seed)
    sd = opts.init_scale / math.sqrt(opts.d_k)
    start: dict[str, FloatArray] = {
        n: rng.normal(0, sd, (opts.d_k, opts.d_k)) for n in ("W_Q", "W_K")
    }
    sgd = SGD(lr=opts.lr, momentum=0.9)
    names = variant_divisors(opts)
    return SqrtDkState(rng, {n: dict(start) for n in names}, {n: sgd.init(start) for n in names})


def sqrt_dk_step(opts: SqrtDkOptions, state: SqrtDkState, step: int) -> tuple[SqrtDkState, Step]:
    """Step `step`: fresh items, each variant's numbers, then its update (none after the last).
    The state's generator is advanced in place (a pickled copy in another process is its own)."""
    sgd = SGD(lr=opts.lr, momentum=0.9)
    params, states = dict(state.params), dict(state.states)
    labels = tuple(f"item {i}" for i in range(opts.items))
    e = state.rng.normal(0, 1, (opts.items, opts.d_k))  # (n, d) fresh items
    values: dict[str, float] = {"max_entropy": math.log2(opts.items)}
    maps = []
    for name, tau in variant_divisors(opts).items():
        loss, grads, weights = _loss_and_grads(params[name], e, tau)
        values[f"{name}.loss"] = loss
        values[f"{name}.entropy"] = float(entropy_bits(weights).mean())
        values[f"{name}.grad_norm"] = global_norm(grads)
        values[f"{name}.hit"] = float(np.mean(weights.argmax(axis=1) == np.arange(opts.items)))
        maps.append(AttentionMap(name, weights, labels))
        if step < opts.steps:
            params[name], states[name] = sgd.step(params[name], grads, states[name])
    saved = step in early_checkpoint_steps(
        opts.steps, every_first=opts.every_first, later=opts.checkpoints
    )
    return SqrtDkState(state.rng, params, states), Step(
        step, values, Checkpoint(tuple(maps)) if saved else None
    )


def run_sqrt_dk(opts: SqrtDkOptions = SqrtDkOptions()) -> Iterator[Step]:
    """Every variant, step by step, on the same items: loss, mean row entropy, gradient norm."""
    state = sqrt_dk_begin(opts)
    for step in range(opts.steps + 1):
        state, out = sqrt_dk_step(opts, state, step)
        yield out
