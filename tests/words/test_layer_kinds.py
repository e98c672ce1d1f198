"""The words for local and global layers and for key/value heads shared, with their numbers."""

from attnlab.models.summary import ModelSummary
from attnlab.words.layer_kinds import kv_note, layer_labels, window_note

GEMMA = ModelSummary(
    name="g", architecture="gemma3_text", n_layers=18, n_heads=4, n_kv_heads=1, d_model=640,
    d_k=256, max_tokens=2048, causal=True, windows=((512,) * 5 + (None,)) * 3,
)  # fmt: skip


def test_only_models_whose_layers_differ_name_them() -> None:
    assert layer_labels([None, None]) == []
    names = layer_labels(GEMMA.windows)
    assert names[0] == "layer 0 · local: the last 512 keys"
    assert names[5] == "layer 5 · global: every earlier key" and len(names) == 18


def test_the_kv_cache_counts_a_key_and_a_value_per_kept_token() -> None:
    per_token = 2 * 256 * 4  # a key and a value of d_k float32 numbers, one K/V head
    assert GEMMA.kv_cache_bytes(100, windowed=False) == 18 * 100 * per_token
    assert GEMMA.kv_cache_bytes(100, kv_heads=4, windowed=False) == 4 * 18 * 100 * per_token
    # past the window the 15 local layers keep 512 tokens, the 3 global ones all 2,048
    assert GEMMA.kv_cache_bytes(2048) == (15 * 512 + 3 * 2048) * per_token
    assert GEMMA.kv_cache_bytes(100) == GEMMA.kv_cache_bytes(100, windowed=False)


def test_the_kv_note_says_the_sharing_and_the_window() -> None:
    s = kv_note(n_heads=4, n_kv_heads=1, tokens=2048, full=302_000_000, shared=75_500_000,
                windowed=28_300_000)  # fmt: skip
    assert s.startswith("1 key/value head for 4 query heads")
    assert "75.5 MB instead of 302 MB" in s and s.endswith("28.3 MB in all.")
    gqa = kv_note(n_heads=9, n_kv_heads=3, tokens=10, full=9, shared=3, windowed=None)
    assert gqa.startswith("3 key/value heads for 9 query heads: each is read by 3 query heads")
    assert "window" not in gqa


def test_a_window_note_says_whether_the_text_outgrows_it() -> None:
    assert "all fit in it" in window_note(0, 512, 12)
    long = window_note(6, 512, 2048)
    assert "Layer 6 is local" in long and "511 keys before it" in long
    assert "from position 512 on" in long
