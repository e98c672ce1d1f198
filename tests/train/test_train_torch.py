"""attend_backward and the model's backward against PyTorch autograd, float64, to 1e-6."""

from __future__ import annotations

import numpy as np
import pytest

from attnlab.core.attention import attend, causal_mask
from attnlab.train.grad import attend_backward
from attnlab.train.model import ModelConfig, init_params, loss_and_grads

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def test_attention_gradients_match_autograd() -> None:
    rng = np.random.default_rng(4)
    q, k, v = rng.normal(size=(3, 2, 6, 8))
    d_o = rng.normal(size=(2, 6, 8))
    mask = causal_mask(6)
    tq, tk, tv = (torch.tensor(a, requires_grad=True) for a in (q, k, v))
    tau = torch.tensor(1.7, dtype=torch.float64, requires_grad=True)
    s = (tq @ tk.transpose(-1, -2)) / tau
    s = s.masked_fill(~torch.tensor(mask), float("-inf"))
    (torch.softmax(s, -1) @ tv * torch.tensor(d_o)).sum().backward()
    g = attend_backward(attend(q, k, v, mask=mask, temperature=1.7), d_o)
    for ours, theirs in ((g.d_queries, tq), (g.d_keys, tk), (g.d_values, tv)):
        assert np.abs(ours - theirs.grad.numpy()).max() < 1e-6
    assert abs(g.d_divisor - tau.grad.item()) < 1e-6


def test_model_gradients_match_autograd() -> None:
    cfg = ModelConfig(vocab=7, n_ctx=6, d_model=8, n_layers=2, n_heads=2, d_head=4)
    rng = np.random.default_rng(5)
    params = init_params(cfg, rng)
    tokens, targets = rng.integers(0, 7, (2, 3, 6))
    weights = rng.uniform(0, 1, (3, 6))
    loss, grads, _ = loss_and_grads(params, cfg, tokens, targets, weights)

    t = {name: torch.tensor(p, requires_grad=True) for name, p in params.items()}
    tt = torch.tensor(tokens)
    x = t["W_E"][tt] + t["W_pos"][:6]
    allowed = torch.tensor(causal_mask(6))
    for layer in range(2):
        q, k, v = (
            torch.einsum("bnd,hde->bhne", x, t[f"{w}{layer}"]) for w in ("W_Q", "W_K", "W_V")
        )
        z = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
        x = x + torch.einsum("bhne,hed->bnd", z, t[f"W_O{layer}"])
    logits = x @ t["W_U"]
    ce = torch.nn.functional.cross_entropy(
        logits.reshape(-1, 7), torch.tensor(targets).reshape(-1), reduction="none"
    )
    w = torch.tensor(weights).reshape(-1)
    their_loss = (ce * w).sum() / w.sum()
    their_loss.backward()
    assert abs(loss - their_loss.item()) < 1e-9
    for name, g in grads.items():
        assert np.abs(g - t[name].grad.numpy()).max() < 1e-6, name
