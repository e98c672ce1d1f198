"""A small attention-only transformer, forward and backward, in NumPy.

The two-layer attention-only models of "A Mathematical Framework for Transformer Circuits"
(Elhage et al., 2021) and "In-context Learning and Induction Heads" (Olsson et al., 2022), with
no MLP and no layer norm, so every step is one the lesson has already shown:

    x₀ = W_E[t] + W_pos                       token and position embeddings      (B, n, d)
    xₗ₊₁ = xₗ + Σₕ attend(xₗW_Qʰ, xₗW_Kʰ, xₗW_Vʰ) W_Oʰ   causal heads, a residual     (B, n, d)
    logits = x_L W_U                          unembedding                         (B, n, V)
    L = Σ w · CE(logits, target) / Σ w        cross-entropy on the positions weighed

The backward (`loss_and_grads`) runs the same lines in reverse; attention's own backward is
`grad.attend_backward`. Parameter names: W_E, W_pos, W_U, and per layer l W_Q{l}, W_K{l}, W_V{l},
W_O{l} (heads first: W_Q{l} is (H, d, d_head), W_O{l} is (H, d_head, d)).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

from attnlab.core.attention import attend, causal_mask
from attnlab.core.trace import Trace
from attnlab.errors import ShapeError
from attnlab.train.grad import attend_backward
from attnlab.types import FloatArray

__all__ = [
    "Forward",
    "IntArray",
    "ModelConfig",
    "Params",
    "forward",
    "init_params",
    "loss_and_grads",
]

Params = dict[str, FloatArray]
"""A model's parameters by name; an optimiser returns a new dict, never edits one in place."""

IntArray: TypeAlias = npt.NDArray[np.integer]
"""Token ids."""


@dataclass(frozen=True)
class ModelConfig:
    """The sizes of an attention-only transformer (nanoGPT's GPTConfig, without the MLP)."""

    vocab: int
    n_ctx: int
    d_model: int = 32
    n_layers: int = 2
    n_heads: int = 2
    d_head: int = 16
    init_scale: float = 1.0  # multiplies every initial weight's standard deviation


def init_params(cfg: ModelConfig, rng: np.random.Generator) -> Params:
    """Gaussian weights, each with standard deviation init_scale/√(fan-in)."""
    d, h, e, s = cfg.d_model, cfg.n_heads, cfg.d_head, cfg.init_scale
    p: Params = {
        "W_E": rng.normal(0, s, (cfg.vocab, d)),  # (V, d)
        "W_pos": rng.normal(0, s, (cfg.n_ctx, d)),  # (n_ctx, d)
    }
    for layer in range(cfg.n_layers):
        for name in ("W_Q", "W_K", "W_V"):
            p[f"{name}{layer}"] = rng.normal(0, s / math.sqrt(d), (h, d, e))  # (H, d, d_head)
        p[f"W_O{layer}"] = rng.normal(0, s / math.sqrt(h * e), (h, e, d))  # (H, d_head, d)
    p["W_U"] = rng.normal(0, s / math.sqrt(d), (d, cfg.vocab))  # (d, V)
    return p


@dataclass(frozen=True)
class Forward:
    """Every intermediate of one forward pass: the residual stream before each layer and after
    the last, each layer's attention Trace (heads as a leading dimension), the logits."""

    tokens: IntArray  # (B, n)
    residuals: tuple[FloatArray, ...]  # n_layers + 1 arrays (B, n, d)
    traces: tuple[Trace, ...]  # n_layers traces, weights (B, H, n, n)
    logits: FloatArray  # (B, n, V)


