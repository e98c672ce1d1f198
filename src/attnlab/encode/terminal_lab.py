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


def lab_text(
    ex: LessonExplanation, *, sweep: Sweep | None = None, cell: tuple[int, int] | None = None
) -> str:
    """The lab's sections after the six beats; `sweep` and `cell` when the CLI asked for them."""
    t, f, said = ex.trace, ex.focus, ex.notes
    out: list[str] = []

    def section(title: str, note: str | None, rows: list[str] | None = None) -> None:
        out.extend(["", title])
        out.extend(textwrap.wrap(note or "", WIDTH))
        if rows:
            out.extend(["", *("  " + r for r in rows)])

    sat = ex.saturation
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
    section(
        "Saturation",
        note,
        table(
            ["row" if per_row else "column", "entropy (bits)", "of at most", "largest weight"],
            [
                [names[i], num(float(e)), num(float(c)), num(float(w))]
                for i, (e, c, w) in enumerate(
                    zip(sat.entropy_bits, sat.max_entropy_bits, sat.max_weight, strict=True)
                )
            ],
        ),
    )
    first = ex.runs[0]
    if first.causal:
        section("Causal mask", said.causal)
    if first.encodings is not None:
        rows = [[tok, vec(e)] for tok, e in zip(t.tokens, first.encodings, strict=True)]
        section("Positions", said.positions, table(["token", "added encoding"], rows))
    elif first.rotary is not None:
        rows = [[tok, vec(a)] for tok, a in zip(t.tokens, first.rotary.angles, strict=True)]
        section("Positions", said.positions, table(["token", "angles (radians, per pair)"], rows))
    if len(ex.runs) > 1:
        second = ex.runs[1]
        w2 = second.trace.weights  # (n, n)
        section(
            "Two heads",
            f"{notes.HEAD_BLURBS[second.head.name]} {said.heads}",
            table(
                ["head 2: query ↓ key →", *t.columns],
                [[tok, *(num(float(x)) for x in w2[i])] for i, tok in enumerate(t.tokens)],
            ),
        )
    if ex.shuffle is not None:
        c = ex.shuffle
        new_place = {orig: i for i, orig in enumerate(c.permutation)}
        rows = [
            [tok, f"{i} → {new_place[i]}", num(float(c.distances[i]), places=3),
             "✓ same" if same else "✗ moved"]
            for i, (tok, same) in enumerate(zip(c.tokens, c.unchanged, strict=True))
        ]  # fmt: skip
        section("Shuffle", c.note, table(["token", "place", "moved by", ""], rows))
    if sweep is not None:
        section("Temperature sweep", notes.sweep_note(t.tokens[f], sweep.sqrt_d_k), _sweep(sweep))
    if cell is not None:
        r = notes.read_cell(t, *cell)
        section("Reading the matrix", f"{r.text} {r.mistaken} {r.why}")
    return "\n".join(out) + "\n"


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
