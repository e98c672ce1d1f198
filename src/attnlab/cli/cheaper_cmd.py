"""`attnlab cheaper`: attention made cheaper, each form checked against the exact formula.

    attnlab cheaper toy "by the river bank" --focus bank --tile 2   the lab's four cards
    attnlab cheaper heads --model minilm --model smollm2 "text"     every real head: tiles, linear
    attnlab cheaper cache                                            KV cache per token per layer
    attnlab cheaper kv --model smollm2 "text" [--float64]            decoding on a cache = full
    attnlab cheaper windows [--text FILE] [--tokens 2048] [--windows 64,128] [--sinks 0,4]
                            [--csv OUT.csv] [--plot OUT.svg]        sliding windows and sinks

main.py registers it with one call, `add_cheaper_command(sub)`.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path
from typing import Any

from attnlab.errors import AttnlabError

__all__ = ["add_cheaper_command"]

WINDOWS_TEXT = Path("/usr/share/common-licenses/GPL-3")
"""The default long text: the GNU GPL version 3, on every Debian machine (base-files)."""
WINDOW_CACHE_AT = 2048
"""The text length at which `cheaper cache` says what Gemma 3's window saves."""
HEADS_TEXT = "The river bank was muddy after the rain, so we walked home along the water."


def add_cheaper_command(sub: Any) -> None:
    p = sub.add_parser(
        "cheaper", help="attention made cheaper: each form checked against the exact"
    )
    which = p.add_subparsers(dest="form", required=True, metavar="FORM")
    toy = which.add_parser("toy", help="the lab's four cards on the toy head")
    toy.add_argument("sentence", nargs="?", default="by the river bank")
    toy.add_argument("--focus", help="the token to follow (default: bank)")
    toy.add_argument("--tile", type=int, default=2,
                     help="keys per tile, 1 to the sentence's length")  # fmt: skip
    toy.add_argument("--causal", action="store_true", help="a decoder's mask")
    toy.add_argument("--json", action="store_true", help="print /api/cheaper's JSON")
    toy.set_defaults(run=_toy)
    heads = which.add_parser("heads", help="every head of real models: tiles and linear attention")
    heads.add_argument("text", nargs="?", default=HEADS_TEXT)
    heads.add_argument("--model", action="append", help="minilm, smollm2 or a folder (repeat)")
    heads.add_argument("--tile", type=int, default=16, help="keys per tile")
    heads.set_defaults(run=_heads)
    cache = which.add_parser("cache", help="key/value cache per token: MHA, GQA, MQA, MLA")
    cache.add_argument("--model", action="append", help="minilm, smollm2 or a folder (repeat)")
    cache.set_defaults(run=_cache)
    kv = which.add_parser("kv", help="decoding token by token on a cache against the whole pass")
    kv.add_argument("text", nargs="?", help="default: the page's short text (KV_TEXT)")
    kv.add_argument("--model", default="smollm2", help="a decoder: smollm2 or a Llama folder")
    kv.add_argument("--float64", action="store_true", help="also in float64 (1 GB more)")
    kv.set_defaults(run=_kv)
    win = which.add_parser("windows", help="next-token loss with sliding windows and sinks")
    win.add_argument("--text", type=Path, default=WINDOWS_TEXT, help="a text file to score")
    win.add_argument("--tokens", type=int, default=2048, help="its first N tokens (at most 2048)")
    win.add_argument("--windows", type=_counts, default=(64, 128, 256, 512, 1024),
                     help="window sizes w, comma-separated")  # fmt: skip
    win.add_argument("--sinks", type=_counts, default=(0, 4), help="sink counts s (0: none)")
    win.add_argument("--model", default="smollm2", help="a decoder: smollm2 or a Llama folder")
    win.add_argument("--csv", type=Path, help="also write the table as CSV here")
    win.add_argument("--plot", type=Path, help="also draw perplexity against w as SVG here")
    win.set_defaults(run=_windows)


def _counts(text: str) -> tuple[int, ...]:
    """ "64,128" -> (64, 128): whole numbers ≥ 0."""
    items = text.split(",")
    if any(not x.strip() for x in items):
        raise argparse.ArgumentTypeError(
            f"{text!r} has an empty item between commas: write whole numbers like 64,128"
        )
    try:
        values = tuple(int(x) for x in items)
    except ValueError:
        message = f"expected whole numbers like 64,128, got {text!r}"
        raise argparse.ArgumentTypeError(message) from None
    if not values or min(values) < 0:
        raise argparse.ArgumentTypeError(f"expected whole numbers ≥ 0 like 64,128, got {text!r}")
    return values


