"""The head atlas's speed: in this process against Dask with 1 and 2 local workers, same texts.

Side by side in one run, on the same 1,000 texts (WordNet's first glosses from Debian's
wordnet-base, or the paragraphs of a text file given as the first argument) through MiniLM, cut
into the same shards: texts and tokens per second for `--scheduler none` (the model loaded
before the clock starts) and for a `LocalCluster` of 1 and of 2 worker processes (the clock
includes starting the cluster and loading one model per worker, as a user waits for it; the
rate after the first shard is printed too). Then Dask's overhead per task (a task that does
nothing, round trip, on the 2-worker cluster), each worker's memory (resident set after the
run) and this process's, and the atlas file's size per million tokens against the float32
attention maps it replaces (L · H · n² · 4 bytes per text). The three atlases must be
identical (stats.py's exact merge): the script checks it.

Run: `python benchmarks/atlas.py [CORPUS] [--texts 1000] [--shards 20]` (needs the atlas extra).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from attnlab.atlas.corpus import Corpus, fit, read_corpus
from attnlab.atlas.file import Provenance, write_atlas
from attnlab.atlas.probes import AtlasModel
from attnlab.atlas.run import AtlasOptions, Progress, run_atlas, worker_model
from attnlab.atlas.stats import HeadSums

NOOP_TASKS = 200


def _noop(x: int) -> int:
    return x


def _rss() -> int:
    import psutil

    return int(psutil.Process(os.getpid()).memory_info().rss)


class Clock:
    """When each shard arrived, from the run's own progress reports."""

    def __init__(self) -> None:
        self.times: list[float] = []

    def __call__(self, p: Progress) -> None:
        self.times.append(p.seconds)


