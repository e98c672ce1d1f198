"""Every real head through FlashAttention's tiles (= attend) and through linear attention."""

from __future__ import annotations

from attnlab.models.cheaper_heads import cache_of, check_heads

TEXT = "The river bank was muddy after the rain, so we walked home."


def test_minilm_and_smollm2_heads(minilm, smollm2) -> None:  # type: ignore[no-untyped-def]
    for model, heads in ((minilm, 72), (smollm2, 270)):
        c = check_heads(model.trace(TEXT), tile=5)
        assert c.n_heads_checked == heads and c.dtype == "float32"
        assert c.online_max_abs < 2e-6  # float32 rounding, every head
        assert 0.01 < c.linear_mean_abs < c.linear_worst_mean_abs < 0.5
        assert c.linear_top1_kept < 0.9 and c.entropy_linear > c.entropy_exact
    assert [f.numbers for f in cache_of(smollm2.summary)] == [1152, 384, 128]
