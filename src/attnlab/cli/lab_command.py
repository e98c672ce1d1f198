"""`attnlab lab`: the lab's experiments that stand on their own, outside `explain`'s beats.

    attnlab lab one-projection [SENTENCE ...] [--focus bank] [--shared queries|keys|values] [--json]

`one-projection` runs the seed's first common mistake (lesson/one_projection.py): one matrix for
the query, the key and the value, beside the real head, on both preset sentences by default.
main.py registers it with one call, `add_lab_command(sub)`.
"""

from __future__ import annotations

import argparse
import json
import textwrap
from typing import Any

from attnlab.encode.terminal import WIDTH, table
from attnlab.lesson.one_projection import SHARED, OneProjection, contexts, one_projection
from attnlab.lesson.toy import PRESETS
from attnlab.words.grammar import token_names
from attnlab.words.numfmt import num

__all__ = ["add_lab_command"]

BOTH = (PRESETS[0].sentence, PRESETS[1].sentence)
"""The two contexts of the lesson: by the river bank, at the savings bank."""


def add_lab_command(sub: Any) -> None:
    lab = sub.add_parser("lab", help="the lab's experiments on the toy head (one-projection)")
    kinds = lab.add_subparsers(dest="experiment", required=True, metavar="EXPERIMENT")
    one = kinds.add_parser(
        "one-projection",
        help="one matrix for Q, K and V (Q = K = V = X·W) beside the real head",
        description="The seed's first common mistake: treating Q, K and V as one vector.",
    )
    one.add_argument(
        "sentences", nargs="*", metavar="SENTENCE",
        help=f"toy sentences (default: {BOTH[0]!r} and {BOTH[1]!r})",
    )  # fmt: skip
    one.add_argument("--focus", help="the token to follow: a word or its index (default: bank)")
    one.add_argument(
        "--shared", choices=SHARED, default="queries",
        help="whose matrix is the one W: W_Q (default), W_K or W_V",
    )  # fmt: skip
    one.add_argument("--json", action="store_true", help="print each run as /api/lesson does")
    one.set_defaults(run=_one_projection)


def _one_projection(args: argparse.Namespace) -> int:
    from attnlab.encode.lesson_json import encode_one_projection

    sentences = tuple(args.sentences) or BOTH
    runs = [one_projection(s, focus=args.focus, shared=args.shared) for s in sentences]
    if args.json:
        print(json.dumps([encode_one_projection(r) for r in runs]))
        return 0
    for k, r in enumerate(runs):
        if k:
            print()
        print(one_projection_text(r))
    if len(runs) == 2:
        print()
        print("\n".join(_wrap(contexts(runs[0], runs[1])[2])))
    return 0


def one_projection_text(r: OneProjection) -> str:
    """One sentence's run: the focus row in both heads, and what the numbers show."""
    f, names = r.focus, token_names(r.tokens)
    rows = [
        [names[j], num(float(r.real.raw_scores[f, j])), num(float(r.real.weights[f, j])),
         num(float(r.one.raw_scores[f, j])), num(float(r.one.weights[f, j]))]
        for j in range(len(names))
    ]  # fmt: skip
    head = ["key", "q·k (3 matrices)", "weight", "q·q (one matrix)", "weight"]
    lines = [
        f"{' '.join(r.tokens)}: the row of {names[f]}",
        "",
        *("  " + x for x in table(head, rows)),
    ]
    return "\n".join([*lines, "", *_wrap(r.note)])


def _wrap(text: str) -> list[str]:
    # the page's word joiners (U+2060, keeping "|q|²" on one line) are for a browser; textwrap
    # breaks only at spaces, and some terminals draw a joiner as a box
    return textwrap.wrap(text.replace("\u2060", ""), WIDTH)
