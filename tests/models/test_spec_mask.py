"""models/spec.py: the mask spec's windows, sinks and layer pattern; the spec's refusals."""

from __future__ import annotations

import numpy as np
import pytest

from attnlab.errors import SpecError
from attnlab.models.spec import DecoderSpec, MaskSpec, RopeScaling, RopeSpec

SIZES = dict(n_layers=6, d_model=8, n_heads=4, n_kv_heads=1, head_dim=2, d_ff=16,
             vocab_size=10, max_positions=32)  # fmt: skip


def test_causal_mask_is_the_lower_triangle() -> None:
    ok = MaskSpec().allowed(0, 4)
    assert ok is not None
    assert (ok == np.tri(4, dtype=bool)).all()


def test_no_mask_at_all_for_an_encoder() -> None:
    assert MaskSpec(causal=False).allowed(0, 5) is None


def test_a_window_of_w_keeps_itself_and_the_w_minus_1_before() -> None:
    ok = MaskSpec(window=2).allowed(0, 4)
    assert ok is not None
    expected = [[1, 0, 0, 0], [1, 1, 0, 0], [0, 1, 1, 0], [0, 0, 1, 1]]
    assert (ok == np.array(expected, bool)).all()


def test_sinks_keep_the_first_keys_whatever_the_window() -> None:
    ok = MaskSpec(window=2, sinks=1).allowed(0, 5)
    assert ok is not None
    assert ok[:, 0].all()  # the sink, for every query
    assert list(ok[4]) == [True, False, False, True, True]


def test_rows_give_the_same_rows_as_the_whole_mask() -> None:
    spec = MaskSpec(window=3, sinks=2)
    whole, part = spec.allowed(0, 9), spec.allowed(0, 9, slice(4, 7))
    assert whole is not None and part is not None
    assert (part == whole[4:7]).all()


def test_local_and_global_layers_follow_the_pattern() -> None:
    kinds = ("local",) * 5 + ("global",)
    spec = DecoderSpec("gemma3_text", **SIZES, mask=MaskSpec(window=3, layers=kinds),
                       rope_local=RopeSpec(base=10_000.0), rope=RopeSpec(base=1e6))  # fmt: skip
    assert [spec.mask.window_at(i) for i in range(6)] == [3, 3, 3, 3, 3, None]
    assert spec.rope_at(0) == RopeSpec(base=10_000.0)
    assert spec.rope_at(5) == RopeSpec(base=1e6)
    assert spec.mask.allowed(5, 6) is not None and spec.mask.allowed(5, 6)[5].all()  # type: ignore[index]


def test_learned_positions_have_no_rope() -> None:
    spec = DecoderSpec("gpt2", **SIZES, positions="learned", rope=None, norm="layernorm")
    assert spec.rope_at(0) is None


def test_the_query_scale_defaults_to_one_over_root_d_k() -> None:
    assert DecoderSpec("llama", **SIZES).scale == pytest.approx(1 / np.sqrt(2))
    assert DecoderSpec("gemma2", **SIZES, query_scale=0.25).scale == 0.25


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (dict(n_kv_heads=3), "must divide"),
        (dict(n_heads=0), "n_heads must be a positive"),
        (dict(mask=MaskSpec(window=2, layers=("local",))), "1 layers' kinds for 6"),
    ],
)
def test_a_spec_that_does_not_fit_is_refused(change: dict[str, object], words: str) -> None:
    with pytest.raises(SpecError, match=words):
        DecoderSpec("llama", **{**SIZES, **change})  # type: ignore[arg-type]


def test_an_unlisted_rope_scaling_is_refused_with_the_list() -> None:
    words = "'yarn' is not supported; supported: default, linear, llama3"
    with pytest.raises(SpecError, match=words):
        RopeScaling(kind="yarn")  # type: ignore[arg-type]


def test_local_layers_without_a_window_are_refused() -> None:
    with pytest.raises(SpecError, match="need a window"):
        MaskSpec(layers=("local", "global"))
