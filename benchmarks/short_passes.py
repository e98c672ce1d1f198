"""Short passes (6, 16 and 32 tokens), idle and on a busy machine: attnlab vs transformers.

A laptop runs a browser beside the kernel; a classroom server answers many requests at once. So
every model here runs its short passes twice, once with the machine as it is ("idle": no load of
ours) and once with two busy processes of ours spinning NumPy matmuls (one BLAS thread each, so
exactly two cores' worth), started before and stopped after that half. In each condition, for
each size, four sides alternate in blocks, with a pause before each block (an OpenBLAS or OpenMP
pool that has just worked spins for a while and would slow the next side):

* attnlab:      `model.trace(text)` through the Python API (tokenizing, the pass, every head's
                q, k, v kept and every head's diagnostics computed), BLAS threads by the machine's
                load (models/threads.py `blas_by_load`: BLAS's own when every core is free, else
                one);
* attnlab 1:    the same with BLAS always on one thread (BLAS_RULE = "one");
* attnlab ∥:    the same with BLAS always on its own threads (BLAS_RULE = "own");
* hf:           transformers' forward on the same weights (eager attention, float32,
                `output_attentions=True`, under `torch.inference_mode()`, ids prepared
                beforehand), torch's default threads;
* hf 1t:        the same with `torch.set_num_threads(1)`.

Prints the medians (ms) and the ratios transformers / attnlab (> 1: attnlab is the faster),
with the default torch threads and with one, and attnlab 1 / attnlab and attnlab ∥ / attnlab
(what the rule by load saves against each fixed choice). A side runs REPEATS passes or until it
has spent BUDGET_S seconds (at least MIN_RUNS). The largest |Δ| of the attention weights between
the two is checked once per size.

Each model is a row of MODELS: the name `load_model` takes and how transformers reads the same
weights (a folder: AutoModel, or AutoModelForCausalLM for a decoder; a .gguf file: the causal-LM
class with `gguf_file=`). A name that does not load here (gemma3 before its reader lands) is
skipped with the reason.

    python benchmarks/short_passes.py                  minilm, smollm2, gemma3
    python benchmarks/short_passes.py minilm           some of them
"""

from __future__ import annotations

import multiprocessing as mp
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # never reach the network: the weights are local

MODELS = ("minilm", "smollm2", "gemma3")
SIZES = (6, 16, 32)
REPEATS = 24
MIN_RUNS = 3
BUDGET_S = 3.0
BLOCKS = 2
PAUSE_S = 0.3
BUSY = 2
WORDS = "the river bank was quiet and the water was cold so we sat by it".split()


# --- the load: two busy processes ------------------------------------------------------------


def _spin(stop: Any) -> None:
    """A busy process: 256 × 256 float64 products on one BLAS thread until `stop` is set."""
    import numpy as np
    from threadpoolctl import threadpool_limits

    a = np.random.default_rng(0).standard_normal((256, 256))
    with threadpool_limits(1, user_api="blas"):
        while not stop.is_set():
            for _ in range(20):
                a = np.tanh(a @ a)


@contextmanager
def busy(count: int) -> Iterator[None]:
    """`count` busy processes while the block runs (none for 0); stopped and joined after."""
    if count == 0:
        yield
        return
    ctx = mp.get_context("spawn")
    stop = ctx.Event()
    workers = [ctx.Process(target=_spin, args=(stop,), daemon=True) for _ in range(count)]
    for w in workers:
        w.start()
    time.sleep(1.0)  # let them start spinning (spawn imports numpy)
    try:
        yield
    finally:
        stop.set()
        for w in workers:
            w.join(timeout=10)
            if w.is_alive():
                w.terminate()


# --- the models: attnlab's and transformers' on the same weights ----------------------------


@dataclass(frozen=True)
class Pair:
    """One model loaded twice: attnlab's and the transformers reference on the same weights."""

    name: str
    ours: Any  # an attnlab Model
    theirs: Any  # a transformers PreTrainedModel, eval()


def reference(path: Path) -> Any:
    """transformers' model on the weights at `path` (eager attention, float32)."""
    import torch
    import transformers

    opts: dict[str, Any] = {"attn_implementation": "eager", "dtype": torch.float32}
    if path.suffix == ".gguf":
        cls = transformers.AutoModelForCausalLM
        return cls.from_pretrained(str(path.parent), gguf_file=path.name, **opts).eval()
    config = transformers.AutoConfig.from_pretrained(str(path))
    decoder = bool(getattr(config, "is_decoder", False)) or config.model_type not in (
        "bert", "distilbert", "roberta",
    )  # fmt: skip
    cls = transformers.AutoModelForCausalLM if decoder else transformers.AutoModel
    return cls.from_pretrained(str(path), **opts).eval()


def load_pair(name: str) -> Pair:
    """Both models of `name`; any error is the reason the row is skipped."""
    from attnlab.models import load_model, model_folder

    ours = load_model(name)
    return Pair(name, ours, reference(model_folder(name)[1]))


