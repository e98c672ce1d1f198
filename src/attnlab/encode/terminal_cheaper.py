"""The terminal view of `attnlab cheaper`: the toy's four cards, real heads, caches, a KV check.

Each renderer reads the dataclasses (lesson/cheaper_lab.py, models/cheaper_heads.py,
models/kv_decode.py), never their JSON; the sentences are words/cheaper_words.py's, the tables
terminal.py's `table`.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from attnlab.core.kv_heads import CacheForm
from attnlab.encode.terminal import WIDTH, table
from attnlab.lesson.cheaper_lab import CheaperLab
from attnlab.models.cheaper_heads import HeadsCheck
from attnlab.models.kv_decode import CacheCheck
from attnlab.models.sliding_windows import Loss
from attnlab.words.cheaper_words import (
    EXACT_BELOW,
    LINEAR_AXIS,
    NO_TILED_AXIS,
    WINDOWS_AXIS,
    approximate_badge,
    delta,
    exact_badge,
    forms_text,
    kept_text,
    online_end_text,
    sharpen_text,
    tile_text,
    windows_badge,
)
from attnlab.words.grammar import token_names
from attnlab.words.numfmt import num
from attnlab.words.window_words import TABLE_HEADER, ppl, table_note

__all__ = ["cache_text", "heads_text", "kv_text", "toy_text", "windows_rows", "windows_text"]


def _wrap(text: str) -> list[str]:
    return textwrap.wrap(text, WIDTH) or [""]


def _section(title: str, lines: Sequence[str]) -> list[str]:
    return [title, "─" * len(title), *lines, ""]


def toy_text(c: CheaperLab) -> str:
    """The four cards of the lab's Cheaper attention section, for the toy's focus row."""
    o = c.online
    online = [NO_TILED_AXIS if c.online_note == "axis" else exact_badge(c.online_diff)]
    for i, s in enumerate(o.steps):
        online += _wrap(tile_text(s, c.tokens, i + 1))
    online += _wrap(online_end_text(o.outputs[0].tolist(), float(o.ell[0]), c.online_diff,
                                    note=c.online_note))  # fmt: skip
    heads = [f"MQA: {exact_badge(c.mqa_diff)}",
             f"MLA: {exact_badge(max(c.mla_score_diff, c.mla_output_diff))}",
             *_wrap(forms_text(c.forms))]  # fmt: skip
    names = token_names(c.tokens)
    full, win = c.kept[0], next(k for k in c.kept if k.scheme == "window")
    windows = [*_wrap(windows_badge(len(win.kept), len(full.kept), win.dropped_mass,
                                    c.tokens[c.focus])),
               *(_wrap(WINDOWS_AXIS) if c.online_note == "axis" else [])]  # fmt: skip
    windows += [line for k in c.kept for line in _wrap(kept_text(
        k.scheme, k.window, k.sinks, [names[j] for j in k.kept], k.dropped_mass))]  # fmt: skip
    lin, axis = c.linear, c.linear_note == "axis"
    rows = [[t, num(float(e)), num(float(w))]
            for t, e, w in zip(c.tokens, c.linear_exact, c.linear_focus, strict=True)]  # fmt: skip
    linear = [*_wrap(approximate_badge(lin.mean_abs, lin.top1_kept, rows=len(c.tokens),
                                       token=c.tokens[c.focus], focus_mean=c.linear_focus_mean,
                                       tied=c.linear_top1_tied, over_keys=axis)),
              *(_wrap(LINEAR_AXIS) if axis else []),
              *table(["key", "softmax over keys" if axis else "softmax", "linear"], rows),
              *_wrap(sharpen_text(c.sharpen, c.sharpen_softmax.tolist(),
                                  c.sharpen_linear.tolist(), keys=c.sharpen_keys,
                                  uniform=c.uniform))]  # fmt: skip
    out = [
        *_section(f"FlashAttention's online softmax, tiles of {c.tile}", online),
        *_section("Fewer keys and values to cache", heads),
        *_section("Sliding windows and attention sinks (causal)", windows),
        *_section("Linear attention (φ = elu + 1)", linear),
    ]
    return "\n".join(out)


def heads_text(checks: Sequence[HeadsCheck]) -> str:
    """Every head of a real model through the tiles and through linear attention."""
    rows = [[h.model, str(h.n_tokens), str(h.n_heads_checked), h.dtype, delta(h.online_max_abs),
             delta(h.linear_mean_abs), delta(h.linear_worst_mean_abs),
             f"{round(100 * h.linear_top1_kept)} %", num(h.entropy_exact), num(h.entropy_linear)]
            for h in checks]  # fmt: skip
    head = ["model", "tokens", "heads", "dtype", "tiled max|Δ|", "linear mean|Δ|", "worst head",
            "top-1 kept", "H exact", "H linear"]  # fmt: skip
    note = ("tiled: FlashAttention's online softmax against attend, every head (exact up to the "
            "dtype's rounding); linear: elu + 1 against the softmax rows (an approximation); "
            "H: mean entropy per row in bits.")  # fmt: skip
    return "\n".join([*table(head, rows), *_wrap(note)]) + "\n"


def cache_text(
    models: Sequence[tuple[str, int, tuple[CacheForm, ...]]], notes: Sequence[str] = ()
) -> str:
    """Each model's cache per token per layer (and over its layers) in each form, and notes."""
    rows = []
    for name, layers, forms in models:
        for f in forms:
            ratio = f.ratio(forms[0])
            total = f"{f.bytes * layers / 1024:,.1f} KiB"
            rows.append([name, f.name, f"{f.numbers:,}", f"{f.bytes:,} B", total,
                         f"{num(ratio, places=1)}×"])  # fmt: skip
    head = ["model", "form", "numbers/token/layer", "bytes", "all layers", "smaller than MHA"]
    return "\n".join([*table(head, rows), *(line for n in notes for line in _wrap(n))]) + "\n"


