"""A masking run for the terminal: the edited text, one row per layer, and the note."""

from __future__ import annotations

from attnlab.encode.model_views_json import COSINE_NOISE, WEIGHT_NOISE
from attnlab.encode.terminal import table
from attnlab.models.masking import Masking
from attnlab.words.grammar import spoken
from attnlab.words.model_views import MASK_COLUMNS, distance, mask_note

__all__ = ["render_masking"]


def _d(x: float, noise: float = WEIGHT_NOISE) -> str:
    """A distance as the page shows it: below the arithmetic's noise 0 (as the API sends it)."""
    return distance(0.0 if abs(x) < noise else x)


def render_masking(m: Masking, *, mask_name: str) -> str:
    """The plain and edited tokens, then per layer: row change (mean of heads, largest head),
    the weight the plain row gave the word, and the focus vector's change, each written as the
    page writes it (0 only when it is 0)."""
    cos = [max(float(x), 0.0) for x in m.cosine_distance]  # (L + 1,)
    rows = [["in", "", "", "", _d(cos[0], COSINE_NOISE), _d(float(m.l2[0]))]]
    for layer in range(m.base.n_layers):
        h = int(m.tv[layer].argmax())
        rows.append([
            str(layer), _d(float(m.tv_mean[layer])), f"{_d(float(m.tv[layer, h]))} (head {h})",
            _d(float(m.target_weight[layer].mean())), _d(cos[layer + 1], COSINE_NOISE),
            _d(float(m.l2[layer + 1])),
        ])  # fmt: skip
    word = "" if m.target is None else m.target.text
    note = mask_note(
        how=m.how, word=word, focus=spoken(m.base.tokens[m.focus]), tv_last=float(m.tv_mean[-1]),
        cos_last=max(float(m.cosine_distance[-1]), 0.0), layers=m.base.n_layers, mask=mask_name,
    )  # fmt: skip
    lines = [
        f"{m.base.model}: follow {spoken(m.base.tokens[m.focus])}, {m.how} {word or 'nothing'}",
        "plain:  " + " ".join(spoken(t) for t in m.base.tokens),  # “ river”: the space shown
        "edited: " + " ".join(spoken(t) for t in m.edited.tokens),
        *([] if m.edited_text is None else [f"edited text: {m.edited_text}"]),
        "",
        *table(MASK_COLUMNS, rows),
        "",
        note,
    ]
    return "\n".join(lines) + "\n"
