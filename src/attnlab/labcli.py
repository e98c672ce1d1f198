"""The lab's options on `attnlab explain`, their text sections, and `attnlab cost`.

cli.py registers these with two calls (`add_lab_arguments`, `add_cost_command`) and passes
`lab_options(args)` to `explain_lesson`; `lab_text` prints what the options add after the six
beats: saturation, the causal mask, positions, the second head, a shuffle, a temperature sweep
and the reading of one cell. Tables use render.py's `table` and numfmt's rule.
"""

from __future__ import annotations

import argparse
import json
import textwrap
from typing import Any

import numpy as np

from attnlab import lesson, words
from attnlab.edits import Edits, Role
from attnlab.errors import FocusError
from attnlab.explain import Explanation
from attnlab.numfmt import num, vec
from attnlab.positions import KINDS
from attnlab.render import WIDTH, table
from attnlab.saturation import sweep, temperatures

__all__ = ["add_cost_command", "add_lab_arguments", "lab_json", "lab_options", "lab_text"]

SWEEP_ROWS = 9
"""The text sweep shows this many temperatures (0.1 .. 10, log-spaced); the JSON has 41."""
_SETS: tuple[tuple[str, Role, str], ...] = (
    ("--set", "embeddings", "a word's embedding"),
    ("--set-q", "queries", "a word's query (head 1)"),
    ("--set-k", "keys", "a word's key (head 1)"),
    ("--set-v", "values", "a word's value (head 1)"),
)


def add_lab_arguments(p: argparse.ArgumentParser) -> None:
    """The options that break the lookup on purpose (issue 5), on `attnlab explain`."""
    lab = p.add_argument_group("lab (the toy lesson only)")
    lab.add_argument(
        "--temperature", type=float, metavar="T",
        help="divide the scores by T instead of √dₖ (0.1 .. 10 is the page's range)",
    )  # fmt: skip
    lab.add_argument("--positions", choices=KINDS, default="none", help="add word order")
    lab.add_argument("--causal", action="store_true", help="a decoder's mask: no looking ahead")
    lab.add_argument("--shuffle", type=int, metavar="SEED", help="shuffle the words and compare")
    lab.add_argument("--heads", type=int, choices=(1, 2), default=1, help="add the grammar head")
    for flag, _, what in _SETS:
        lab.add_argument(
            flag, action="append", default=[], metavar="TOKEN=x,y,z,w", help=f"edit {what}"
        )
    lab.add_argument("--sweep", action="store_true", help="the focus row from T = 0.1 to 10")
    lab.add_argument("--read", metavar="ROW,COL", help="say cell (row, col) in words")


LAB_FLAGS = ("--temperature", "--positions", "--causal", "--shuffle", "--heads",
             *(flag for flag, _, _ in _SETS), "--sweep", "--read")  # fmt: skip


def lab_flags_used(args: argparse.Namespace) -> list[str]:
    """The lab options given a value other than their default (so they would change the run)."""
    bare = argparse.ArgumentParser()
    add_lab_arguments(bare)
    defaults = vars(bare.parse_args([]))
    return [
        f
        for f in LAB_FLAGS
        if getattr(args, f[2:].replace("-", "_")) != defaults[f[2:].replace("-", "_")]
    ]


def lab_options(args: argparse.Namespace) -> dict[str, Any]:
    """Keyword options for `explain_lesson` from the parsed arguments."""
    specs = {role: getattr(args, flag[2:].replace("-", "_")) for flag, role, _ in _SETS}
    if args.read:  # refuse a bad cell before anything is printed
        tokens = lesson.tokenize(args.sentence)
        _cell(args.read, tokens, tokens)
    return {
        "temperature": args.temperature,
        "positions": args.positions,
        "causal": args.causal,
        "heads": args.heads,
        "shuffle": args.shuffle,
        "edits": Edits.parse(specs, dim_names=lesson.DIM_NAMES),
    }


def lab_json(ex: Explanation, args: argparse.Namespace) -> dict[str, Any]:
    """The explanation's JSON, plus "sweep" when --sweep was given."""
    d = ex.to_dict()
    if args.sweep:
        d["sweep"] = sweep(ex.trace, ex.focus).to_dict()
    return d