def kv_text(c: CacheCheck, c64: CacheCheck | None = None) -> str:
    """Decoding on a cache against the whole pass."""
    lines = [
        f"{len(c.tokens)} tokens, {c.n_layers} layers: decoding one token at a time on a key/value "
        f"cache ({c.cache_numbers_per_token} numbers per token per layer) against the whole text",
        f"float32: attention rows max |Δ| = {delta(c.max_row_diff)}, logits max |Δ| = "
        f"{delta(c.max_logit_diff)}, the same next token everywhere: "
        + ("yes" if c.same_next_token else "no"),
    ]  # fmt: skip
    if c64 is not None:
        same = c64.max_row_diff < EXACT_BELOW and c64.max_logit_diff < 1e3 * EXACT_BELOW
        lines.append(
            f"float64: rows {delta(c64.max_row_diff)}, logits {delta(c64.max_logit_diff)}: "
            + ("the same arithmetic, float32's rounding apart" if same else "NOT the same")
        )
    return "\n".join(line for ln in lines for line in _wrap(ln)) + "\n"


def windows_rows(rows: Sequence[Loss]) -> list[list[str]]:
    """`window_table`'s rows as the table's (and the CSV's) cells."""
    return [[r.scheme.name, "" if r.scheme.window is None else str(r.scheme.window),
             str(r.scheme.sinks), f"{r.nll:.4f}", ppl(r.perplexity), str(r.scored),
             num(r.kept_keys, places=1)] for r in rows]  # fmt: skip


def windows_text(rows: Sequence[Loss], *, model: str, source: str) -> str:
    """The sliding-window table: each scheme's next-token loss on one text."""
    note = table_note(model, rows[0].n_tokens, source) if rows else ""
    return "\n".join([*table(list(TABLE_HEADER), windows_rows(rows)), *_wrap(note)]) + "\n"