def _toy(args: argparse.Namespace) -> int:
    from attnlab.encode.cheaper_json import encode_cheaper
    from attnlab.encode.terminal_cheaper import toy_text
    from attnlab.lesson.cheaper_lab import cheaper_lab
    from attnlab.lesson.options import LessonOptions

    c = cheaper_lab(args.sentence, LessonOptions(causal=args.causal), focus=args.focus,
                    tile=args.tile)  # fmt: skip
    if args.json:
        print(json.dumps(encode_cheaper(c).model_dump(mode="json"), ensure_ascii=False))
    else:
        sys.stdout.write(toy_text(c))
    return 0


def _heads(args: argparse.Namespace) -> int:
    from attnlab.encode.terminal_cheaper import heads_text
    from attnlab.models import load_model
    from attnlab.models.cheaper_heads import check_heads

    if args.tile < 1:
        raise AttnlabError(f"--tile {args.tile}: a tile holds at least 1 key; give a whole "
                           "number of keys, e.g. --tile 16")  # fmt: skip
    names = args.model or ["minilm", "smollm2"]
    checks = [check_heads(load_model(n).trace(args.text), tile=args.tile) for n in names]
    sys.stdout.write(heads_text(checks))
    return 0


def _cache(args: argparse.Namespace) -> int:
    from attnlab.encode.terminal_cheaper import cache_text
    from attnlab.models.real_caches import CACHE_MODELS, real_caches
    from attnlab.words.window_words import window_cache_text

    rows, notes = [], []
    label = {"gguf": " (GGUF header)", "published": " (published)", "weights": ""}
    for c in real_caches(args.model or CACHE_MODELS):
        if c.missing is not None or c.n_layers is None:
            notes.append(c.missing or c.name)
            continue
        rows.append((c.name + label[c.source], c.n_layers, c.forms))
        if (g := c.window) is not None:
            notes.append(window_cache_text(
                g.name, n=WINDOW_CACHE_AT, window=g.window, local=sum(g.local), layers=g.n_layers,
                full=g.bytes_at(WINDOW_CACHE_AT, windowed=False),
                windowed=g.bytes_at(WINDOW_CACHE_AT),
            ))  # fmt: skip
    sys.stdout.write(cache_text(rows, notes))
    return 0


def _kv(args: argparse.Namespace) -> int:
    from attnlab.encode.cheaper_models_json import KV_TEXT
    from attnlab.encode.terminal_cheaper import kv_text
    from attnlab.models import load_model
    from attnlab.models.kv_decode import check_cache, widened
    from attnlab.models.llama import LlamaDecoder

    model = load_model(args.model)
    if not isinstance(model, LlamaDecoder):
        raise AttnlabError(f"{args.model} is not a decoder: a key/value cache needs a causal mask")
    text = KV_TEXT if args.text is None else args.text
    c = check_cache(model, text)
    c64 = check_cache(widened(model), text) if args.float64 else None
    sys.stdout.write(kv_text(c, c64))
    return 0


def _windows(args: argparse.Namespace) -> int:
    from attnlab.encode.terminal_cheaper import windows_rows, windows_text
    from attnlab.encode.window_plot import plot_layout, plot_svg
    from attnlab.models import load_model
    from attnlab.models.decoder import Decoder
    from attnlab.models.default_ids import default_encoding
    from attnlab.models.sliding_windows import Scheme, window_table
    from attnlab.words.grammar import counted
    from attnlab.words.window_words import TABLE_HEADER, full_window_notes, progress_text

    if 0 in args.windows:
        raise AttnlabError("a window holds at least 1 key: --windows takes numbers ≥ 1")
    if args.tokens < 2:
        raise AttnlabError(f"--tokens {args.tokens}: a next-token loss needs at least 2 tokens "
                           "(the default is 2048)")  # fmt: skip
    try:
        text = args.text.read_text(encoding="utf-8")
    except OSError as exc:
        raise AttnlabError(f"cannot read the text {str(args.text)!r}: {exc.strerror}") from None
    model = load_model(args.model)
    if not isinstance(model, Decoder):
        raise AttnlabError(f"{args.model} is not a decoder: a next-token loss needs one")
    ids = default_encoding(model.tokenizer, text).ids[: args.tokens]
    if len(ids) < 2:
        raise AttnlabError(f"{str(args.text)!r} holds only {counted(len(ids), 'token')}: a "
                           "next-token loss needs at least 2")  # fmt: skip

    def progress(index: int, count: int, scheme: Scheme) -> None:
        print(progress_text(index, count, scheme.name, len(ids)), file=sys.stderr, flush=True)

    rows = window_table(model, ids, args.windows, args.sinks, progress=progress)
    sys.stdout.write(windows_text(rows, model=model.name, source=args.text.name))
    for line in full_window_notes(args.windows, len(ids)):
        print(line)
    if args.csv is not None:
        with args.csv.open("w", newline="", encoding="utf-8") as f:
            out = csv.writer(f)
            out.writerow(TABLE_HEADER)
            out.writerows(windows_rows(rows))
    if args.plot is not None:
        args.plot.write_text(plot_svg(plot_layout(rows)), encoding="utf-8")
    return 0
