"""Two plain optimisers over named parameters: SGD with momentum, and Adam.

Each is a frozen options object with `init(params)` for its state and
`step(params, grads, state) -> (params, state)`: new dicts every step, nothing edited in
place, so a run is a pure function of its seed. Adam follows Kingma & Ba (2015), algorithm 1,
with the bias corrections; SGD's momentum is PyTorch's form, v ← μv + g, θ ← θ - ηv.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from attnlab.errors import AttnlabError
from attnlab.types import FloatArray

__all__ = ["SGD", "Adam", "OptimState", "global_norm"]


class OptimiserError(AttnlabError):
    """An optimiser setting out of its range (a learning rate that is not positive, say)."""

    field = "optimiser"


@dataclass(frozen=True)
class OptimState:
    """What an optimiser carries between steps: its step count and one or two moving averages."""

    t: int
    first: Mapping[str, FloatArray]  # SGD's velocity, Adam's m
    second: Mapping[str, FloatArray]  # Adam's v (empty for SGD)


def global_norm(grads: Mapping[str, FloatArray]) -> float:
    """‖g‖₂ over every parameter at once."""
    return math.sqrt(sum(float(np.sum(g * g)) for g in grads.values()))


def _zeros(params: Mapping[str, FloatArray]) -> dict[str, FloatArray]:
    return {name: np.zeros_like(p) for name, p in params.items()}


def _check(lr: float, *others: tuple[str, float, float, float]) -> None:
    if not (math.isfinite(lr) and lr > 0):
        raise OptimiserError(f"the learning rate must be positive and finite, got {lr!r}")
    for name, value, lo, hi in others:
        if not lo <= value < hi:
            raise OptimiserError(f"{name} must be in [{lo}, {hi}), got {value!r}")


@dataclass(frozen=True)
class SGD:
    """Stochastic gradient descent with momentum μ (0: plain SGD)."""

    lr: float
    momentum: float = 0.9

    def __post_init__(self) -> None:
        _check(self.lr, ("momentum", self.momentum, 0.0, 1.0))

    def init(self, params: Mapping[str, FloatArray]) -> OptimState:
        return OptimState(0, _zeros(params), {})

    def step(
        self,
        params: Mapping[str, FloatArray],
        grads: Mapping[str, FloatArray],
        state: OptimState,
    ) -> tuple[dict[str, FloatArray], OptimState]:
        velocity = {n: self.momentum * state.first[n] + grads[n] for n in params}  # v ← μv + g
        new: dict[str, FloatArray] = {n: params[n] - self.lr * velocity[n] for n in params}
        return new, OptimState(state.t + 1, velocity, {})


@dataclass(frozen=True)
class Adam:
    """Adam: moving averages of g and g², bias-corrected, step η m̂ / (√v̂ + ε)."""

    lr: float
    beta1: float = 0.9
    beta2: float = 0.999
    eps: float = 1e-8

    def __post_init__(self) -> None:
        _check(self.lr, ("beta1", self.beta1, 0.0, 1.0), ("beta2", self.beta2, 0.0, 1.0))

    def init(self, params: Mapping[str, FloatArray]) -> OptimState:
        return OptimState(0, _zeros(params), _zeros(params))

    def step(
        self,
        params: Mapping[str, FloatArray],
        grads: Mapping[str, FloatArray],
        state: OptimState,
    ) -> tuple[dict[str, FloatArray], OptimState]:
        t = state.t + 1
        b1, b2 = self.beta1, self.beta2
        m = {n: b1 * state.first[n] + (1 - b1) * grads[n] for n in params}  # m ← β₁m + (1-β₁)g
        v = {n: b2 * state.second[n] + (1 - b2) * grads[n] ** 2 for n in params}  # v ← β₂v + …g²
        c1, c2 = 1 - b1**t, 1 - b2**t  # bias corrections
        new: dict[str, FloatArray] = {
            n: params[n] - self.lr * (m[n] / c1) / (np.sqrt(v[n] / c2) + self.eps) for n in params
        }
        return new, OptimState(t, m, v)
