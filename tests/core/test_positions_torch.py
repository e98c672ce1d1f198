"""RoPE's "half" pairing against transformers' Llama rotary embedding (skips without torch)."""

import numpy as np
import pytest

from attnlab.core.positions import rope_angles, rotate

torch = pytest.importorskip("torch")
llama = pytest.importorskip("transformers.models.llama.modeling_llama")
transformers = pytest.importorskip("transformers")


@pytest.mark.torch
@pytest.mark.parametrize(("n", "d", "base"), [(5, 8, 10000.0), (40, 64, 100000.0)])
def test_half_matches_apply_rotary_pos_emb(n: int, d: int, base: float) -> None:
    config = transformers.LlamaConfig(
        hidden_size=3 * d, num_attention_heads=3, num_key_value_heads=1, head_dim=d,
        max_position_embeddings=128, rope_parameters={"rope_type": "default", "rope_theta": base},
    )  # fmt: skip
    rng = np.random.default_rng(n)
    q, k = rng.normal(size=(3, n, d)), rng.normal(size=(1, n, d))  # (h, n, d), (h_kv, n, d)
    rotary = llama.LlamaRotaryEmbedding(config)
    tq, tk = torch.tensor(q[None]), torch.tensor(k[None])  # (1, h, n, d) float64
    cos, sin = rotary(tq, torch.arange(n)[None])
    q_ref, k_ref = llama.apply_rotary_pos_emb(tq, tk, cos, sin)
    angles = rope_angles(n, d, base=base)  # (n, d/2)
    # transformers computes its angles in float32: 1e-5 is float32's reach at position 40
    assert np.abs(rotate(q, angles, pairing="half") - q_ref[0].numpy()).max() < 1e-5
    assert np.abs(rotate(k, angles, pairing="half") - k_ref[0].numpy()).max() < 1e-5
    assert np.abs(rotate(q, angles) - q_ref[0].numpy()).max() > 1e-2  # interleaved differs
