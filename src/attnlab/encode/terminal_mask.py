"""A masking run for the terminal: the edited text, one row per layer, and the note."""

from __future__ import annotations

from attnlab.encode.terminal import table
from attnlab.models.masking import Masking
from attnlab.words.model_views import MASK_COLUMNS, mask_note
from attnlab.words.numfmt import num

__all__ = ["render_masking"]


def render_masking(m: Masking, *, mask_name: str) -> str:
    """The plain and edited tokens, then per layer: row change (mean of heads, largest head),
    the weight the plain row gave the word, and the focus vector's change."""
    rows = [["in", "", "", "", num(max(float(m.cosine_distance[0]), 0.0)), num(float(m.l2[0]))]]
    for layer in range(m.base.n_layers):
        h = int(m.tv[layer].argmax())
        rows.append([
            str(layer), num(float(m.tv_mean[layer])), f"{num(float(m.tv[layer, h]))} (head {h})",
            num(float(m.target_weight[layer].mean())),
            num(max(float(m.cosine_distance[layer + 1]), 0.0)), num(float(m.l2[layer + 1])),
        ])  # fmt: skip
    word = "" if m.target is None else m.target.text
    note = mask_note(
        how=m.how, word=word, focus=m.base.tokens[m.focus], tv_last=float(m.tv_mean[-1]),
        cos_last=max(float(m.cosine_distance[-1]), 0.0), layers=m.base.n_layers, mask=mask_name,
    )  # fmt: skip
    lines = [
        f"{m.base.model}: follow {m.base.tokens[m.focus]!r}, {m.how} {word or 'nothing'}",
        "plain:  " + " ".join(m.base.tokens),
        "edited: " + " ".join(m.edited.tokens),
        "",
        *table(MASK_COLUMNS, rows),
        "",
        note,
    ]
    return "\n".join(lines) + "\n"