def lab_text(ex: Explanation, args: argparse.Namespace) -> str:
    """The lab's sections after the six beats (always saturation; the rest when asked)."""
    t = ex.trace
    d = ex.to_dict()
    out: list[str] = []

    def section(title: str, note: str | None, rows: list[str] | None = None) -> None:
        out.extend(["", title])
        out.extend(textwrap.wrap(note or "", WIDTH))
        if rows:
            out.extend(["", *("  " + r for r in rows)])

    sat = d["saturation"]
    label = "row" if sat["per"] == "row" else "column"
    names = t.tokens if sat["per"] == "row" else t.columns
    section(
        "Saturation",
        sat["note"] or words.COLUMNS_NOTE,
        table(
            [label, "entropy (bits)", "of at most", "largest weight"],
            [
                [names[i], num(e), num(c), num(w)]
                for i, (e, c, w) in enumerate(
                    zip(
                        sat["entropy_bits"], sat["max_entropy_bits"], sat["max_weight"], strict=True
                    )
                )
            ],
        ),
    )
    if d["causal"]:
        section("Causal mask", d["causal_note"])
    pos = d["positions"]
    if pos["kind"] != "none":
        if pos["encodings"] is not None:
            rows = [[tok, vec(e)] for tok, e in zip(t.tokens, pos["encodings"], strict=True)]
            body = table(["token", "added encoding"], rows)
        else:
            angles = pos["rope"]["angles"]
            rows = [[tok, vec(a)] for tok, a in zip(t.tokens, angles, strict=True)]
            body = table(["token", "angles (radians, per pair)"], rows)
        section("Positions", pos["note"], body)
    if d["heads_note"] is not None:
        w2 = np.asarray(d["heads"][1]["weights"])  # (n, n)
        section(
            "Two heads",
            f"{d['heads'][1]['blurb']} {d['heads_note']}",
            table(
                ["head 2: query ↓ key →", *t.columns],
                [[tok, *(num(x) for x in w2[i])] for i, tok in enumerate(t.tokens)],
            ),
        )
    if d["shuffle"] is not None:
        s = d["shuffle"]
        rows = [
            [r["token"], f"{r['from']} → {r['to']}", num(r["distance"], places=3),
             "✓ same" if r["unchanged"] else "✗ moved"]
            for r in s["rows"]
        ]  # fmt: skip
        section("Shuffle", s["note"], table(["token", "place", "moved by", ""], rows))
    if args.sweep:
        section("Temperature sweep", _sweep_note(ex), _sweep_table(ex))
    if args.read:
        i, j = _cell(args.read, t.tokens, t.columns)
        r = d["readings"][i][j]
        section("Reading the matrix", f"{r['text']} {r['mistaken']} {r['why']}")
    return "\n".join(out) + "\n"


def _sweep_note(ex: Explanation) -> str:
    return words.sweep_note(ex.trace.tokens[ex.focus], float(np.sqrt(ex.trace.d_k)))


def _sweep_table(ex: Explanation) -> list[str]:
    s = sweep(ex.trace, ex.focus, ts=temperatures(steps=SWEEP_ROWS))
    return table(
        ["T", *s.tokens, "entropy", "‖J‖"],
        [
            [num(float(T)), *(num(float(x)) for x in w), num(float(e)), num(float(j), places=3)]
            for T, w, e, j in zip(
                s.temperatures, s.weights, s.entropy_bits, s.jacobian_frobenius, strict=True
            )
        ],
    )


def _cell(spec: str, rows: tuple[str, ...], cols: tuple[str, ...]) -> tuple[int, int]:
    parts = [p.strip().lower() for p in spec.split(",")]
    if len(parts) != 2:
        raise FocusError(f"--read takes ROW,COL (words or indices), got {spec!r}")
    try:
        return lesson.focus_index(rows, parts[0]), lesson.focus_index(cols, parts[1])
    except FocusError as exc:
        raise FocusError(f"--read {spec!r}: {exc}") from None


def add_cost_command(sub: Any) -> None:
    """`attnlab cost`: time and memory of attention against n, with the fitted n² curve."""
    c = sub.add_parser("cost", help="time and memory of attention for n = 4 .. a few thousand")
    c.add_argument("--max-n", type=int, default=2048, help="the largest n (at most 4096)")
    c.add_argument("--d", type=int, default=64, help="the vector width (default 64)")
    c.add_argument("--json", action="store_true", help="print the points and fit as JSON")
    c.set_defaults(run=_cost)


def _cost(args: argparse.Namespace) -> int:
    from attnlab.cost import measure, sizes

    cost = measure(sizes(args.max_n, per_octave=1), d=args.d)
    if args.json:
        print(json.dumps(cost.to_dict()))
        return 0
    a, c = cost.time_fit
    ma, mc = cost.memory_fit
    print(f"softmax(QKᵀ/√dₖ)V on random float32 vectors, d = {cost.d}; fit: a + c·n²")
    rows = [
        [str(int(n)), f"{s * 1e3:.3f} ms", f"{(a + c * n * n) * 1e3:.3f} ms",
         f"{b / 2**20:.2f} MiB", f"{(ma + mc * n * n) / 2**20:.2f} MiB"]
        for n, s, b in zip(cost.n, cost.seconds, cost.bytes, strict=True)
    ]  # fmt: skip
    print("\n".join(table(["n", "time", "n² fit", "memory", "n² fit"], rows)))
    if not cost.complete:
        print(f"(stopped at n = {int(cost.n[-1])}: the {cost.budget_seconds:g} s budget ran out)")
    return 0
