"""GQA, MQA and MLA: the compact form equals the expanded one; the cache sizes per token."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attnlab.core.kv_heads import (
    DEEPSEEK_V2,
    LatentKV,
    cache_forms,
    expanded_outputs,
    grouped_outputs,
    latent_factors,
    mla_outputs,
    mla_scores,
    pool_kv,
)
from attnlab.errors import ShapeError
from attnlab.lesson import toy
from attnlab.lesson.explain import explain_lesson


@settings(max_examples=50, deadline=None)
@given(st.sampled_from([(9, 3), (9, 1), (4, 2), (6, 6), (8, 1)]), st.integers(1, 9),
       st.integers(0, 10_000))  # fmt: skip
def test_grouped_equals_expanded(heads: tuple[int, int], n: int, seed: int) -> None:
    h, h_kv = heads
    rng = np.random.default_rng(seed)
    q, k, v = (
        rng.normal(size=(h, n, 8)),
        rng.normal(size=(h_kv, n, 8)),
        rng.normal(size=(h_kv, n, 5)),
    )
    np.testing.assert_allclose(grouped_outputs(q, k, v), expanded_outputs(q, k, v), atol=1e-12)
    # and they are what each head computes alone with its key/value head i // g
    g = h // h_kv
    from attnlab.core.attention import attend

    for i in range(h):
        alone = attend(q[i], k[i // g], v[i // g]).outputs
        np.testing.assert_allclose(grouped_outputs(q, k, v)[i], alone, atol=1e-12)


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 8), st.integers(2, 8), st.integers(1, 6), st.integers(0, 10_000))
def test_mla_absorbed_equals_expanded(n: int, d: int, d_c: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    lat = LatentKV(rng.normal(size=(d, d_c)), rng.normal(size=(d_c, 4)), rng.normal(size=(d_c, 3)))
    x, w_q = rng.normal(size=(n, d)), rng.normal(size=(d, 4))
    expanded, absorbed, c = mla_scores(x, w_q, lat)
    assert c.shape == (n, d_c)  # the cache: d_c numbers per token
    np.testing.assert_allclose(absorbed, expanded, atol=1e-10 * max(1, np.abs(expanded).max()))
    w = rng.random((n, n))
    a, b = mla_outputs(w / w.sum(-1, keepdims=True), lat, c)
    np.testing.assert_allclose(a, b, atol=1e-12 * max(1, np.abs(a).max()))


def test_the_toy_head_through_a_latent_of_three_gives_the_lessons_scores() -> None:
    t = explain_lesson("by the river bank", focus="bank").trace
    lat = latent_factors(toy.W_K, toy.W_V)
    assert lat.d_c == 3  # ambiguity is neither shown (W_K) nor handed over (W_V)
    np.testing.assert_allclose(lat.w_dkv @ lat.w_uk, toy.W_K, atol=1e-14)
    expanded, absorbed, c = mla_scores(t.embeddings, toy.W_Q, lat)
    np.testing.assert_allclose(absorbed[3], [0.92, 0, 4.6, 1.38], atol=1e-12)
    np.testing.assert_allclose(expanded, t.raw_scores, atol=1e-12)
    out, _ = mla_outputs(t.weights, lat, c)
    np.testing.assert_allclose(out, t.outputs, atol=1e-12)


def test_pooling_heads_into_one_group_is_their_mean() -> None:
    k = np.arange(24.0).reshape(4, 3, 2)
    np.testing.assert_array_equal(pool_kv(k, 1)[0], k.mean(axis=0))
    np.testing.assert_array_equal(pool_kv(k, 2)[1], (k[2] + k[3]) / 2)
    with pytest.raises(ShapeError, match="divide"):
        pool_kv(k, 3)


def test_cache_sizes_per_token_per_layer() -> None:
    smol = {f.name: f for f in cache_forms(n_heads=9, d_k=64, n_kv_heads=3)}
    assert (smol["MHA"].numbers, smol["GQA"].numbers, smol["MQA"].numbers) == (1152, 384, 128)
    assert smol["GQA"].bytes == 768 and smol["GQA"].ratio(smol["MHA"]) == 3
    ds = {f.name: f for f in cache_forms(n_heads=128, d_k=128, d_c=512, d_rope=64)}
    assert ds["MHA"].numbers == 2 * 128 * 128 and ds["MLA"].numbers == 512 + 64
    assert DEEPSEEK_V2["d_c"] == 512
