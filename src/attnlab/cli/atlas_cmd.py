"""`attnlab atlas`: what every head of a model does across a corpus (atlas/), and its ranking.

    attnlab atlas CORPUS --model NAME -o ATLAS [--scheduler local|none|ADDRESS] [--workers N]
    attnlab atlas show ATLAS [--statistic NAME] [--top N] [--html FILE]
    attnlab atlas --probe sinks --model NAME

CORPUS is a UTF-8 text file (a text per paragraph, or per line with --unit line) or "wordnet"
(Debian's wordnet-base). Finished shards go to ATLAS.parts/ as they complete, so the same command
run again after a stop computes only what is missing. main.py registers it with one call,
`add_atlas_command(sub)`.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from attnlab.errors import AttnlabError

__all__ = ["add_atlas_command"]


def add_atlas_command(sub: Any) -> None:
    p = sub.add_parser("atlas", help="what every head does across a corpus (on Dask by default)")
    p.add_argument(
        "paths",
        nargs="*",
        metavar="CORPUS",
        help="a UTF-8 text file or 'wordnet'; or 'show ATLAS' to print a ranking",
    )
    p.add_argument("--model", default=None, help="minilm, smollm2, patterns or a folder")
    p.add_argument("-o", "--output", help="the atlas file to write (Parquet)")
    p.add_argument(
        "--scheduler",
        default="local",
        help="local (a LocalCluster, the default), none (this process) or the address "
        "of a running Dask scheduler, tcp://HOST:8786",
    )
    p.add_argument("--workers", type=int, default=2, help="worker processes of a local cluster")
    p.add_argument("--shards", type=int, help="how many shards (default: one per 100 texts)")
    p.add_argument("--limit", type=int, help="only the first N texts of the corpus")
    p.add_argument(
        "--unit",
        choices=("paragraph", "line"),
        default="paragraph",
        help="a text file's texts: paragraphs (blank-line separated) or lines",
    )
    p.add_argument(
        "--long",
        choices=("split", "skip"),
        default="split",
        help="texts over the model's limit: split at spaces (default) or skipped",
    )
    p.add_argument("--top-k", type=int, default=3, help="exemplars kept per head and statistic")
    p.add_argument("--probe", choices=("sinks",), help="run Gu et al.'s sinks probe instead")
    p.add_argument("--statistic", help="with show: every head of one statistic")
    p.add_argument(
        "--top",
        type=int,
        help="with show: heads per statistic (default 5, or every head with --statistic)",
    )
    p.add_argument(
        "--html",
        metavar="FILE",
        help="with show: also save the Atlas view as one offline HTML file",
    )
    p.set_defaults(run=_atlas)


def _atlas(args: argparse.Namespace) -> int:
    if args.probe == "sinks":
        return _sinks(args)
    if args.paths[:1] == ["show"]:
        if len(args.paths) != 2:
            raise AttnlabError("attnlab atlas show takes one atlas file: attnlab atlas show ATLAS")
        return _show(args, args.paths[1])
    if len(args.paths) != 1:
        raise AttnlabError(
            "attnlab atlas takes one corpus: attnlab atlas CORPUS --model NAME "
            "-o ATLAS (a text file or 'wordnet')",
            field="corpus",
        )
    if args.model is None or args.output is None:
        raise AttnlabError(
            "attnlab atlas CORPUS needs --model NAME and -o ATLAS",
            field="model" if args.model is None else "output",
        )
    return _run(args, args.paths[0])


def _run(args: argparse.Namespace, source: str) -> int:
    from attnlab.atlas.atlas_errors import AtlasStopped
    from attnlab.atlas.corpus import read_corpus
    from attnlab.atlas.file import Provenance, write_atlas
    from attnlab.atlas.run import AtlasOptions, run_atlas, worker_model
    from attnlab.words.atlas_words import ATLAS_WORDS as W
    from attnlab.words.atlas_words import atlas_line

    options = AtlasOptions(
        model=args.model,
        shards=args.shards,
        top_k=args.top_k,
        long=args.long,
        scheduler=args.scheduler,
        workers=args.workers,
    )
    corpus = read_corpus(source, unit=args.unit).head(args.limit)
    model = worker_model(args.model)  # a bad name fails here, before a cluster starts
    out = Path(args.output)
    store = out.with_name(out.name + ".parts")
    bar = _Bar()
    try:
        result = run_atlas(
            corpus,
            options,
            store=store,
            progress=bar,
            dashboard=lambda link: print(W["dashboard"].format(link=link), file=sys.stderr),
            resumed=lambda read, todo: print(
                atlas_line("resumed", loaded=read, shards=read + todo, store=store, todo=todo),
                file=sys.stderr,
            ),
        )
    except AtlasStopped as stop:
        bar.close(stopped=True)
        print(
            atlas_line("stopped", kept=stop.kept, shards=stop.shards, store=store),
            file=sys.stderr,
        )
        return 130
    bar.close()
    sums = result.sums
    prov = Provenance.of_run(sums, model=model, corpus=corpus, options=options)
    size = write_atlas(out, sums, prov)
    if sums.split or sums.skipped:
        print(
            atlas_line(
                "long",
                split=sums.split,
                skipped=sums.skipped,
                model=model.name,
                limit=model.max_tokens,
            ),
            file=sys.stderr,
        )
    print(
        atlas_line(
            "wrote",
            path=out,
            size=size,
            layers=sums.n_layers,
            heads=sums.n_heads,
            texts=sums.texts_read,
            tokens=sums.tokens,
            shards=result.computed + result.loaded,
            computed=result.computed,
            loaded=result.loaded,
            seconds=result.seconds,
        ),
        file=sys.stderr,
    )
    return 0


class _Bar:
    """The progress line on stderr: rewritten in place on a terminal, a line per 2 s elsewhere."""

    def __init__(self) -> None:
        self.tty = sys.stderr.isatty()
        self.last = 0.0
        self.shown = False

    def __call__(self, p: Any) -> None:
        from attnlab.words.atlas_words import atlas_line

        if p.loaded:  # read from an earlier run: the "resumed" line has said so
            return
        now = time.monotonic()
        final = p.shards_done == p.shards
        if not (self.tty or final or now - self.last >= 2.0):
            return
        self.last = now
        rate = max(p.seconds, 1e-9)
        line = atlas_line(
            "progress",
            done=p.shards_done,
            shards=p.shards,
            read=p.texts,
            total=p.texts_total,
            tps=p.texts_run / rate,
            tokps=p.tokens_run / rate,
        )
        sys.stderr.write(("\r" + line) if self.tty else line + "\n")
        sys.stderr.flush()
        self.shown = True

    def close(self, *, stopped: bool = False) -> None:
        if self.tty and (self.shown or stopped):
            sys.stderr.write("\n")


def _show(args: argparse.Namespace, path: str) -> int:
    from attnlab.atlas.file import read_atlas
    from attnlab.atlas.ranking import render_ranking
    from attnlab.atlas.stats import STATISTICS

    if args.statistic is not None and args.statistic not in STATISTICS:
        raise AttnlabError(
            f"unknown statistic {args.statistic!r}: choose one of {', '.join(STATISTICS)}",
            field="statistic",
        )
    if args.top is not None and args.top < 1:
        raise AttnlabError(f"--top must be 1 or more, got {args.top}", field="top")
    sums, prov = read_atlas(path)
    columns = shutil.get_terminal_size((100, 24)).columns
    sys.stdout.write(
        render_ranking(sums, prov, top=args.top, statistic=args.statistic, columns=columns)
    )
    if args.html is not None:
        from attnlab.atlas.atlas_view import atlas_view
        from attnlab.export.standalone import atlas_html

        page = atlas_html(atlas_view(sums, prov, name=Path(path).stem))
        try:
            Path(args.html).write_text(page, encoding="utf-8")
        except OSError as exc:
            raise AttnlabError(
                f"cannot write {args.html!r}: {exc.strerror}", field="html"
            ) from None
        print(f"attnlab: wrote the Atlas view to {args.html} ({len(page.encode()):,} bytes)")
    return 0


def _sinks(args: argparse.Namespace) -> int:
    from attnlab.atlas.measures import EPSILON
    from attnlab.atlas.probes import sinks_probe
    from attnlab.atlas.run import worker_model
    from attnlab.words.atlas_words import ATLAS_WORDS as W
    from attnlab.words.atlas_words import atlas_line

    if args.model is None:
        raise AttnlabError("attnlab atlas --probe sinks needs --model NAME", field="model")
    if args.paths or args.output is not None:
        given = " and ".join(
            ([f"the corpus {' '.join(args.paths)!r}"] if args.paths else [])
            + ([f"-o {args.output}"] if args.output is not None else [])
        )
        raise AttnlabError(
            f"attnlab atlas --probe sinks runs Gu et al.'s own three inputs and prints a table: "
            f"it takes no corpus and writes no file, so drop {given} (an atlas of a corpus: "
            "attnlab atlas CORPUS --model NAME -o ATLAS)",
            field="probe",
        )
    model = worker_model(args.model)
    rows = sinks_probe(model)
    c = model.config
    print(
        atlas_line(
            "sinks_title", model=model.name, layers=c.n_layers, heads=c.n_heads, epsilon=EPSILON
        )
    )
    print(W["sinks_columns"])
    for r in rows:
        print(
            W["sinks_row"].format(
                input=W[f"sinks_inputs.{r.input}"],
                tokens=r.tokens,
                samples=r.samples,
                share=r.sink_share,
                alpha=r.mean_first,
            )
        )
    return 0
