"""The words of the sliding-window table: its columns, the progress line, the plot's labels.

`attnlab cheaper windows` runs a decoder once per scheme (full attention, each window w, each
window with s sinks) and prints the next-token loss of each; the plot draws perplexity against
w, one line per s, with full attention as a dashed line. Numbers follow numfmt.py.
"""

from __future__ import annotations

from collections.abc import Sequence

from attnlab.words.numfmt import num

__all__ = [
    "FULL_LABEL",
    "PLOT_TITLE",
    "TABLE_HEADER",
    "X_LABEL",
    "Y_LABEL",
    "full_window_notes",
    "ppl",
    "progress_text",
    "sinks_label",
    "table_note",
    "window_cache_text",
]

TABLE_HEADER = ("scheme", "w", "s", "mean NLL (nats)", "perplexity", "tokens scored", "keys seen")
X_LABEL = "window w (keys each query sees, log scale)"
Y_LABEL = "perplexity (exp of mean next-token NLL)"
PLOT_TITLE = "Next-token perplexity with a sliding window in every layer"
FULL_LABEL = "full attention"


def sinks_label(sinks: int) -> str:
    """A line's legend: "window alone" or "4 sinks + window"."""
    if sinks == 0:
        return "window alone (s = 0)"
    return f"{sinks} sink{'s' if sinks != 1 else ''} + window (s = {sinks})"


def progress_text(index: int, count: int, scheme: str, n_tokens: int) -> str:
    """The line printed before each pass: "[3/11] window 128: 2,048 tokens …"."""
    return f"[{index + 1}/{count}] {scheme}: one pass over {n_tokens:,} tokens …"


def table_note(model: str, n_tokens: int, source: str) -> str:
    """The sentence under the table: what was run on what."""
    return (
        f"{model}, {n_tokens:,} tokens of {source}; the window (and the sinks) apply in every "
        f"layer; NLL is the mean over the {n_tokens - 1:,} next-token predictions, "
        "perplexity = e^NLL; keys seen is the mean over the queries."
    )


def ppl(x: float) -> str:
    """A perplexity as the table writes it: 19.52."""
    return num(x, places=2)


def _mib(b: int) -> str:
    return f"{b / 2**20:,.1f} MiB"


def window_cache_text(
    name: str, *, n: int, window: int, local: int, layers: int, full: int, windowed: int
) -> str:
    """What a window on some layers saves of the whole cache at n tokens."""
    saved = 1 - windowed / full
    return (
        f"{name} at {n:,} tokens: its {window:,}-key window on {local} of its {layers} layers "
        f"holds the cache to {_mib(windowed)} instead of {_mib(full)} with every layer global "
        f"({num(100 * saved, places=1)} % less; 16-bit numbers)."
    )


def full_window_notes(windows: Sequence[int], n_tokens: int) -> list[str]:
    """A line for each window that holds the whole text: it drops no key, so its row is full
    attention's (its loss the full row's, not a saving)."""
    return [
        f"window {w:,} ≥ the text's {n_tokens:,} tokens: every query keeps every key before "
        "it, so this row is full attention."
        for w in sorted(set(windows))
        if w >= n_tokens
    ]
