"""The lazy ModelTrace: heads, rows and matrices recomputed from q, k, v, and the GQA map.

No grouped-query checkpoint is installed yet, so the GQA cases build a trace from random
arrays shaped like SmolLM2's attention (9 query heads over 3 key/value heads, causal).
"""

from dataclasses import replace

import numpy as np
import pytest

from attnlab.core.attention import attend, causal_mask
from attnlab.core.attention_maps import AttentionMaps
from attnlab.core.diagnostics import HeadStats, head_stats
from attnlab.errors import FocusError, ShapeError, UnknownHeadError
from attnlab.models import LayerKeep, ModelTrace, attend_layer

H, H_KV, N, D = 9, 3, 7, 16
TOKENS = tuple(f"t{i}" for i in range(N))


def gqa_trace(layers: int = 2, seed: int = 0) -> tuple[ModelTrace, list[tuple[np.ndarray, ...]]]:
    """A causal GQA trace built the way a decoder's pass builds it, and the q, k, v it used."""
    rng = np.random.default_rng(seed)
    qkv = [
        (rng.normal(size=(H, N, D)), rng.normal(size=(H_KV, N, D)), rng.normal(size=(H_KV, N, D)))
        for _ in range(layers)
    ]  # (h, n, d), (h_kv, n, d), (h_kv, n, d) per layer
    kept, stats = [], []
    for q, k, v in qkv:
        _, keep, s = attend_layer(q, k, v, tokens=TOKENS, mask="causal")
        kept.append(keep)
        stats.append(s)
    hidden = rng.normal(size=(layers + 1, N, 12))  # (L + 1, n, d_model)
    mt = ModelTrace("gqa", TOKENS, tuple(range(N)), hidden, tuple(kept), HeadStats.stack(stats))
    return mt, qkv


def repeated(q: np.ndarray, k: np.ndarray, v: np.ndarray):  # type: ignore[no-untyped-def]
    """The reference: K and V repeated per query head (transformers' repeat_kv), then attend."""
    g = H // H_KV
    return attend(q, np.repeat(k, g, axis=0), np.repeat(v, g, axis=0), mask=causal_mask(N))


def test_the_map_sends_each_query_head_to_its_group() -> None:
    mt, _ = gqa_trace()
    assert (mt.n_heads, mt.n_kv_heads, mt.causal) == (9, 3, True)
    assert [mt.kv_head(h) for h in range(9)] == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert mt.layers[0].keys.shape == (3, N, D)  # kept once per kv head, not per query head