def forward(params: Mapping[str, FloatArray], cfg: ModelConfig, tokens: IntArray) -> Forward:
    """Run `tokens` (B, n) through the model."""
    t = np.asarray(tokens)
    if t.ndim != 2 or not 1 <= t.shape[1] <= cfg.n_ctx:
        raise ShapeError(f"tokens must be (batch, n) with n ≤ {cfg.n_ctx}, got {t.shape}")
    n = t.shape[1]
    x = params["W_E"][t] + params["W_pos"][:n]  # (B, n, d)
    residuals, traces = [x], []
    mask = causal_mask(n)  # (n, n)
    for layer in range(cfg.n_layers):
        q = np.einsum("bnd,hde->bhne", x, params[f"W_Q{layer}"])  # (B, H, n, d_head)
        k = np.einsum("bnd,hde->bhne", x, params[f"W_K{layer}"])  # (B, H, n, d_head)
        v = np.einsum("bnd,hde->bhne", x, params[f"W_V{layer}"])  # (B, H, n, d_head)
        trace = attend(q, k, v, mask=mask, check_finite=False)  # weights (B, H, n, n)
        x = x + np.einsum("bhne,hed->bnd", trace.outputs, params[f"W_O{layer}"])  # (B, n, d)
        residuals.append(x)
        traces.append(trace)
    logits = x @ params["W_U"]  # (B, n, V)
    return Forward(t, tuple(residuals), tuple(traces), logits)


def cross_entropy(
    logits: FloatArray, targets: IntArray, weights: FloatArray
) -> tuple[float, FloatArray]:
    """The weighed mean cross-entropy of `logits` (B, n, V) against `targets` (B, n), and
    dL/dlogits: (softmax - one-hot) · w / Σ w."""
    shifted = logits - logits.max(axis=-1, keepdims=True)  # (B, n, V)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))  # (B, n, V)
    picked = np.take_along_axis(log_p, targets[..., None], axis=-1)[..., 0]  # (B, n)
    total = float(weights.sum())
    loss = -float(np.sum(picked * weights)) / total
    d_logits = np.exp(log_p)  # (B, n, V) softmax
    np.put_along_axis(
        d_logits,
        targets[..., None],
        np.take_along_axis(d_logits, targets[..., None], axis=-1) - 1,
        axis=-1,
    )
    d_logits *= (weights / total)[..., None]  # (B, n, V)
    return loss, d_logits


def loss_and_grads(
    params: Mapping[str, FloatArray],
    cfg: ModelConfig,
    tokens: IntArray,
    targets: IntArray,
    weights: FloatArray,
) -> tuple[float, Params, Forward]:
    """The loss on `targets` (B, n) weighed by `weights` (B, n), dL/dθ for every parameter, and
    the forward pass they came from."""
    fwd = forward(params, cfg, tokens)
    loss, d_logits = cross_entropy(fwd.logits, np.asarray(targets), np.asarray(weights, float))
    grads: Params = {}

    # Unembedding, backwards: logits = x_L W_U.
    x_last = fwd.residuals[-1]  # (B, n, d)
    grads["W_U"] = np.einsum("bnd,bnv->dv", x_last, d_logits)  # (d, V)
    d_x = d_logits @ params["W_U"].T  # (B, n, d)

    # Each layer, last first: x_out = x + Σₕ Zʰ W_Oʰ, with Z = attend(x W_Q, x W_K, x W_V).
    for layer in reversed(range(cfg.n_layers)):
        x, trace = fwd.residuals[layer], fwd.traces[layer]  # (B, n, d), heads (B, H, n, ·)
        grads[f"W_O{layer}"] = np.einsum("bhne,bnd->hed", trace.outputs, d_x)  # (H, d_head, d)
        d_z = np.einsum("bnd,hed->bhne", d_x, params[f"W_O{layer}"])  # (B, H, n, d_head)
        g = attend_backward(trace, d_z)
        d_in = d_x.copy()  # (B, n, d) the residual passes dL/dx on unchanged
        for name, d_proj in (("W_Q", g.d_queries), ("W_K", g.d_keys), ("W_V", g.d_values)):
            w = params[f"{name}{layer}"]  # (H, d, d_head)
            grads[f"{name}{layer}"] = np.einsum("bnd,bhne->hde", x, d_proj)  # (H, d, d_head)
            d_in += np.einsum("bhne,hde->bnd", d_proj, w)  # (B, n, d)
        d_x = d_in

    # Embeddings, backwards: x₀ = W_E[t] + W_pos[:n].
    n = fwd.tokens.shape[1]
    d_embed = np.zeros_like(params["W_E"])  # (V, d)
    np.add.at(d_embed, fwd.tokens, d_x)  # each token's rows summed
    grads["W_E"] = d_embed
    d_pos = np.zeros_like(params["W_pos"])  # (n_ctx, d)
    d_pos[:n] = d_x.sum(axis=0)
    grads["W_pos"] = d_pos
    return loss, grads, fwd
