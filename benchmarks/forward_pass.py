"""NumPy forward pass vs transformers, side by side in one run: all-MiniLM-L6-v2, all attentions.

For 6, 32 and 128 tokens, times attnlab's `model.trace(text)` (tokenizing, the forward pass,
every head's q, k, v kept so that any head's scores, weights and outputs can be recomputed, and
every head's diagnostics computed: entropy, first-token, previous-token, self and top-1 shares)
against transformers' `BertModel`
(eager attention, `output_attentions=True`, under `torch.inference_mode()`, token ids prepared
beforehand) in the same process. The two alternate in blocks (numpy, torch, torch, numpy, ...)
with a pause between blocks: interleaving single calls would make OpenBLAS's and OpenMP's
spinning worker threads fight over the cores and slow both several-fold. torch keeps its
default thread count; numpy's OpenBLAS keeps its own. Prints medians, the ratio numpy/torch
(target ≤ 1.0), each side's fastest run (which other processes on a shared machine disturb less
than the median) and the model load times (target < 1 s). Run with `make bench`.

OpenBLAS picks its matrix kernel when numpy loads, from the CPU model or from the environment's
OPENBLAS_CORETYPE (this machine's environment sets Haswell, the AVX2 kernel, on an AVX-512 CPU).
When the CPU has AVX-512 and the chosen kernel does not use it, the script runs itself once more
with OPENBLAS_CORETYPE=SkylakeX (OpenBLAS's AVX-512 kernel) and prints that table too, labelled:
it must be set before numpy loads, so it is the user's choice, not something attnlab can set.
"""

from __future__ import annotations

import ctypes
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # never reach the network: the folder is local

SIZES = (6, 32, 128)
REPEATS = {6: 60, 32: 40, 128: 24}
BLOCKS = 4
PAUSE_S = 0.5
WORDS = "the river bank was quiet and the water was cold so we sat by it".split()


def timed(fn: Callable[[], object], times: list[float]) -> None:
    start = time.perf_counter()
    fn()
    times.append((time.perf_counter() - start) * 1e3)


def text_of(n_tokens: int) -> str:
    """A text of exactly `n_tokens` tokens with [CLS] and [SEP] (each word is one token)."""
    words = [WORDS[i % len(WORDS)] for i in range(n_tokens - 2)]
    return " ".join(words)


def openblas_core() -> str:
    """The kernel OpenBLAS chose (numpy's bundled copy), or "?" where it cannot be asked."""
    try:
        with open("/proc/self/maps") as maps:
            paths = sorted({line.split()[-1] for line in maps if "openblas" in line})
        lib = ctypes.CDLL(paths[0])
        for name in ("scipy_openblas_get_corename64_", "openblas_get_corename64_",
                     "openblas_get_corename"):  # fmt: skip
            if hasattr(lib, name):
                fn = getattr(lib, name)
                fn.restype = ctypes.c_char_p
                return str(fn().decode())
    except (OSError, IndexError):
        pass
    return "?"


def has_avx512() -> bool:
    try:
        with open("/proc/cpuinfo") as info:
            return any(line.startswith("flags") and " avx512f" in line for line in info)
    except OSError:
        return False


def main() -> None:
    import numpy as np
    import torch
    from transformers import BertModel
    from transformers.utils import logging

    import attnlab
    from attnlab.models import model_folder

    logging.set_verbosity_error()
    logging.disable_progress_bar()
    folder = str(model_folder("minilm")[1])

    loads_np: list[float] = []
    loads_torch: list[float] = []
    for _ in range(3):
        timed(lambda: attnlab.load_model("minilm"), loads_np)
        timed(lambda: BertModel.from_pretrained(folder, attn_implementation="eager"), loads_torch)
    model = attnlab.load_model("minilm")
    reference = BertModel.from_pretrained(folder, attn_implementation="eager").eval()

    threads = torch.get_num_threads()
    core = openblas_core()
    print(
        f"all-MiniLM-L6-v2 forward pass, every head kept and diagnosed ({os.cpu_count()} CPUs, "
        f"torch {torch.__version__} with {threads} threads, numpy {np.__version__} "
        f"with OpenBLAS's {core} kernel)"
    )
    print()
    header = (
        f"{'tokens':>6}  {'numpy ms':>9}  {'torch ms':>9}  {'ratio':>6}  │  {'fastest':>7}  "
        f"{'fastest':>7}  {'ratio':>6}  │  {'max |Δ| attn':>12}"
    )
    print(f"{'':>6}  {'median':>9}  {'median':>9}  {'':>6}  │  {'numpy':>7}  {'torch':>7}")
    print(header)
    print("─" * len(header))
    for n in SIZES:
        text = text_of(n)
        ids = torch.tensor([model.tokenize(text)[1]])
        assert ids.shape[1] == n, ids.shape

        def run_numpy(text: str = text) -> object:
            return model.trace(text)

        def run_torch(ids: torch.Tensor = ids) -> object:
            with torch.inference_mode():
                return reference(input_ids=ids, output_attentions=True)

        ours, theirs = model.trace(text), run_torch()  # ours.attentions: recomputed, untimed
        gap = float(np.abs(ours.attentions - torch.stack(theirs.attentions)[:, 0].numpy()).max())
        for _ in range(3):  # warm up both
            run_numpy(), run_torch()
        t_np: list[float] = []
        t_torch: list[float] = []
        for block in range(BLOCKS):
            pair = ((run_numpy, t_np), (run_torch, t_torch))
            for fn, times in pair[:: -1 if block % 2 else 1]:
                time.sleep(PAUSE_S)  # let the other library's threads stop spinning
                fn()  # one untimed call after the pause
                for _ in range(REPEATS[n] // BLOCKS):
                    timed(fn, times)
        a, b = statistics.median(t_np), statistics.median(t_torch)
        lo_a, lo_b = min(t_np), min(t_torch)  # less sensitive to other processes than medians
        print(
            f"{n:>6}  {a:>9.2f}  {b:>9.2f}  {a / b:>6.2f}  │  {lo_a:>7.2f}  {lo_b:>7.2f}  "
            f"{lo_a / lo_b:>6.2f}  │  {gap:>12.1e}"
        )
    print()
    print(f"model load: numpy {statistics.median(loads_np):.0f} ms, "
          f"transformers {statistics.median(loads_torch):.0f} ms (median of 3)")  # fmt: skip
    avx512_kernels = ("SkylakeX", "Cooperlake", "SapphireRapids")
    if has_avx512() and core not in avx512_kernels and "ATTNLAB_BENCH_AGAIN" not in os.environ:
        given = os.environ.get("OPENBLAS_CORETYPE")
        why = f"OPENBLAS_CORETYPE={given} is set" if given else f"OpenBLAS chose {core}"
        print()
        print(f"This CPU has AVX-512 but {why}; again with OPENBLAS_CORETYPE=SkylakeX:")
        sys.stdout.flush()
        env = {**os.environ, "OPENBLAS_CORETYPE": "SkylakeX", "ATTNLAB_BENCH_AGAIN": "1"}
        subprocess.run([sys.executable, __file__], env=env, check=True)


if __name__ == "__main__":
    main()