def timed(corpus, options: AtlasOptions) -> tuple[HeadSums, float, Clock, dict[str, int]]:  # type: ignore[no-untyped-def]
    clock = Clock()
    memory: dict[str, int] = {}
    t0 = time.perf_counter()
    if options.scheduler == "none":
        result = run_atlas(corpus, options, progress=clock).sums
        memory["this process (peak)"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    else:
        result = _on_cluster(corpus, options, clock, memory)
    return result, time.perf_counter() - t0, clock, memory


def _on_cluster(corpus, options, clock, memory):  # type: ignore[no-untyped-def]
    """run_atlas on a LocalCluster we start here, so the workers can be asked their memory."""
    from distributed import Client, LocalCluster

    t0 = time.perf_counter()
    with (
        LocalCluster(
            n_workers=options.workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        ) as cluster,
        Client(cluster) as client,
    ):
        memory["cluster start (s, ×1000)"] = int((time.perf_counter() - t0) * 1000)
        result = run_atlas(
            corpus, replace(options, scheduler=cluster.scheduler_address), progress=clock
        )
        for address, rss in sorted(client.run(_rss).items()):
            memory[f"worker {address.rsplit(':', 1)[-1]}"] = int(rss)
        if options.workers == 2:
            client.submit(_noop, -1, pure=False).result()  # warm
            t1 = time.perf_counter()
            futures = [client.submit(_noop, i, pure=False) for i in range(NOOP_TASKS)]
            client.gather(futures)
            memory["no-op task (µs)"] = int((time.perf_counter() - t1) / NOOP_TASKS * 1e6)
            t2 = time.perf_counter()
            for i in range(50):
                client.submit(_noop, 10_000 + i, pure=False).result()
            memory["no-op round trip (µs)"] = int((time.perf_counter() - t2) / 50 * 1e6)
    return result.sums


def piece_lengths(corpus, model) -> list[int]:  # type: ignore[no-untyped-def]
    """The token count n of every piece the run ran."""
    return [len(ids) for text in corpus.texts for _, ids in fit(model, text).pieces]


def atlas_file(
    path: Path, sums: HeadSums, *, model: AtlasModel, corpus: Corpus, options: AtlasOptions
) -> int:
    """Write the atlas file whose size is measured; its size in bytes."""
    prov = Provenance.of_run(sums, model=model, corpus=corpus, options=options)
    return write_atlas(path, sums, prov)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", nargs="?", default="wordnet")
    ap.add_argument("--texts", type=int, default=1000)
    ap.add_argument("--shards", type=int, default=20)
    ap.add_argument("--model", default="minilm")
    args = ap.parse_args()
    corpus = read_corpus(args.corpus).head(args.texts)
    model = worker_model(args.model)  # loaded before the in-process clock starts
    base = AtlasOptions(model=args.model, shards=args.shards)
    print(
        f"atlas benchmark: {model.name}, {len(corpus.texts):,} texts of {corpus.source}, "
        f"{args.shards} shards + 1 probe task, {os.cpu_count()} CPUs (load average "
        f"{os.getloadavg()[0]:.2f})"
    )
    runs = [
        ("in-process", replace(base, scheduler="none")),
        ("Dask, 1 worker", replace(base, scheduler="local", workers=1)),
        ("Dask, 2 workers", replace(base, scheduler="local", workers=2)),
    ]
    rows, atlases, memories = [], [], {}
    for label, options in runs:
        sums, wall, clock, memory = timed(corpus, options)
        atlases.append(sums)
        memories[label] = memory
        after_first = (
            (sums.texts_read * (len(clock.times) - 1) / len(clock.times))
            / (clock.times[-1] - clock.times[0])
            if len(clock.times) > 1 and clock.times[-1] > clock.times[0]
            else float("nan")
        )
        rows.append((label, wall, sums.texts_read / wall, sums.tokens / wall, after_first))
    same = all(a == atlases[0] for a in atlases[1:])
    sums = atlases[0]
    print()
    print(f"{'path':<17}{'wall s':>8}{'texts/s':>10}{'tokens/s':>11}{'texts/s after 1st':>19}")
    for label, wall, tps, tokps, after in rows:
        print(f"{label:<17}{wall:>8.1f}{tps:>10.1f}{tokps:>11,.0f}{after:>19.1f}")
    ref = rows[0][1]
    print(
        "wall time against in-process: "
        + ", ".join(f"{label} {wall / ref:.2f}×" for label, wall, *_ in rows[1:])
    )
    print(f"the three atlases identical: {same}")
    shards = args.shards + 1
    one = rows[1][1] - rows[0][1]
    print(
        f"Dask's overhead: a no-op task {memories['Dask, 2 workers']['no-op task (µs)']:,} µs "
        f"each when {NOOP_TASKS} are submitted together, "
        f"{memories['Dask, 2 workers']['no-op round trip (µs)']:,} µs submitted one by one; "
        f"1 worker's wall − in-process = {one:.1f} s over {shards} tasks "
        f"({one / shards * 1000:,.0f} ms a task, cluster start and model load included)"
    )
    print("memory (resident):")
    for label, memory in memories.items():
        parts = [
            f"{k} {v / 2**20:,.0f} MiB"
            for k, v in memory.items()
            if k.startswith(("worker", "this process"))
        ]
        start = memory.get("cluster start (s, ×1000)")
        extra = f", cluster start {start / 1000:.1f} s" if start is not None else ""
        print(f"  {label}: " + ", ".join(parts) + extra)
    with tempfile.TemporaryDirectory() as tmp:
        size = atlas_file(Path(tmp) / "a.parquet", sums, model=model, corpus=corpus, options=base)
    lengths = piece_lengths(corpus, model)
    c = model.config
    maps, tokens = sum(c.n_layers * c.n_heads * n * n * 4 for n in lengths), sum(lengths)
    per_m = 1e6 / tokens
    print(
        f"atlas file {size:,} bytes for {tokens:,} tokens = {size * per_m / 2**20:,.2f} MiB per "
        f"million tokens; the float32 attention maps it replaces {maps:,} bytes = "
        f"{maps * per_m / 2**30:,.2f} GiB per million tokens ({maps / size:,.0f}× the file; "
        f"the file's size does not grow with the corpus, the maps' does)"
    )
    print(
        f"tokens per piece: median {statistics.median(lengths):g}, largest {max(lengths)}; "
        f"{len(lengths):,} pieces, {sums.split} texts split, {sums.skipped} skipped"
    )


if __name__ == "__main__":
    main()
