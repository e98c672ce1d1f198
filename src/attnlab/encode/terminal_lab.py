"""The terminal view of what the lab's options add after the six beats.

`lab_text` reads the `LessonExplanation` itself (never its JSON): saturation always, then the
causal mask, positions, the second head, a shuffle, a temperature sweep and the reading of one
cell when they were asked for. Tables use terminal.py's `table` and numfmt's rule.
"""

from __future__ import annotations

import textwrap

from attnlab.core.saturation import Sweep
from attnlab.encode.terminal import WIDTH, table
from attnlab.lesson.explain import LessonExplanation
from attnlab.words import notes
from attnlab.words.numfmt import num, vec

__all__ = ["lab_text"]


Section = tuple[str, str | None, list[str] | None]
"""A titled part of the text: its title, a paragraph (wrapped) and table lines, if any."""


def lab_text(
    ex: LessonExplanation, *, sweep: Sweep | None = None, cell: tuple[int, int] | None = None
) -> str:
    """The lab's sections after the six beats; `sweep` and `cell` when the CLI asked for them."""
    t, said = ex.trace, ex.notes
    sections: list[Section | None] = [_saturation(ex), _positions(ex), _heads(ex), _shuffle(ex)]
    if ex.runs[0].causal:
        sections.insert(1, ("Causal mask", said.causal, None))
    if sweep is not None:
        told = notes.sweep_note(t.tokens[ex.focus], sweep.sqrt_d_k)
        sections.append(("Temperature sweep", told, _sweep(sweep)))
    if cell is not None:
        r = notes.read_cell(t, *cell)
        sections.append(("Reading the matrix", f"{r.text} {r.mistaken} {r.why}", None))
    out: list[str] = []
    for title, note, rows in (s for s in sections if s is not None):
        out.extend(["", title, *textwrap.wrap(note or "", WIDTH)])
        if rows:
            out.extend(["", *("  " + r for r in rows)])
    return "\n".join(out) + "\n"


def _saturation(ex: LessonExplanation) -> Section:
    t, f, sat = ex.trace, ex.focus, ex.saturation
    per_row = sat.per == "row"
    names = t.tokens if per_row else t.columns
    note = (
        notes.saturation_note(
            t.tokens[f], float(sat.entropy_bits[f]), float(sat.max_entropy_bits[f]),
            float(sat.max_weight[f]), sat.jacobian_frobenius,
        )
        if per_row
        else notes.COLUMNS_NOTE
    )  # fmt: skip
    rows = [
        [names[i], num(float(e)), num(float(c)), num(float(w))]
        for i, (e, c, w) in enumerate(
            zip(sat.entropy_bits, sat.max_entropy_bits, sat.max_weight, strict=True)
        )
    ]
    header = ["row" if per_row else "column", "entropy (bits)", "of at most", "largest weight"]
    return "Saturation", note, table(header, rows)


def _positions(ex: LessonExplanation) -> Section | None:
    first, tokens = ex.runs[0], ex.trace.tokens
    if first.encodings is not None:
        rows = [[tok, vec(e)] for tok, e in zip(tokens, first.encodings, strict=True)]
        return "Positions", ex.notes.positions, table(["token", "added encoding"], rows)
    if first.rotary is not None:
        rows = [[tok, vec(a)] for tok, a in zip(tokens, first.rotary.angles, strict=True)]
        header = ["token", "angles (radians, per pair)"]
        return "Positions", ex.notes.positions, table(header, rows)
    return None


def _heads(ex: LessonExplanation) -> Section | None:
    if len(ex.runs) < 2:
        return None
    t, second = ex.trace, ex.runs[1]
    w2 = second.trace.weights  # (n, n)
    rows = [[tok, *(num(float(x)) for x in w2[i])] for i, tok in enumerate(t.tokens)]
    note = f"{notes.HEAD_BLURBS[second.head.name]} {ex.notes.heads}"
    return "Two heads", note, table(["head 2: query ↓ key →", *t.columns], rows)


def _shuffle(ex: LessonExplanation) -> Section | None:
    c = ex.shuffle
    if c is None:
        return None
    new_place = {orig: i for i, orig in enumerate(c.permutation)}
    rows = [
        [tok, f"{i} → {new_place[i]}", num(float(c.distances[i]), places=3),
         "✓ same" if same else "✗ moved"]
        for i, (tok, same) in enumerate(zip(c.tokens, c.unchanged, strict=True))
    ]  # fmt: skip
    return "Shuffle", c.note, table(["token", "place", "moved by", ""], rows)


def _sweep(s: Sweep) -> list[str]:
    return table(
        ["T", *s.tokens, "entropy", "‖J‖"],
        [
            [num(float(T)), *(num(float(x)) for x in w), num(float(e)), num(float(j), places=3)]
            for T, w, e, j in zip(
                s.temperatures, s.weights, s.entropy_bits, s.jacobian_frobenius, strict=True
            )
        ],
    )
