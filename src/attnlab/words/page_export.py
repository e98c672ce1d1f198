"""The words of the export menu, the presentation mode and a self-contained file.

Part of the page's words (page.py's PAGE_WORDS, served with /api/presets and written into every
exported HTML file), kept apart so the export feature's labels live in one place. A `{name}` is
filled by the page; page.py's TEMPLATE_VALUES says what each name stands for.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["CSV_HEADERS", "EXPORT_WORDS"]

EXPORT_WORDS: Mapping[str, str] = {
    "export.menu": "Export",
    "export.menu_label": "Export this view: pictures, numbers, a file that works offline",
    "export.png": "Picture, PNG {scale}×",
    "export.svg": "Picture, SVG (vector, real text)",
    "export.gif": "Animation of the six steps, GIF",
    "export.csv_matrix": "Weights matrix, CSV",
    "export.csv_long": "Every score and weight, CSV (long form)",
    "export.csv_note": (
        "Numbers to 9 significant digits, trailing zeros dropped (0.92, 0.685417926): every "
        "digit a float32 holds; a masked score is -inf."
    ),
    "export.csv_window": (
        "The CSVs hold the {shown} tokens the steps show, each at its place in the text, not "
        "all {n}: a row's weights over them sum to less than 1. In a terminal, attnlab export "
        "--table matrix --layer L --head H writes the head's whole matrix."
    ),
    "export.json": "The whole trace, JSON",
    "export.html": "Offline page (HTML)",
    "export.html_note_lesson": (
        "One file that works with no server: this sentence at this step, every token to follow "
        "and every normalization, with the lab's options as they are now."
    ),
    "export.html_note_model": (
        "One file that works with no server: this text following this token, every layer and "
        "head, opening on this head and step (scaled scores over keys; texts of up to 32 "
        "tokens)."
    ),
    "export.html_too_long": (
        "Not for this text: it has {n} tokens, and the offline page holds texts of up to "
        "{limit}. Shorten the text to export it."
    ),
    "export.saved": "Saved {file}.",
    "export.working": "Drawing {file}…",
    "export.failed": "Could not export: {error}",
    "present.enter": "Present",
    "present.exit": "Leave presentation",
    "present.label": "Presentation controls",
    "present.speed": "Play speed",
    "present.speed_slow": "Slow",
    "present.speed_normal": "Normal",
    "present.speed_fast": "Fast",
    "present.hint": "PageDown or → next step, PageUp or ← back, space plays, Esc leaves",
    "standalone.not_in_file": (
        "This file was saved with the numbers for {held} only; open attnlab itself to try "
        "something else."
    ),
    "standalone.lesson_note": (
        "Saved from attnlab: every number below was computed when the file was written. "
        "Step, change the token followed or the normalization; no server is needed. The lab and "
        "its Cheaper attention section are live only: they run in attnlab itself (the JSON "
        "export saved from there carries the Cheaper section's numbers)."
    ),
    "standalone.model_note": (
        "Saved from attnlab: {model}, every layer and head, following {token}. Step, pick a "
        "head in the grid; no server is needed."
    ),
    "lesson.title_export": "attnlab, attention step by step",
    "standalone.this_sentence": "this sentence",
    "standalone.this_text": "this text and token",
}
"""Fixed labels by a dotted key, looked up by the page like the rest of PAGE_WORDS."""

CSV_HEADERS: tuple[str, ...] = (
    "layer", "head", "query_index", "query_token", "key_index", "key_token",
    "raw_score", "score", "weight",
)  # fmt: skip
"""The long-form CSV's columns: one row per (layer, head, query, key)."""
