"""The page's words for what is on screen now: the line of active lab changes (each with its
undo), the Attention weights table as it follows the beats, the heat scale's legend, and what
stays hidden while Predict first waits for a guess.

Part of the page's words (page.py's PAGE_WORDS, served with /api/presets); a `{name}` is filled
by the page with a value the API sent, written by numfmt's rule (page.py's TEMPLATE_VALUES).
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["STATE_WORDS"]

_ACTIVE = {
    "lesson.state.name": "Active lab changes",
    "lesson.state.lead": "Changed in the lab:",
    "lesson.state.temperature": "T = {t} in place of √dₖ",
    "lesson.state.axis": "softmax down the columns (the mistake)",
    "lesson.state.causal": "causal mask",
    "lesson.state.positions": "positions: {kind}",
    "lesson.state.heads": "{count} heads (the second one is in the Two heads card)",
    "lesson.state.shuffle": "a shuffle (its result is in the Word order card)",
    "lesson.state.edits": "edited vectors: {edited}",
    "lesson.state.predict": "Predict first",
    "lesson.state.undo.temperature": "Undo temperature",
    "lesson.state.undo.axis": "Undo softmax axis",
    "lesson.state.undo.causal": "Undo causal mask",
    "lesson.state.undo.positions": "Undo positions",
    "lesson.state.undo.heads": "Undo heads",
    "lesson.state.undo.shuffle": "Undo shuffle",
    "lesson.state.undo.edits": "Undo edits",
    "lesson.state.undo.predict": "Undo predict first",
    "lesson.mode_temperature": (
        "scores divided by T = {t} (the lab's temperature), not √dₖ = {root}"
    ),
}

_TABLE = {
    "table.caption_pending": (
        "Attention weights: empty until step 3 (Score) fills in the scores and step 4 "
        "(Softmax) turns them into weights."
    ),
    "table.caption_scores": (
        "Scores before the softmax (q·k / {divisor}): row i is the query, column j the key. "
        "Step 4 (Softmax) turns each row into weights."
    ),
    "table.caption_hidden": (
        "Scores before the softmax (q·k / {divisor}); the weights stay hidden until you guess."
    ),
    "table.show_all": "Show the final weights",
    "table.show_all_hidden": "The final weights are hidden until you guess (Predict first).",
    "table.score_title": "row {row} (query) scores column {col} (key): {score}",
    "table.score_readout": (
        "Row {row} (query “{query}”) scores column {col} (key “{key}”): {score}, before the "
        "softmax."
    ),
    "table.pending_readout": "No numbers yet: the scores fill in at step 3 (Score).",
    "table.legend": (
        "Heat scale: pale yellow for a weight of 0 to deep blue for 1; this table's weights run "
        "from {low} to {high}"
    ),
    "table.legend_range": "here {low} – {high}",
}

_HIDDEN = {
    "lab.hidden": "hidden until you guess",
    "lab.reading.hidden": (
        "The weights are hidden until you guess (Predict first): a cell's reading shows then."
    ),
    "lab.temperature.hidden": (
        "The weights and their entropy are hidden until you guess (Predict first)."
    ),
    "canvas.heat_legend": "weight",
    "canvas.score_legend": "score",
    "canvas.budget_one": "1 = the budget",
}

STATE_WORDS: Mapping[str, str] = {**_ACTIVE, **_TABLE, **_HIDDEN}
"""The words for the page's current state, by a dotted key."""
