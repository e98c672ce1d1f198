"""The `attnlab` command: `explain` prints the six beats; `serve` starts the local web page.

Bad input ends with exit code 2 and one line on stderr naming the problem, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence

from attnlab.cli.lab import (
    SWEEP_ROWS,
    add_cost_command,
    add_lab_arguments,
    lab_cell,
    lab_flags_used,
    lab_json,
    lab_options,
    lab_sweep,
)
from attnlab.errors import AttnlabError
from attnlab.lesson.toy import DEFAULT_SENTENCE, PRESETS, VOCABULARY
from attnlab.types import AXES, MODES

EXIT_BAD_INPUT = 2


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="attnlab",
        description="Scaled dot-product attention, softmax(QKᵀ/√dₖ)V, step by step.",
    )
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    ex = sub.add_parser("explain", help="print the six beats of attention for one token")
    ex.add_argument(
        "sentence",
        nargs="?",
        default=DEFAULT_SENTENCE,
        help=f"words from the toy vocabulary (default: {DEFAULT_SENTENCE!r})",
    )
    ex.add_argument("--focus", help="the token to follow: a word or its index (default: bank)")
    ex.add_argument(
        "--mode",
        choices=MODES,
        default="scaled",
        help="scaled = softmax(QKᵀ/√dₖ); unscaled = no √dₖ; uniform = 1/n",
    )
    ex.add_argument(
        "--axis",
        choices=AXES,
        default="keys",
        help="softmax across keys (correct) or queries (the common mistake)",
    )
    ex.add_argument("--json", action="store_true", help="print the trace as JSON")
    ex.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    _model_arguments(ex)
    ex.add_argument("--layer", type=int, default=0, help="with --model: the layer (from 0)")
    ex.add_argument("--head", type=int, default=0, help="with --model: the head (from 0)")
    add_lab_arguments(ex)
    ex.set_defaults(run=_explain)

    hd = sub.add_parser("heads", help="with --model: where a token looks in every layer and head")
    hd.add_argument("sentence", help="any text (up to 128 tokens)")
    hd.add_argument("--focus", help="the token to follow (default: the text's last word)")
    hd.add_argument("--json", action="store_true", help="print the table as JSON")
    _model_arguments(hd, default="minilm")
    hd.set_defaults(run=_heads)

    sv = sub.add_parser("serve", help="start the local web lesson")
    sv.add_argument("--host", default="127.0.0.1")
    sv.add_argument("--port", type=int, default=8000)
    sv.add_argument("--open", action="store_true", help="open the page in a browser")
    sv.set_defaults(run=_serve)

    vocab = sub.add_parser("vocab", help="list the toy lesson's words and presets")
    vocab.set_defaults(run=_vocab)
    add_cost_command(sub)
    return p  # fmt: skip


def _model_arguments(p: argparse.ArgumentParser, default: str | None = None) -> None:
    p.add_argument(
        "--model",
        default=default,
        help="a real encoder instead of the toy: minilm, or a Hugging Face-layout folder",
    )


def _color(args: argparse.Namespace) -> bool:
    return args.color == "always" or (
        args.color == "auto" and sys.stdout.isatty() and "NO_COLOR" not in os.environ
    )


def _explain(args: argparse.Namespace) -> int:
    from attnlab.encode.terminal import render
    from attnlab.encode.terminal_lab import lab_text
    from attnlab.lesson.explain import explain_lesson

    if args.model is not None:
        return _explain_model(args)
    if args.layer or args.head:
        raise AttnlabError("--layer and --head pick a head of a real model: add --model minilm")

    options = lab_options(args)
    cell = lab_cell(args)  # refuse a bad cell before anything is printed
    ex = explain_lesson(args.sentence, options, focus=args.focus)
    if args.json:
        print(json.dumps(lab_json(ex, args), ensure_ascii=False))
        return 0
    sys.stdout.write(render(ex, color=_color(args)))
    sys.stdout.write(lab_text(ex, sweep=lab_sweep(ex, args, rows=SWEEP_ROWS), cell=cell))
    return 0


def _explain_model(args: argparse.Namespace) -> int:
    from attnlab.encode.model_json import encode_head
    from attnlab.encode.terminal import render
    from attnlab.models import load_model
    from attnlab.models.heads import explain_head

    toy_only = lab_flags_used(args)
    if toy_only:
        from attnlab.words.notes import toy_only_message

        raise AttnlabError(toy_only_message(toy_only))
    mt = load_model(args.model).trace(args.sentence)
    where = {"layer": args.layer, "head": args.head}
    ex = explain_head(mt, **where, focus=args.focus, mode=args.mode, axis=args.axis)
    if args.json:
        print(json.dumps(encode_head(mt, ex, **where), ensure_ascii=False))
        return 0
    sys.stdout.write(f"{mt.model}, layer {args.layer}, head {args.head}\n")
    sys.stdout.write(render(ex, color=_color(args)))
    return 0


def _heads(args: argparse.Namespace) -> int:
    from attnlab.encode.model_json import encode_summary
    from attnlab.encode.terminal import render_heads
    from attnlab.models import load_model
    from attnlab.models.heads import head_summaries

    mt = load_model(args.model).trace(args.sentence)
    focus = mt.focus_index(args.focus)
    if args.json:
        rows = [encode_summary(s, mt.tokens) for s in head_summaries(mt, focus)]
        print(json.dumps({"tokens": list(mt.tokens), "focus": focus, "heads": rows}))
        return 0
    sys.stdout.write(render_heads(mt, focus))
    return 0


def _serve(args: argparse.Namespace) -> int:
    try:
        from attnlab.web.app import serve
    except ImportError as exc:
        raise AttnlabError(
            f"the web page needs the server extra ({exc.name} is missing): "
            "pip install 'attnlab[server]'"
        ) from None
    serve(host=args.host, port=args.port, open_browser=args.open)
    return 0


def _vocab(args: argparse.Namespace) -> int:
    print("words:", " ".join(sorted(VOCABULARY)))
    for p in PRESETS:
        print(f"preset {p.name!r}: {p.sentence!r} (focus {p.focus}: {p.blurb})")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code (0 ok, 2 bad input)."""
    args = _parser().parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except AttnlabError as exc:
        print(f"attnlab: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
