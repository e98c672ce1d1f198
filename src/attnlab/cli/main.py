"""The `attnlab` command: `explain` prints the six beats; `serve` starts the local web page.

Bad input ends with exit code 2 and one line on stderr naming the problem, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from attnlab.cli.atlas_cmd import add_atlas_command
from attnlab.cli.cheaper_cmd import add_cheaper_command
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
from attnlab.cli.lab_command import add_lab_command
from attnlab.cli.mask import add_mask_command
from attnlab.cli.train_command import add_train_command
from attnlab.errors import AttnlabError
from attnlab.lesson.toy import DEFAULT_SENTENCE, PRESETS, VOCABULARY
from attnlab.models.memory import keep_freed_memory
from attnlab.types import AXES, MODES

EXIT_BAD_INPUT = 2
EXIT_BUG = 1
TRACEBACK_ENV = "ATTNLAB_TRACEBACK"
"""Set to 1 to see the traceback of an unexpected error instead of its one line."""


class _Parser(argparse.ArgumentParser):
    """argparse with its usage errors on one line: `attnlab explain: --layer: invalid int ...`."""

    def error(self, message: str) -> NoReturn:
        line = " ".join(w if len(w) <= 40 else w[:40] + "…" for w in message.split())
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {line} (see {self.prog} --help)\n")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(
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
    ex.add_argument(
        "--focus",
        help="the token to follow: a word or its index (default: the toy's word of two senses, "
        "such as bank; with --model, the text's last word)",
    )
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
    ex.add_argument(
        "--color", choices=("auto", "always", "never"), default="auto",
        help="colour titles and the focus (default auto: on a terminal only, not with NO_COLOR)",
    )  # fmt: skip
    _model_arguments(ex)
    ex.add_argument("--layer", type=int, default=0, help="with --model: the layer (from 0)")
    ex.add_argument("--head", type=int, default=0, help="with --model: the head (from 0)")
    add_lab_arguments(ex)
    ex.set_defaults(run=_explain)

    hd = sub.add_parser("heads", help="with --model: where a token looks in every layer and head")
    hd.add_argument("sentence", help="any text (up to the model's limit: 512 or 2,048 tokens)")
    hd.add_argument("--focus", help="the token to follow (default: the text's last word)")
    hd.add_argument("--json", action="store_true", help="print the table as JSON")
    _model_arguments(hd, default="minilm")
    hd.set_defaults(run=_heads)

    _export_command(sub)

    sv = sub.add_parser("serve", help="start the local web lesson")
    sv.add_argument(
        "--host", default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 lets "
        "anyone on your network open the page)",
    )  # fmt: skip
    sv.add_argument("--port", type=int, default=8000, help="the port to listen on (default 8000)")
    sv.add_argument("--open", action="store_true", help="open the page in a browser")
    sv.add_argument(
        "--model",
        action="append",
        default=[],
        metavar="FOLDER",
        help="a Hugging Face-layout folder (or a .gguf) to serve beside minilm, smollm2, gemma3; "
        "repeatable: --model A --model B serves both",
    )
    sv.add_argument(
        "--atlas",
        action="append",
        default=[],
        metavar="ATLAS",
        help="an atlas file (attnlab atlas … -o ATLAS) for the Head atlas tab; repeatable",
    )
    sv.set_defaults(run=_serve)

    nx = sub.add_parser("next", help="with --model: the most likely next tokens after a text")
    nx.add_argument(
        "sentence", help="any text (up to the model's limit, 2,048 for smollm2 and gemma3)"
    )
    nx.add_argument("--after", help="a token or position to predict after (default: the last)")
    nx.add_argument("--top", type=int, default=10, help="how many tokens to list (default 10)")
    nx.add_argument("--json", action="store_true", help="print the tokens as JSON")
    _model_arguments(nx, default="smollm2", what="smollm2, gemma3, or a decoder's folder")
    nx.set_defaults(run=_next)

    vocab = sub.add_parser("vocab", help="list the toy lesson's words and presets")
    vocab.set_defaults(run=_vocab)
    add_cost_command(sub)
    add_train_command(sub)
    add_mask_command(sub)
    add_lab_command(sub)
    add_cheaper_command(sub)
    add_atlas_command(sub)
    return p  # fmt: skip


def _export_command(sub: argparse._SubParsersAction[Any]) -> None:
    ep = sub.add_parser(
        "export", help="save a lesson or a real model's trace: one offline .html, .json or .csv"
    )
    ep.add_argument(
        "sentence",
        nargs="?",
        default=DEFAULT_SENTENCE,
        help=f"the toy's words, or any text with --model (default: {DEFAULT_SENTENCE!r})",
    )
    ep.add_argument(
        "-o",
        "--output",
        required=True,
        help="the file to write; its suffix (.html, .json, .csv, .svg) names the format",
    )
    ep.add_argument(
        "--format",
        choices=("html", "json", "csv", "svg"),
        help="the format, when the suffix does not say it (svg: one beat, drawn under Node.js)",
    )
    ep.add_argument(
        "--table",
        choices=("long", "matrix"),
        default="long",
        help="for CSV: every score and weight (long) or one head's weights (matrix)",
    )
    ep.add_argument(
        "--focus", help="the token to follow: a word or its index (default: as explain's)"
    )
    ep.add_argument("--mode", choices=MODES, default="scaled", help="the lesson's normalization")
    ep.add_argument("--axis", choices=AXES, default="keys", help="the softmax's axis")
    ep.add_argument(
        "--beat", type=int, default=1, help="the step an HTML or SVG file shows (1-6, default 1)"
    )
    _model_arguments(ep)
    ep.add_argument("--layer", type=int, default=0, help="with --model: the layer (from 0)")
    ep.add_argument("--head", type=int, default=0, help="the head (from 0), of --model or the toy")
    add_lab_arguments(ep)
    ep.set_defaults(run=_export)  # fmt: skip


def _export(args: argparse.Namespace) -> int:
    from attnlab.export.saving import export_text, format_of
    from attnlab.lesson.explain import explain_lesson
    from attnlab.models import load_model

    kind = format_of(args.output, args.format)  # refuse a bad suffix before any work
    if not 1 <= args.beat <= 6:
        raise AttnlabError(f"--beat is a step from 1 to 6, got {args.beat}", field="beat")
    where = {"beat": args.beat - 1, "layer": args.layer, "head": args.head, "table": args.table}
    if args.model is not None:
        toy_only = lab_flags_used(args)
        if toy_only:
            raise AttnlabError(f"{', '.join(toy_only)} change the toy lesson and do not apply "
                               "to --model; leave them out, or drop --model")  # fmt: skip
        mt = load_model(args.model).trace(args.sentence)
        text = export_text(mt, kind, focus=args.focus, **where)
    else:
        if args.layer:
            raise AttnlabError("--layer picks a layer of a real model: add --model minilm")
        ex = explain_lesson(args.sentence, lab_options(args), focus=args.focus)
        text = export_text(ex, kind, **where)
    try:
        with open(args.output, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as exc:
        raise AttnlabError(f"cannot write {args.output!r}: {exc.strerror}") from None
    print(f"attnlab: wrote {args.output} ({kind}, {len(text.encode()):,} bytes)", file=sys.stderr)
    return 0


def _model_arguments(
    p: argparse.ArgumentParser,
    default: str | None = None,
    what: str = "minilm, smollm2, gemma3, or a Hugging Face-layout folder",
) -> None:
    p.add_argument(
        "--model",
        default=default,
        help=f"a real model instead of the toy: {what}" if default is None
        else f"the real model to run: {what} (default: {default}; this command has no toy)",
    )  # fmt: skip


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
    from attnlab.encode.packed import unpacked
    from attnlab.encode.terminal import render
    from attnlab.models import load_model
    from attnlab.models.heads import explain_head
    from attnlab.words.layer_kinds import head_notes

    toy_only = lab_flags_used(args)
    if toy_only:
        from attnlab.words.notes import toy_only_message

        raise AttnlabError(toy_only_message(toy_only))
    mt = load_model(args.model).trace(args.sentence)
    where = {"layer": args.layer, "head": args.head}
    ex = explain_head(mt, **where, focus=args.focus, mode=args.mode, axis=args.axis)
    if args.json:
        # the toy lesson's schema: arrays as nested lists, not the page's packed bytes
        print(json.dumps(unpacked(encode_head(mt, ex, **where)), ensure_ascii=False))
        return 0
    sys.stdout.write(f"{mt.model}, layer {args.layer}, head {args.head}\n")
    notes = head_notes(layer=args.layer, window=mt.layers[args.layer].window, n=mt.n,
                       n_heads=mt.n_heads, n_kv_heads=mt.n_kv_heads)  # fmt: skip
    sys.stdout.write("".join(f"{line}\n" for line in notes))
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
    if not 0 <= args.port <= 65535:
        raise AttnlabError(f"--port must be between 0 and 65535, got {args.port}", field="port")
    try:
        from attnlab.cli.serve import serve
    except ImportError as exc:
        raise AttnlabError(
            f"the web page needs the server extra ({exc.name} is missing): "
            "pip install 'attnlab[server]'"
        ) from None
    serve(
        host=args.host,
        port=args.port,
        open_browser=args.open,
        models=tuple(args.model),
        atlases=tuple(args.atlas),
    )
    return 0


def _next(args: argparse.Namespace) -> int:
    from attnlab.encode.terminal import render_next
    from attnlab.models import load_model

    mt = load_model(args.model).trace(args.sentence)
    predict = getattr(mt, "next_tokens_marked", None)
    if predict is None:
        raise AttnlabError(
            f"{mt.model} is an encoder: it does not predict a next token; use --model smollm2",
            field="model",
        )
    if args.top < 1:
        raise AttnlabError(f"--top must be 1 or more, got {args.top}", field="top")
    after = mt.n - 1 if args.after is None else mt.focus_index(args.after)
    top = predict(after, args.top)
    if args.json:
        rows = [{"token": t, "probability": p, "special": s} for t, p, s in top]
        print(json.dumps({"after": after, "token": mt.tokens[after], "next": rows}))
        return 0
    sys.stdout.write(render_next(mt, after, top))
    return 0


def _vocab(args: argparse.Namespace) -> int:
    print("words:", " ".join(sorted(VOCABULARY)))
    for p in PRESETS:
        print(f"preset {p.name!r}: {p.sentence!r} (focus {p.focus}: {p.blurb})")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code (0 ok, 2 bad input, 1 a bug in attnlab).

    Bad input is an AttnlabError, printed as its one line. Anything else is a bug: one line
    saying so (the traceback with ATTNLAB_TRACEBACK=1), never a wall of Python.
    """
    try:
        args = _parser().parse_args(argv)
    except SystemExit as stop:  # --help (0) or a usage error (2), already printed
        return stop.code if isinstance(stop.code, int) else EXIT_BAD_INPUT
    run: Callable[[argparse.Namespace], int] = args.run
    # the CLI's process is attnlab's own, as a server worker is: a model's pass keeps its freed
    # memory (models/memory.py: a 134-token MiniLM trace 1.06 s with it, 1.85-2.14 s without)
    keep_freed_memory()
    try:
        return run(args)
    except AttnlabError as exc:
        print(f"attnlab: {_one_line(exc)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # the safety net: a bug, said in one line
        if os.environ.get(TRACEBACK_ENV) == "1":
            raise
        print(
            f"attnlab: unexpected {type(exc).__name__}: {_one_line(exc)} (a bug in attnlab; "
            f"run again with {TRACEBACK_ENV}=1 to see where)",
            file=sys.stderr,
        )
        return EXIT_BUG


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:2000]


if __name__ == "__main__":
    sys.exit(main())
