"""The words for a model whose layers differ in what they see (Gemma 3: a 512-key sliding window
on five layers of six) and whose query heads share key/value heads (one for all four).

    layer_label     the layer picker's option: "layer 0 · local: the last 512 keys"
    masked_legend   the head view's legend for grey cells, when some are outside the window
    window_note     the head view's sentence for a local layer: which keys are greyed and why
                    (a greyed cell's own name is page.py's "model.table.outside_window")
    head_notes      the terminal's lines under a head's title: the window, the shared K/V head
    kv_note         one K/V head for four query heads, and what the sharing and the window save
                    in KV-cache bytes, the numbers from models/summary.py's `kv_cache_bytes`
"""

from __future__ import annotations

from collections.abc import Sequence

from attnlab.words.grammar import counted

__all__ = ["head_notes", "kv_note", "layer_label", "layer_labels", "masked_legend", "window_note"]


def fmt_bytes(b: int) -> str:
    """A byte count as MB with three significant figures (cheaper_words writes the same)."""
    return f"{b / 1e6:.3g} MB"


def layer_label(layer: int, window: int | None) -> str:
    """One layer's name in the picker, with what its queries see."""
    if window is None:
        return f"layer {layer} · global: every earlier key"
    return f"layer {layer} · local: the last {window:,} keys"


def layer_labels(windows: Sequence[int | None]) -> list[str]:
    """Every layer's picker name, or [] when no layer has a window (nothing to tell apart)."""
    if all(w is None for w in windows):
        return []
    return [layer_label(i, w) for i, w in enumerate(windows)]


def window_note(layer: int, window: int, n: int) -> str:
    """What a local layer's greyed keys mean, for a text of n tokens."""
    reach = (
        f"this text's {n:,} tokens all fit in it, so only later keys are greyed"
        if n <= window
        else f"in this text of {n:,} tokens, a query from position {window:,} on cannot see the "
        "earliest keys: they are greyed like later ones, and each row still sums to 1"
    )
    return (
        f"Layer {layer} is local: each query sees only itself and the {window - 1:,} keys before "
        f"it, a sliding window of {window:,}; {reach}."
    )


def masked_legend(window: int) -> str:
    """The head view's legend for grey cells when some lie before a local layer's window."""
    return f"masked (a later key, or outside the {window:,}-key window)"


def kv_note(
    *, n_heads: int, n_kv_heads: int, tokens: int, full: int, shared: int, windowed: int | None
) -> str:
    """One sentence on what the model caches per text of `tokens` tokens: `full` bytes with a
    K/V head per query head and no window, `shared` with its own K/V heads, `windowed` with
    its local layers' window too (None: no window)."""
    heads = counted(n_kv_heads, "key/value head")
    readers = (
        "every query head of a layer reads the same keys and values"
        if n_kv_heads == 1
        else f"each is read by {n_heads // n_kv_heads} query heads"
    )
    first = (
        f"{heads} for {n_heads} query heads: {readers}, so at {tokens:,} tokens the KV cache "
        f"holds {fmt_bytes(shared)} instead of {fmt_bytes(full)} with one key/value head per "
        "query head"
    )
    if windowed is None:
        return first + "."
    return (
        first + f"; the local layers keep only their window's keys, {fmt_bytes(windowed)} in all."
    )


def head_notes(
    *, layer: int, window: int | None, n: int, n_heads: int, n_kv_heads: int
) -> list[str]:
    """What the terminal says under "model, layer L, head H" when the layer is local or its
    query heads share one key/value head (nothing for a plain layer)."""
    lines = [window_note(layer, window, n)] if window is not None else []
    if n_kv_heads == 1 and n_heads > 1:
        lines.append(
            f"Multi-query attention: 1 key/value head for the layer's {n_heads} query heads, "
            "so every head reads the same keys and values; only the queries differ."
        )
    return lines
