"""Running the atlas: shards of a corpus as tasks, in this process or on dask.distributed.

`run_atlas(corpus, options)` cuts the corpus into shards (contiguous runs of texts), computes
each shard's `HeadSums` (one model per process, loaded once: `worker_model` is cached), writes a
finished shard to `store` as it completes, and merges the shards in a tree (pairs, then pairs of
pairs). The probes are one more task. Because the merge is exact (stats.py), the atlas is the
same for any shard count and any scheduler.

Schedulers (`AtlasOptions.scheduler`): "none" computes here, shard after shard; "local" starts a
`distributed.LocalCluster` of `workers` processes, one thread each; any other value is the
address of a running scheduler (`tcp://host:8786`). On a cluster a shard is a task with a fixed
key: when a worker dies Dask runs its task again elsewhere, and the shard is counted once, when
its result arrives. A job stopped and started again with the same store reads the shards it has
and computes only the others.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from attnlab.atlas.atlas_errors import AtlasStopped, SchedulerError
from attnlab.atlas.corpus import Corpus, LongTexts, fit
from attnlab.atlas.measures import EPSILON, text_sums
from attnlab.atlas.probes import AtlasModel, induction_sums
from attnlab.atlas.stats import HeadSums
from attnlab.errors import AttnlabError

__all__ = [
    "AtlasOptions",
    "Progress",
    "RunResult",
    "Shard",
    "run_atlas",
    "shard_sums",
    "worker_model",
]

VERSION = 2
"""The atlas's format and arithmetic: a store of another version is not resumed. 2: texts under
measures.MIN_EXEMPLAR_TOKENS tokens are no exemplars."""
MAX_PIECES = 2**16
"""A text's pieces have uids text · MAX_PIECES + piece."""
CONNECT_TIMEOUT = 5.0


@dataclass(frozen=True)
class AtlasOptions:
    """Every knob of a run, checked once, passed whole (a variant: dataclasses.replace)."""

    model: str = "minilm"
    shards: int | None = None  # None: one shard per `shard_size` texts
    shard_size: int = 100
    top_k: int = 3
    epsilon: float = EPSILON
    long: LongTexts = "split"
    probes: int = 8  # induction probes, each 2 × probe_length tokens
    probe_length: int = 24
    scheduler: str = "local"  # "none", "local" or a scheduler's address
    workers: int = 2

    def __post_init__(self) -> None:
        for name in ("shard_size", "top_k", "probe_length", "workers"):
            if getattr(self, name) < 1:
                raise AttnlabError(
                    f"{name} must be 1 or more, got {getattr(self, name)}", field=name
                )
        if self.shards is not None and self.shards < 1:
            raise AttnlabError(f"--shards must be 1 or more, got {self.shards}", field="shards")
        if self.probes < 0:
            raise AttnlabError(f"probes must be 0 or more, got {self.probes}", field="probes")
        if not 0 < self.epsilon < 1:
            raise AttnlabError(f"ε must be between 0 and 1, got {self.epsilon}", field="epsilon")
        if self.long not in ("split", "skip"):
            raise AttnlabError(f"long texts are 'split' or 'skip', got {self.long!r}", field="long")

    def arithmetic(self) -> dict[str, Any]:
        """What changes a shard's sums: the store's key (not the scheduler or worker count)."""
        keep = ("model", "top_k", "epsilon", "long", "probes", "probe_length")
        return {k: v for k, v in asdict(self).items() if k in keep}


@dataclass(frozen=True)
class Shard:
    """Texts start … start + len(texts) − 1 of the corpus."""

    index: int
    start: int
    texts: tuple[str, ...]


@dataclass(frozen=True)
class Progress:
    """What the progress bar shows after a shard: counts so far and the time since the start."""

    shards_done: int
    shards: int
    texts: int
    texts_total: int
    tokens: int
    seconds: float
    loaded: bool  # this shard was read from the store, not computed
    texts_run: int  # texts and tokens computed by this run (the rates' numerators)
    tokens_run: int


@dataclass(frozen=True)
class RunResult:
    """The atlas's sums and how the run went."""

    sums: HeadSums
    computed: int  # shards computed by this run
    loaded: int  # shards read from the store (a resumed job)
    seconds: float
    dashboard: str | None = None


