"""The page's fixed words: control labels, help texts and intros that no trace changes.

Served with the presets (`/api/presets` → "words", "choices") so the page writes none of its own
sentences and the narration and the controls cannot drift apart. Words that depend on numbers
are written from the trace instead (captions.py, narration.py, notes.py).
"""

from __future__ import annotations

from collections.abc import Mapping

from attnlab.words.narration import BEATS

__all__ = ["BEAT_TITLES", "MODE_CHOICES", "PAGE_WORDS"]

MODE_CHOICES: tuple[tuple[str, str, str], ...] = (
    ("scaled", "Scaled", "the real formula: scores divided by √dₖ"),
    ("unscaled", "No √dₖ", "a diagnostic: raw dot products, a sharper row"),
    ("uniform", "Uniform", "a diagnostic: every weight 1/n, the scores ignored"),
)
"""The Normalization selector: (value, label, one line of help)."""

BEAT_TITLES: tuple[tuple[str, str], ...] = BEATS
"""The six beats, (key, title), in order."""

PAGE_WORDS: Mapping[str, str] = {
    "lab.intro": (
        "Each control changes one piece of softmax(QKᵀ/√dₖ)V. The picture and the table above "
        "follow every change; the link in the address bar keeps it."
    ),
}
"""Fixed sentences by a dotted key (view.place); the page looks each one up by its key."""
