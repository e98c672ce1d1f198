"""The lab's options on `attnlab explain`, and `attnlab cost`.

main.py registers these with two calls (`add_lab_arguments`, `add_cost_command`) and builds the
lesson's one `LessonOptions` with `lab_options(args)`; encode/terminal_lab.py prints what the
options add after the six beats.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from attnlab.core.cost import DEFAULT_MAX_N, MAX_D, MAX_N, KVCacheCost
from attnlab.core.positions import KINDS
from attnlab.core.saturation import T_STEPS, Sweep, sweep, temperatures
from attnlab.encode.lesson_json import encode_lesson
from attnlab.encode.terminal import table
from attnlab.encode.trace_json import encode_cost, encode_sweep
from attnlab.errors import AttnlabError, FocusError
from attnlab.lesson.edits import Edits, Role
from attnlab.lesson.explain import LessonExplanation
from attnlab.lesson.options import LessonOptions
from attnlab.lesson.toy import DIM_NAMES, focus_index, tokenize

__all__ = [
    "add_cost_command",
    "add_lab_arguments",
    "lab_cell",
    "lab_json",
    "lab_options",
    "lab_sweep",
]

MIN_N = 4
"""`attnlab cost` measures n = 4, 8, 16, … up to --max-n."""
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


def lab_options(args: argparse.Namespace) -> LessonOptions:
    """The one options object for `explain_lesson`, built from the parsed arguments."""
    specs = {role: getattr(args, flag[2:].replace("-", "_")) for flag, role, _ in _SETS}
    return LessonOptions(
        mode=args.mode,
        axis=args.axis,
        temperature=args.temperature,
        positions=args.positions,
        causal=args.causal,
        heads=args.heads,
        shuffle=args.shuffle,
        edits=Edits.parse(specs, dim_names=DIM_NAMES),
    )


def lab_cell(args: argparse.Namespace) -> tuple[int, int] | None:
    """The cell --read names, checked against the sentence before anything is printed."""
    if not args.read:
        return None
    tokens = tokenize(args.sentence)
    return _cell(args.read, tokens, tokens)


def lab_sweep(ex: LessonExplanation, args: argparse.Namespace, *, rows: int) -> Sweep | None:
    """The focus row across temperatures when --sweep was given (`rows` of them)."""
    return sweep(ex.trace, ex.focus, ts=temperatures(steps=rows)) if args.sweep else None


def lab_json(ex: LessonExplanation, args: argparse.Namespace) -> dict[str, Any]:
    """The lesson's JSON, plus "sweep" (41 temperatures) when --sweep was given."""
    d = encode_lesson(ex)
    s = lab_sweep(ex, args, rows=T_STEPS)
    if s is not None:
        d["sweep"] = encode_sweep(s)
    return d


def _cell(spec: str, rows: tuple[str, ...], cols: tuple[str, ...]) -> tuple[int, int]:
    parts = [p.strip().lower() for p in spec.split(",")]
    if len(parts) != 2:
        raise FocusError(f"--read takes ROW,COL (words or indices), got {spec!r}")
    try:
        return focus_index(rows, parts[0]), focus_index(cols, parts[1])
    except FocusError as exc:
        raise FocusError(f"--read {spec!r}: {exc}") from None


def add_cost_command(sub: Any) -> None:
    """`attnlab cost`: time and memory of attention against n, with the fitted n² curve."""
    c = sub.add_parser("cost", help="time and memory of attention for n = 4 .. a few thousand")
    c.add_argument(
        "--max-n", type=int, default=DEFAULT_MAX_N,
        help=f"the largest n, {MIN_N} to {MAX_N} (default {DEFAULT_MAX_N})",
    )  # fmt: skip
    c.add_argument("--d", type=int, default=64, help=f"the vector width, 1 to {MAX_D} (default 64)")
    c.add_argument("--json", action="store_true", help="print the points and fit as JSON")
    c.set_defaults(run=_cost)


def _cost(args: argparse.Namespace) -> int:
    from attnlab.core.cost import KV_SIZES, measure, measure_kv_cache, sizes

    if not MIN_N <= args.max_n <= MAX_N:
        raise AttnlabError(f"--max-n must be {MIN_N} to {MAX_N}, got {args.max_n}", field="max_n")
    if not 1 <= args.d <= MAX_D:
        raise AttnlabError(f"--d must be 1 to {MAX_D}, got {args.d}", field="d")
    cost = measure(sizes(args.max_n, min_n=MIN_N, per_octave=1), d=args.d)
    # the cache table honours --max-n too: its sizes up to it (below 128, --max-n alone)
    kv = measure_kv_cache(tuple(n for n in KV_SIZES if n <= args.max_n) or (args.max_n,), d=args.d)
    if args.json:
        print(json.dumps(encode_cost(cost, kv)))
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
    print()
    print(kv_cache_text(kv))
    return 0


def kv_cache_text(kv: KVCacheCost) -> str:
    """The key/value-cache table: one more token after n, recomputed or one cached row."""
    rows = [
        [str(int(n)), f"{full * 1e3:.3f} ms", f"{row * 1e6:.1f} µs", f"{r:.0f}×",
         f"{ff / cf:.0f}×", f"{fb / 2**20:.2f} MiB", f"{cb / 2**10:.1f} KiB"]
        for n, full, row, r, ff, cf, fb, cb in zip(
            kv.n, kv.recompute_seconds, kv.cached_seconds, kv.ratio, kv.recompute_flops,
            kv.cached_flops, kv.recompute_bytes, kv.cached_bytes, strict=True)
    ]  # fmt: skip
    head = ["n", "recompute n×n", "cached row", "measured ratio", "FLOP ratio",
            "bytes n×n", "bytes row"]  # fmt: skip
    lines = [
        f"one more token after n, d = {kv.d}: recompute softmax(QKᵀ/√dₖ)V for every row, or "
        "one new query row against n cached keys and values",
        *table(head, rows),
        "model: recompute 4·n²·d + 5·n² FLOPs, cached row 4·n·d + 5·n; "
        "bytes 4·(4·n·d + 2·n²) and 4·(2·n·d + 2·d + 2·n)",
    ]
    if not kv.complete:
        lines.append(
            f"(stopped at n = {int(kv.n[-1])}: the {kv.budget_seconds:g} s budget ran out)"
        )
    return "\n".join(lines)