@cache
def worker_model(name: str) -> AtlasModel:
    """The model `name`, loaded once per process: each Dask worker keeps its own."""
    from attnlab.atlas.patterns import PatternModel

    if name == "patterns":
        return PatternModel()
    if name == "patterns-slow":
        return PatternModel(name=name, delay=0.02)
    from attnlab.models import load_model

    model: AtlasModel = load_model(name)  # type: ignore[assignment]
    return model


@contextmanager
def _one_blas_thread() -> Iterator[None]:
    """BLAS on one thread while a shard runs: the same products in every process, and no two
    workers' BLAS threads fighting for the two cores."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        yield
        return
    with threadpool_limits(limits=1, user_api="blas"):
        yield


def shard_sums(shard: Shard, options: AtlasOptions) -> HeadSums:
    """One shard's statistics: every text fitted to the model, run, measured, merged."""
    model = worker_model(options.model)
    c = model.config
    sums = HeadSums.empty(c.n_layers, c.n_heads, top_k=options.top_k)
    with _one_blas_thread():
        for offset, text in enumerate(shard.texts):
            fitted = fit(model, text, long=options.long)
            for piece, (piece_text, ids) in enumerate(fitted.pieces):
                a = model.trace_ids(ids).attentions  # (L, H, n, n)
                uid = (shard.start + offset) * MAX_PIECES + piece
                sums = sums.merge(
                    text_sums(
                        a,
                        ids,
                        uid=uid,
                        text=piece_text,
                        top_k=options.top_k,
                        epsilon=options.epsilon,
                    )
                )
            sums = sums.merge(_counted(sums, split=fitted.split, skipped=fitted.skipped))
    return sums


def _counted(like: HeadSums, *, split: bool, skipped: bool) -> HeadSums:
    empty = HeadSums.empty(like.n_layers, like.n_heads, top_k=like.top_k)
    return HeadSums(
        totals=empty.totals,
        counts=empty.counts,
        histogram=empty.histogram,
        ex_value=empty.ex_value,
        ex_uid=empty.ex_uid,
        ex_position=empty.ex_position,
        texts_read=1,
        split=int(split),
        skipped=int(skipped),
    )


def probe_sums(options: AtlasOptions) -> HeadSums:
    """The induction probes' statistics, one task of their own."""
    model = worker_model(options.model)
    with _one_blas_thread():
        return induction_sums(
            model, count=options.probes, length=options.probe_length, top_k=options.top_k
        )