def test_a_gqa_head_is_attend_on_repeated_keys_and_values() -> None:
    mt, qkv = gqa_trace()
    for layer, (q, k, v) in enumerate(qkv):
        ref = repeated(q, k, v)  # (h, n, n) weights, (h, n, d) outputs
        for h in range(H):
            t = mt.head(layer, h)
            assert np.array_equal(t.keys, k[h // 3]) and np.array_equal(t.values, v[h // 3])
            assert np.allclose(t.weights, ref.weights[h], atol=1e-12)
            assert np.allclose(t.outputs, ref.outputs[h], atol=1e-12)
            assert t.mask is not None and not t.mask[0, 1]  # causal: token 0 cannot see 1
            assert t.embeddings is not None and np.array_equal(
                t.embeddings, mt.hidden_states[layer]
            )
        assert np.allclose(mt.attentions[layer], ref.weights, atol=1e-12)


def test_cutting_keys_by_query_head_would_be_wrong() -> None:
    """The bug the map prevents: keys[h] for h = 4 reads past the 3 kv heads or the wrong one."""
    mt, qkv = gqa_trace()
    q, k, v = qkv[0]
    wrong = attend(q[1], k[1], v[1], mask=causal_mask(N)).weights  # keys[h], not keys[h // 3]
    assert not np.allclose(mt.head(0, 1).weights, wrong)


def test_the_layer_outputs_equal_the_repeated_reference() -> None:
    q, k, v = (
        np.random.default_rng(1).normal(size=s) for s in ((H, N, D), (H_KV, N, D), (H_KV, N, D))
    )
    z, _, stats = attend_layer(q, k, v, tokens=TOKENS, mask="causal")
    ref = repeated(q, k, v)
    assert np.allclose(z, ref.outputs, atol=1e-12) and stats.shape == (H,)
    assert np.allclose(stats.entropy_bits, head_stats(ref.weights).entropy_bits)


def test_rows_are_the_focus_row_of_every_matrix() -> None:
    mt, _ = gqa_trace()
    for focus in (0, 3, N - 1):
        rows = mt.rows(focus)  # (L, H, n)
        assert rows.shape == (2, H, N)
        assert np.allclose(rows, mt.attentions[:, :, focus, :], atol=1e-12)
    assert (mt.rows(2)[:, :, 3:] == 0).all()  # causal: token 2 sees 0..2 only
    with pytest.raises(FocusError, match=r"focus index 7 is outside 0\.\.6"):
        mt.rows(7)


def test_a_focus_rows_are_computed_once_and_kept_for_the_next_reader() -> None:
    # the heads grid and the decoder panel both read the focus rows of one head switch
    mt, _ = gqa_trace()
    first = mt.rows(4)
    assert mt.rows(4) is first
    for focus in range(N):  # more focuses than are kept: the oldest leave, the answers stay
        assert np.allclose(mt.rows(focus), mt.attentions[:, :, focus, :], atol=1e-12)
    assert np.array_equal(mt.rows(4), first)


def test_a_causal_layer_masks_only_the_rows_asked() -> None:
    keep = gqa_trace()[0].layers[0]
    for rows in (slice(0, 1), slice(3, 4), slice(2, 6), slice(None), slice(1, None, 2)):
        part = keep.allowed(rows)
        assert part is not None
        assert np.array_equal(part, causal_mask(N)[rows])
    assert np.array_equal(causal_mask(4), np.tril(np.ones((4, 4), dtype=bool)))


def test_the_stats_of_the_pass_are_the_stats_of_the_recomputed_weights() -> None:
    mt, _ = gqa_trace()
    again = head_stats(mt.attentions)
    assert mt.stats.shape == (2, H)
    for name in ("entropy_bits", "first", "previous", "itself", "top1"):
        assert np.allclose(getattr(mt.stats, name), getattr(again, name), atol=1e-12), name


def test_maps_gives_the_weights_only_type() -> None:
    mt, _ = gqa_trace()
    maps = mt.maps()
    assert isinstance(maps, AttentionMaps) and maps.source == "gqa"
    assert np.array_equal(maps.weights, mt.attentions) and maps.key_tokens == TOKENS
    assert np.allclose(maps.stats.top1, mt.stats.top1)


def test_uneven_groups_and_heads_outside_are_named() -> None:
    rng = np.random.default_rng(2)
    with pytest.raises(ShapeError, match="9 query heads cannot share 2"):
        LayerKeep(
            rng.normal(size=(9, 4, 8)), rng.normal(size=(2, 4, 8)), rng.normal(size=(2, 4, 8))
        )
    mt, _ = gqa_trace()
    with pytest.raises(UnknownHeadError, match=r"head 9 is outside 0\.\.8"):
        mt.head(0, 9)


def test_kept_arrays_are_private_and_read_only() -> None:
    q = np.ones((2, 3, 4))
    keep = LayerKeep(q, q[:1], q[:1])
    q[0, 0, 0] = 5.0
    assert keep.queries[0, 0, 0] == 1.0
    with pytest.raises(ValueError, match="read-only"):
        keep.keys[0, 0, 0] = 2.0


def test_the_default_focus_skips_the_models_own_special_tokens() -> None:
    mt, _ = gqa_trace()
    assert mt.focus_index() == N - 1
    assert replace(mt, special=("t6", "t5")).focus_index() == 4


@pytest.mark.parametrize(
    ("text", "word"), [("It works ✅", " works"), ("Done ✅", "Done"), ("Done ✅ now", " now")]
)
def test_the_default_focus_is_a_word_not_an_emojis_escaped_byte(smollm2, text, word) -> None:  # type: ignore[no-untyped-def]
    """SmolLM2's byte-level pieces of ✅ read ' \\xe2', '\\x9c', '\\x85': the letters of an
    escape are not a word, and the default focus followed '\\x85' after "It works ✅"."""
    mt = smollm2.trace(text)
    assert mt.tokens[mt.focus_index()] == word, mt.tokens


@pytest.mark.parametrize(("text", "word"), [("It works ✅", "works"), ("Done ✅", "done")])
def test_minilms_default_focus_skips_an_emojis_unknown_token(minilm, text, word) -> None:  # type: ignore[no-untyped-def]
    mt = minilm.trace(text)
    assert "[UNK]" in mt.tokens and mt.tokens[mt.focus_index()] == word


def test_the_default_focus_of_escaped_bytes_alone_is_the_last_token() -> None:
    mt, _ = gqa_trace()
    tokens = ("\\xe2", "\\x9c", "\\x85", "!", "\\xe6", "\\x97", "\\xa5", "t7")[:N]
    assert replace(mt, tokens=tokens).focus_index() == N - 1  # no word at all: the last piece
    assert replace(mt, tokens=(*TOKENS[:3], *tokens[3:])).focus_index() == 2  # t2


def test_repr_is_a_short_summary_not_the_arrays(minilm) -> None:
    """`repr(model.trace(...))` printed the hidden states (260,468 characters at 100 words)."""
    from attnlab.lesson.explain import explain_lesson
    from attnlab.models.heads import explain_head

    mt = minilm.trace(" ".join(["the river bank"] * 33))
    text = repr(mt)
    assert len(text) < 300, len(text)
    assert text.startswith("ModelTrace('minilm': 101 tokens '[CLS] the river bank the river")
    assert "6 layers × 12 heads" in text and "d_k 32" in text
    assert "hidden states (7, 101, 384)" in text
    for big in (mt.head(2, 5), explain_head(mt, layer=2, head=5), explain_lesson()):
        assert len(repr(big)) < 400, (type(big).__name__, len(repr(big)))
    assert repr(mt.head(0, 0)).startswith("Trace(101 queries × 101 keys, d_k 32")
    assert repr(explain_lesson()).startswith("LessonExplanation(focus 3 'bank', 6 beats, Trace(")


def test_a_word_made_of_pieces_can_be_followed(minilm) -> None:
    mt = minilm.trace("by the riverbank")
    assert mt.tokens[3:5] == ("river", "##bank")
    assert mt.focus_index("riverbank") == 4  # its last piece, as pieces.py says


def test_what_a_query_head_reads_is_its_row_of_expanded_without_a_copy() -> None:
    # the GQA line read every head's keys and values (expanded(), three copies per head switch)
    # to show the focus's first numbers of three heads
    mt, _ = gqa_trace()
    keep = mt.layers[1]
    keys, values = keep.expanded()  # (h, n, d)
    for h in range(H):
        k, v = keep.read_by(h)
        assert np.array_equal(k, keys[h]) and np.array_equal(v, values[h])
        assert np.shares_memory(k, keep.keys) and np.shares_memory(v, keep.values)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_head_nbytes_is_what_recomputing_a_head_allocates(dtype) -> None:
    """The server touches this much memory per kept head (web/model_routes.py): it must be the
    head's size, not a guess that leaves the first heads on fresh pages."""
    import tracemalloc

    n, rng = 600, np.random.default_rng(1)
    q, k, v = (rng.normal(size=(h, n, D)).astype(dtype) for h in (H, H_KV, H_KV))
    tokens = tuple(f"t{i}" for i in range(n))
    _, keep, s = attend_layer(q, k, v, tokens=tokens, mask="causal")
    hidden = np.zeros((2, n, 12))
    mt = ModelTrace("gqa", tokens, tuple(range(n)), hidden, (keep,), HeadStats.stack([s]))
    tracemalloc.start()
    try:
        head = mt.head(0, 4)
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert head.weights.dtype == dtype
    assert mt.head_nbytes == pytest.approx(kept, rel=0.05)
    assert mt.head_nbytes == pytest.approx(peak, rel=0.05)


def test_the_default_focus_is_the_last_word_not_punctuation_nor_a_special_token() -> None:
    """The one rule for the token followed when none is asked (the page has none of its own)."""
    from attnlab.models.model_trace import last_word

    special = ("[CLS]", "[SEP]")
    assert last_word(("[CLS]", "by", "the", "river", "bank", "[SEP]"), special) == 4
    assert last_word(("[CLS]", "go", "by", ".", "[SEP]"), special) == 2
    assert last_word(("[CLS]", "bank", "##s", "?", "[SEP]"), special) == 2
    assert last_word(("It", " works", " \\xe2", "\\x9c", "\\x85")) == 1
    assert last_word(("[CLS]", "!", "[SEP]"), special) == 1  # no word: the last plain token
