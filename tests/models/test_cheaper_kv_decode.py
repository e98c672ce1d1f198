"""Decoding SmolLM2 token by token on a key/value cache gives the whole pass's rows and logits."""

from __future__ import annotations

import pytest

from attnlab.errors import TooLongError
from attnlab.models.kv_decode import MAX_DECODE, check_cache, decode_cached, widened

TEXT = "The river bank was muddy after the rain, so we walked"


def test_cached_decoding_equals_the_whole_pass_in_float32(smollm2) -> None:  # type: ignore[no-untyped-def]
    c = check_cache(smollm2, TEXT)
    assert len(c.tokens) == 12 and c.n_layers == 30
    assert c.max_row_diff < 2e-5  # float32 rounding: the blocks and the single rows sum apart
    assert c.max_logit_diff < 1e-3
    assert c.same_next_token
    assert c.cache_numbers_per_token == 2 * 3 * 64  # 3 key/value heads of 64


def test_in_float64_the_difference_is_rounding_only(smollm2) -> None:  # type: ignore[no-untyped-def]
    c = check_cache(widened(smollm2), TEXT)
    assert c.max_row_diff < 1e-12
    assert c.max_logit_diff < 1e-10


def test_too_long(smollm2) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TooLongError, match=str(MAX_DECODE)):
        decode_cached(smollm2, (1,) * (MAX_DECODE + 1))