def shards_of(corpus: Corpus, options: AtlasOptions) -> tuple[Shard, ...]:
    """The corpus cut into `options.shards` runs of texts (or runs of `shard_size`)."""
    n = len(corpus.texts)
    count = options.shards if options.shards is not None else -(-n // options.shard_size)
    count = max(1, min(count, n))
    bounds = [n * i // count for i in range(count + 1)]
    return tuple(
        Shard(i, a, corpus.texts[a:b]) for i, (a, b) in enumerate(itertools.pairwise(bounds))
    )


T = TypeVar("T")


def tree_merge(parts: Sequence[T], merge: Callable[[T, T], T]) -> T:
    """parts merged in pairs, then pairs of pairs: log₂ levels (the order is the parts')."""
    level = list(parts)
    while len(level) > 1:
        pairs = [merge(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        level = pairs + ([level[-1]] if len(level) % 2 else [])
    return level[0]


class Store:
    """Finished shards on disk: one .npz each under a folder named by the run's arithmetic."""

    def __init__(self, root: Path, corpus: Corpus, options: AtlasOptions, shards: int):
        key = {
            "version": VERSION,
            "corpus": corpus.digest,
            "shards": shards,
            "shard_size": options.shard_size,
            **options.arithmetic(),
        }
        digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]
        self.folder = root / digest
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "run.json").write_text(json.dumps(key, indent=1, sort_keys=True))

    def path(self, name: str) -> Path:
        return self.folder / f"{name}.npz"

    def read(self, name: str) -> HeadSums | None:
        p = self.path(name)
        if not p.is_file():
            return None
        try:
            return HeadSums.from_bytes(p.read_bytes())
        except (ValueError, KeyError, OSError):
            return None  # a torn or foreign file: computed again

    def write(self, name: str, sums: HeadSums) -> None:
        tmp = self.folder / f".{name}.{os.getpid()}.tmp"
        tmp.write_bytes(sums.to_bytes())
        os.replace(tmp, self.path(name))  # atomic: a stop leaves the old file or the new


def _name(shard: Shard) -> str:
    return f"shard-{shard.index:05d}"


def run_atlas(
    corpus: Corpus,
    options: AtlasOptions,
    *,
    store: Path | None = None,
    progress: Callable[[Progress], None] | None = None,
    dashboard: Callable[[str], None] | None = None,
    resumed: Callable[[int, int], None] | None = None,
) -> RunResult:
    """The corpus's atlas sums under `options`; shards kept in `store` (a folder) when given.

    `resumed(read, to_compute)` is called first when the store already has shards; with every
    shard and the probes there, nothing is started (no cluster): the sums are merged here."""
    shards = shards_of(corpus, options)
    kept = Store(store, corpus, options, len(shards)) if store is not None else None
    have: dict[str, HeadSums] = {}
    if kept is not None:
        for name in [_name(s) for s in shards] + ["probes"]:
            found = kept.read(name)
            if found is not None:
                have[name] = found
    start = time.perf_counter()
    tally = _Tally(len(shards), len(corpus.texts), start, progress)
    for s in shards:
        if _name(s) in have:
            tally.add(have[_name(s)], loaded=True)
    todo = [s for s in shards if _name(s) not in have]
    if resumed is not None and len(todo) < len(shards):
        resumed(len(shards) - len(todo), len(todo))
    try:
        if options.scheduler == "none" or not (todo or "probes" not in have):
            result = _in_process(todo, options, have, kept, tally)
            link = None
        else:
            with _quiet_dask(), _client(options) as client:
                link = _dashboard_link(client)
                if dashboard is not None and link:
                    dashboard(link)
                result = _on_cluster(client, todo, options, have, kept, tally)
    except KeyboardInterrupt:
        saved = sum(kept.path(_name(s)).is_file() for s in shards) if kept is not None else 0
        raise AtlasStopped(kept=saved, shards=len(shards), store=store) from None
    return RunResult(result, len(todo), len(shards) - len(todo), time.perf_counter() - start, link)


class _Tally:
    def __init__(
        self, shards: int, texts: int, start: float, report: Callable[[Progress], None] | None
    ):
        self.shards, self.texts_total, self.start, self.report = shards, texts, start, report
        self.done = self.texts = self.tokens = self.texts_run = self.tokens_run = 0

    def add(self, sums: HeadSums, *, loaded: bool) -> None:
        self.done += 1
        self.texts += sums.texts_read
        self.tokens += sums.tokens
        if not loaded:
            self.texts_run += sums.texts_read
            self.tokens_run += sums.tokens
        if self.report is not None:
            self.report(
                Progress(
                    self.done,
                    self.shards,
                    self.texts,
                    self.texts_total,
                    self.tokens,
                    time.perf_counter() - self.start,
                    loaded,
                    self.texts_run,
                    self.tokens_run,
                )
            )


def _in_process(
    todo: Sequence[Shard],
    options: AtlasOptions,
    have: dict[str, HeadSums],
    kept: Store | None,
    tally: _Tally,
) -> HeadSums:
    for s in todo:
        sums = shard_sums(s, options)
        if kept is not None:
            kept.write(_name(s), sums)
        have[_name(s)] = sums
        tally.add(sums, loaded=False)
    if "probes" not in have:
        have["probes"] = probe_sums(options)
        if kept is not None:
            kept.write("probes", have["probes"])
    return tree_merge([have[k] for k in sorted(have)], HeadSums.merge)


def _merge(a: HeadSums, b: HeadSums) -> HeadSums:
    return a.merge(b)


def _on_cluster(
    client: Any,
    todo: Sequence[Shard],
    options: AtlasOptions,
    have: dict[str, HeadSums],
    kept: Store | None,
    tally: _Tally,
) -> HeadSums:
    from distributed import as_completed

    tag = hashlib.sha256(repr(options.arithmetic()).encode()).hexdigest()[:8]
    futures = {
        client.submit(shard_sums, s, options, key=f"atlas-{tag}-{_name(s)}", pure=False): _name(s)
        for s in todo
    }
    if "probes" not in have:
        futures[client.submit(probe_sums, options, key=f"atlas-{tag}-probes", pure=False)] = (
            "probes"
        )
    parts: dict[str, Any] = dict(have)
    for future in as_completed(list(futures)):
        name = futures[future]
        sums = future.result()  # a lost worker's task was run again by Dask: one result
        if kept is not None:
            kept.write(name, sums)
        parts[name] = future  # the merge tree reads it where it already is
        if name != "probes":
            tally.add(sums, loaded=False)
    ordered = [parts[k] for k in sorted(parts)]
    root = tree_merge(ordered, lambda a, b: client.submit(_merge, a, b, pure=False))
    result: HeadSums = root.result() if hasattr(root, "result") else root
    return result


@contextmanager
def _client(options: AtlasOptions) -> Iterator[Any]:
    """A Client on a new LocalCluster ("local") or on the scheduler at the given address."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise SchedulerError(
            "the atlas on Dask needs the atlas extra (distributed is missing): "
            "pip install 'attnlab[atlas]', or use --scheduler none"
        ) from None
    if options.scheduler == "local":
        dashboard = "127.0.0.1:0" if _has_bokeh() else None
        with (
            _workers_ignore_ctrl_c(),
            LocalCluster(
                n_workers=options.workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=dashboard,
            ) as cluster,
            _restored_ctrl_c(),
            Client(cluster) as client,
        ):
            yield client
        return
    _check_scheduler(options.scheduler)
    try:
        client = Client(options.scheduler, timeout=CONNECT_TIMEOUT)
    except Exception as exc:  # a listener that is not a scheduler
        raise _not_a_scheduler(options.scheduler, exc) from None
    with client:
        yield client


def _not_a_scheduler(address: str, exc: BaseException | str) -> SchedulerError:
    from attnlab.words.atlas_words import atlas_line

    why = exc if isinstance(exc, str) else f"{type(exc).__name__}: {exc}"
    return SchedulerError(
        atlas_line(
            "no_scheduler",
            address=address,
            seconds=CONNECT_TIMEOUT,
            why=" ".join(why.split())[:120],
        )
    )


async def _identity(address: str) -> Any:
    from distributed.core import rpc

    async with rpc(address, timeout=CONNECT_TIMEOUT) as remote:
        return await remote.identity()


def _check_scheduler(address: str) -> None:
    """Ask `address` who it is, the whole handshake bounded by CONNECT_TIMEOUT: a port that
    accepts and says nothing (an HTTP server, the dashboard) or answers garbage (a reply
    that decodes as a 3 EiB frame) is "not a Dask scheduler", never a hang or a bug."""
    import asyncio

    try:
        reply = asyncio.run(asyncio.wait_for(_identity(address), CONNECT_TIMEOUT))
    except TimeoutError:
        raise _not_a_scheduler(address, "no answer to Dask's handshake") from None
    except Exception as exc:  # garbage replies: MemoryError, decode errors
        raise _not_a_scheduler(address, exc) from None
    if not (isinstance(reply, dict) and reply.get("type") == "Scheduler"):
        raise _not_a_scheduler(address, f"it answers as {str(reply)[:40]!r}")


@contextmanager
def _quiet_dask() -> Iterator[None]:
    """Dask's own log at ERROR while the atlas runs, here and in the workers it starts (their
    processes read DASK_LOGGING__DISTRIBUTED): a stop or a lost worker is the atlas's to say."""
    import logging

    logger = logging.getLogger("distributed")
    level, env = logger.level, os.environ.get("DASK_LOGGING__DISTRIBUTED")
    logger.setLevel(logging.ERROR)
    os.environ["DASK_LOGGING__DISTRIBUTED"] = "error"
    try:
        yield
    finally:
        logger.setLevel(level)
        if env is None:
            os.environ.pop("DASK_LOGGING__DISTRIBUTED", None)
        else:
            os.environ["DASK_LOGGING__DISTRIBUTED"] = env


@contextmanager
def _workers_ignore_ctrl_c() -> Iterator[None]:
    """SIGINT ignored while the LocalCluster spawns its processes, which inherit that: a Ctrl-C
    to the terminal's process group stops this process only, and it closes the cluster (no
    worker's KeyboardInterrupt traceback). _restored_ctrl_c gives this process its Ctrl-C back."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


@contextmanager
def _restored_ctrl_c() -> Iterator[None]:
    import signal
    import threading

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield


def _has_bokeh() -> bool:
    import importlib.util

    return importlib.util.find_spec("bokeh") is not None


def _dashboard_link(client: Any) -> str | None:
    try:
        link = client.dashboard_link
    except (AttributeError, KeyError):
        return None
    return str(link) if link else None
