"""The attention-only transformer's backward against central finite differences (float64),
every entry of every parameter, for one and two layers; and the optimisers' steps."""

from __future__ import annotations

import numpy as np
import pytest

from attnlab.errors import ShapeError
from attnlab.train.model import ModelConfig, Params, forward, init_params, loss_and_grads
from attnlab.train.optim import SGD, Adam, OptimiserError, global_norm

H = 1e-6


def setup(layers: int) -> tuple[ModelConfig, Params, np.ndarray, np.ndarray, np.ndarray]:
    cfg = ModelConfig(vocab=5, n_ctx=4, d_model=6, n_layers=layers, n_heads=2, d_head=3)
    rng = np.random.default_rng(layers)
    params = init_params(cfg, rng)
    tokens = rng.integers(0, 5, (2, 4))
    targets = rng.integers(0, 5, (2, 4))
    weights = np.array([[0, 1, 1, 1], [0, 0, 1, 1.0]])
    return cfg, params, tokens, targets, weights


@pytest.mark.parametrize("layers", [1, 2])
def test_every_parameter_matches_finite_differences(layers: int) -> None:
    cfg, params, tokens, targets, weights = setup(layers)
    _, grads, _ = loss_and_grads(params, cfg, tokens, targets, weights)
    assert set(grads) == set(params)
    for name, p in params.items():
        numeric = np.zeros_like(p)
        for i in np.ndindex(p.shape):
            up, down = dict(params), dict(params)
            up[name], down[name] = p.copy(), p.copy()
            up[name][i] += H
            down[name][i] -= H
            numeric[i] = (
                loss_and_grads(up, cfg, tokens, targets, weights)[0]
                - loss_and_grads(down, cfg, tokens, targets, weights)[0]
            ) / (2 * H)
        scale = max(1.0, float(np.abs(numeric).max()))
        assert np.abs(grads[name] - numeric).max() <= 1e-6 * scale, name


def test_positions_past_n_get_no_gradient_and_the_mask_is_causal() -> None:
    cfg, params, tokens, targets, weights = setup(2)
    _, grads, fwd = loss_and_grads(params, cfg, tokens[:, :3], targets[:, :3], weights[:, :3])
    assert not grads["W_pos"][3].any() and grads["W_pos"][:3].any()
    assert not np.triu(fwd.traces[0].weights[0, 0], 1).any()


def test_a_sequence_longer_than_the_context_is_named() -> None:
    cfg, params, *_ = setup(1)
    with pytest.raises(ShapeError, match=r"n ≤ 4, got \(1, 5\)"):
        forward(params, cfg, np.zeros((1, 5), dtype=int))


def test_sgd_with_momentum_and_adam_take_the_textbook_steps() -> None:
    p = {"w": np.array([1.0, -2.0])}
    g = {"w": np.array([0.5, 0.5])}
    sgd = SGD(lr=0.1, momentum=0.9)
    p1, s1 = sgd.step(p, g, sgd.init(p))
    p2, _ = sgd.step(p1, g, s1)
    assert np.allclose(p2["w"], p["w"] - 0.1 * 0.5 - 0.1 * (0.9 * 0.5 + 0.5))
    adam = Adam(lr=0.01)
    q1, _ = adam.step(p, g, adam.init(p))
    assert np.allclose(q1["w"], p["w"] - 0.01)  # the first bias-corrected step is η·sign(g)
    assert global_norm(g) == pytest.approx(np.sqrt(0.5))


def test_adam_lowers_the_loss_of_the_model() -> None:
    cfg, params, tokens, targets, weights = setup(2)
    adam = Adam(lr=0.05)
    state = adam.init(params)
    first = loss_and_grads(params, cfg, tokens, targets, weights)[0]
    for _ in range(30):
        loss, grads, _ = loss_and_grads(params, cfg, tokens, targets, weights)
        params, state = adam.step(params, grads, state)
    assert loss < 0.5 * first


def test_bad_optimiser_settings_are_named() -> None:
    with pytest.raises(OptimiserError, match="learning rate"):
        Adam(lr=0.0)
    with pytest.raises(OptimiserError, match="momentum"):
        SGD(lr=0.1, momentum=1.0)