def text_of(model: Any, n: int) -> str:
    """A text that `model` tokenizes into exactly `n` tokens (special tokens included)."""
    words = [WORDS[0]]
    while len(model.tokenize(" ".join(words))[1]) < n:
        words.append(WORDS[len(words) % len(WORDS)])
    text = " ".join(words)
    if len(model.tokenize(text)[1]) != n:
        raise ValueError(f"no text of exactly {n} tokens for {model.name}: {text!r}")
    return text


# --- timing -----------------------------------------------------------------------------------


@contextmanager
def side(kind: str) -> Iterator[None]:
    """The threads one side runs with: attnlab by size or not; torch's default or one."""
    import torch

    from attnlab.models import threads

    rule, torch_threads = threads.BLAS_RULE, torch.get_num_threads()
    threads.BLAS_RULE = {"attnlab 1": "one", "attnlab ∥": "own"}.get(kind, "by load")
    if kind == "hf 1t":
        torch.set_num_threads(1)
    try:
        yield
    finally:
        threads.BLAS_RULE = rule
        torch.set_num_threads(torch_threads)


SIDES = ("attnlab", "attnlab 1", "attnlab ∥", "hf", "hf 1t")


def runs_of(pair: Pair, n: int) -> tuple[dict[str, Callable[[], object]], float]:
    """Each side's pass over a text of n tokens, and the largest |Δ| of the attention weights."""
    import numpy as np
    import torch

    text = text_of(pair.ours, n)
    ids = torch.tensor([pair.ours.tokenize(text)[1]])

    def ours() -> object:
        return pair.ours.trace(text)

    def theirs() -> object:
        with torch.inference_mode():
            return pair.theirs(input_ids=ids, output_attentions=True)

    mine = pair.ours.trace(text).attentions  # (L, H, n, n), recomputed: untimed
    gap = float(np.abs(mine - torch.stack(theirs().attentions)[:, 0].numpy()).max())
    return {"attnlab": ours, "attnlab 1": ours, "attnlab ∥": ours, "hf": theirs,
            "hf 1t": theirs}, gap  # fmt: skip


def measure(runs: dict[str, Callable[[], object]]) -> dict[str, float]:
    """The median ms of each side, in blocks that alternate the sides' order."""
    times: dict[str, list[float]] = {s: [] for s in SIDES}
    for block in range(BLOCKS):
        for kind in SIDES[:: -1 if block % 2 else 1]:
            with side(kind):
                time.sleep(PAUSE_S)
                runs[kind]()  # one untimed pass after the pause
                spent, count = 0.0, 0
                while count < REPEATS // BLOCKS and (count < MIN_RUNS or spent < BUDGET_S / 2):
                    t0 = time.perf_counter()
                    runs[kind]()
                    dt = time.perf_counter() - t0
                    times[kind].append(dt * 1e3)
                    spent, count = spent + dt, count + 1
    return {s: statistics.median(t) for s, t in times.items()}


def table(pair: Pair) -> None:
    print(f"\n{pair.name}: {type(pair.ours).__name__} vs transformers' "
          f"{type(pair.theirs).__name__}")  # fmt: skip
    head = (f"{'load':>6} {'tokens':>6}  {'attnlab':>8} {'attnlab1':>8} {'attnlab∥':>8} {'hf':>8} "
            f"{'hf 1t':>8}  {'hf/ours':>7} {'hf1t/ours':>9} {'1/ours':>6} {'∥/ours':>6}  "
            f"{'max|Δ| attn':>11}")  # fmt: skip
    print(head)
    print("─" * len(head))
    prepared = {n: runs_of(pair, n) for n in SIZES}
    for label, count in (("idle", 0), (f"{BUSY} busy", BUSY)):
        with busy(count):
            for n in SIZES:
                runs, gap = prepared[n]
                for fn in runs.values():  # warm up
                    fn()
                m = measure(runs)
                a = m["attnlab"]
                print(
                    f"{label:>6} {n:>6}  {a:>8.1f} {m['attnlab 1']:>8.1f} {m['attnlab ∥']:>8.1f} "
                    f"{m['hf']:>8.1f} {m['hf 1t']:>8.1f}  {m['hf'] / a:>7.2f} "
                    f"{m['hf 1t'] / a:>9.2f} {m['attnlab 1'] / a:>6.2f} {m['attnlab ∥'] / a:>6.2f}"
                    f"  {gap:>11.1e}",
                    flush=True,
                )


def main(names: tuple[str, ...]) -> None:
    import numpy as np
    import torch
    from transformers.utils import logging

    logging.set_verbosity_error()
    logging.disable_progress_bar()
    print(f"Short passes, median ms ({os.cpu_count()} CPUs; torch {torch.__version__} with "
          f"{torch.get_num_threads()} threads; numpy {np.__version__}); ratios > 1: attnlab "
          "is the faster")  # fmt: skip
    for name in names:
        try:
            pair = load_pair(name)
        except Exception as e:  # a row that cannot load says why and is skipped
            print(f"\n{name}: skipped ({type(e).__name__}: {e})")
            continue
        table(pair)
        del pair


if __name__ == "__main__":
    main(tuple(sys.argv[1:]) or MODELS)
