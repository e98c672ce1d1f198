"""`attnlab train lookup|sqrt-dk|induction --steps N --seed S [--csv F] [--json F] [--gif F]`:
run one training experiment with a progress bar on stderr, print its summary, save its curves
(and, with --gif, its attention maps at each checkpoint as an animated GIF).

main.py registers it with one call, `add_train_command(sub)`.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import time
from typing import Any

from attnlab.errors import AttnlabError
from attnlab.train.catalog import EXPERIMENTS, check, start
from attnlab.train.narrate import summary_lines
from attnlab.train.steps import Step
from attnlab.words import training as words

__all__ = ["add_train_command", "summary_lines"]


def _experiments_help() -> str:
    """Each experiment's title and its default and largest step counts (train/catalog.py's)."""
    lines = ["experiments:"]
    for e in EXPERIMENTS.values():
        lines.append(
            f"  {e.name:<10} {words.TITLES[e.name]} "
            f"({e.default_steps} steps by default, at most {e.max_steps})"
        )
    return "\n".join(lines)


def add_train_command(sub: Any) -> None:
    p = sub.add_parser(
        "train",
        help="watch a head learn: run a training experiment",
        description="Train a head from random weights in NumPy, print what the run measured, "
        "and save its curves and maps if asked.",
        epilog=_experiments_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("experiment", choices=tuple(EXPERIMENTS))
    p.add_argument(
        "--steps", type=int, default=None, help="updates (default and largest: see below)"
    )
    p.add_argument("--seed", type=int, default=0, help="the same seed gives the same curves")
    p.add_argument("--csv", help="save every curve, one row a step, to this CSV file")
    p.add_argument("--json", help="save the curves and the summary to this JSON file")
    p.add_argument("--gif", help="save the attention maps at each checkpoint as an animated GIF")
    p.set_defaults(run=_train)


def _bar(done: int, total: int, began: float) -> str:
    filled = round(30 * done / total)
    seconds = time.monotonic() - began
    return f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} steps, {seconds:.1f} s"


def _check_outputs(args: argparse.Namespace) -> None:
    """Refuse, before any training, an output whose folder is missing or that is a folder."""
    for flag in ("csv", "json", "gif"):
        path = getattr(args, flag)
        if not path:
            continue
        folder = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path):
            raise AttnlabError(f"--{flag} {path!r} is a folder: name a file in it", field=flag)
        if not os.path.isdir(folder):
            raise AttnlabError(f"--{flag} {path!r}: no folder {folder!r}", field=flag)
        if not os.access(folder, os.W_OK):
            raise AttnlabError(f"--{flag} {path!r}: cannot write in {folder!r}", field=flag)


def _train(args: argparse.Namespace) -> int:
    total = check(args.experiment, steps=args.steps, seed=args.seed)
    _check_outputs(args)
    run = start(args.experiment, steps=total, seed=args.seed)
    steps: list[Step] = []
    began = time.monotonic()
    tty = sys.stderr.isatty()  # a bar redrawn in place; piped, a line every 10 %
    tenth = -1
    for s in run:
        steps.append(s)
        if tty and (s.step % max(1, total // 50) == 0 or s.step == total):
            sys.stderr.write(_bar(s.step, total, began))
        elif not tty and 10 * s.step // total > tenth:
            tenth = 10 * s.step // total
            sys.stderr.write(_bar(s.step, total, began)[1:] + "\n")
    if tty:
        sys.stderr.write("\n")
    seconds = time.monotonic() - began
    lines = summary_lines(args.experiment, steps)
    print(words.TITLES[args.experiment])
    print(f"seed {args.seed}, {total} steps, {seconds:.1f} s")
    for line in lines:
        print(line)
    keys = list(steps[0].values)
    if args.csv:
        with open(args.csv, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(["step", *keys])
            for s in steps:
                w.writerow([s.step, *(repr(s.values[k]) for k in keys)])
    if args.json:
        doc = {
            "experiment": args.experiment,
            "seed": args.seed,
            "steps": total,
            "seconds": seconds,
            "summary": lines,
            "curves": {k: [s.values[k] for s in steps] for k in keys},
            "checkpoints": [
                {
                    "step": s.step,
                    "scores": dict(s.checkpoint.scores),
                    "maps": [
                        {"name": m.name, "tokens": list(m.tokens), "weights": m.weights.tolist()}
                        for m in s.checkpoint.maps
                    ],
                }
                for s in steps
                if s.checkpoint is not None
            ],
        }
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(doc, f)
    if args.gif:
        from attnlab.export.train_gif import save_train_gif

        frames, (width, height) = save_train_gif(steps, args.gif)
        print(words.gif_saved(path=args.gif, frames=frames, width=width, height=height))
    return 0
