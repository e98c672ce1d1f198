"""`attnlab train lookup|sqrt-dk|induction --steps N --seed S [--csv F] [--json F] [--gif F]`:
run one training experiment with a progress bar on stderr, print its summary, save its curves
(and, with --gif, its attention maps at each checkpoint as an animated GIF).

main.py registers it with one call, `add_train_command(sub)`.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from typing import Any

from attnlab.train.catalog import EXPERIMENTS, experiment, start
from attnlab.train.narrate import summary_lines
from attnlab.train.steps import Step
from attnlab.words import training as words

__all__ = ["add_train_command", "summary_lines"]


def add_train_command(sub: Any) -> None:
    p = sub.add_parser("train", help="watch a head learn: run a training experiment")
    p.add_argument("experiment", choices=tuple(EXPERIMENTS))
    p.add_argument("--steps", type=int, default=None, help="updates (default: the experiment's)")
    p.add_argument("--seed", type=int, default=0, help="the same seed gives the same curves")
    p.add_argument("--csv", help="save every curve, one row a step, to this CSV file")
    p.add_argument("--json", help="save the curves and the summary to this JSON file")
    p.add_argument("--gif", help="save the attention maps at each checkpoint as an animated GIF")
    p.set_defaults(run=_train)


def _bar(done: int, total: int, began: float) -> str:
    filled = round(30 * done / total)
    seconds = time.monotonic() - began
    return f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} steps, {seconds:.1f} s"


def _train(args: argparse.Namespace) -> int:
    run = start(args.experiment, steps=args.steps, seed=args.seed)
    total = args.steps or experiment(args.experiment).default_steps
    steps: list[Step] = []
    began = time.monotonic()
    for s in run:
        steps.append(s)
        if s.step % max(1, total // 50) == 0 or s.step == total:
            sys.stderr.write(_bar(s.step, total, began))
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
