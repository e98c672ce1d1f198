"""A shipped decoder (SmolLM2-135M or Gemma 3 270M): attnlab's NumPy pass vs transformers' forward.

For 16, 128, 512 and 2,048 tokens, times attnlab's `model.trace_ids(ids)` (the forward pass,
every head's q, k, v kept so any head's weights can be recomputed, every head's diagnostics
computed during the pass) against transformers' causal LM read from the same GGUF
(`LlamaForCausalLM` for smollm2, `Gemma3ForCausalLM` for gemma3; eager attention, float32,
`output_attentions=True`, under `torch.inference_mode()`), side by side with peak memory. Each case
runs in its own child process (numpy, torch, torch, numpy, ... alternating), which loads its
model, runs once to warm up, times `REPEATS[n]` passes and reports the median and its peak
resident memory (`resource.getrusage`, the weights included on both sides). Prints medians,
the ratio numpy/torch (targets: ≤ 1.0 at 16 and 128, ≤ 0.7 at 512, ≤ 0.5 at 2,048), the peak
memory of each (target at 2,048: numpy ≤ a quarter of torch) and the load times (GGUF < 3 s).
The targets were set for SmolLM2 (issue 10); Gemma 3's table is printed against the same ones.

    make bench-decoder                                    both models, every size
    python benchmarks/decoder_pass.py 16 128              SmolLM2, some sizes
    python benchmarks/decoder_pass.py --model gemma3 512  Gemma 3 270M
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")

SIZES = (16, 128, 512, 2048)
REPEATS = {16: 7, 128: 5, 512: 3, 2048: 2}
WORDS = "the river bank was quiet and the water was cold so we sat by it".split()
# attnlab's name -> (the title printed, transformers' class read from the same GGUF)
MODELS = {
    "smollm2": ("SmolLM2-135M", "LlamaForCausalLM"),
    "gemma3": ("Gemma 3 270M", "Gemma3ForCausalLM"),
}


def ids_of(tokenizer, n: int) -> list[int]:  # type: ignore[no-untyped-def]
    """The ids of a text of exactly n tokens (words repeated, cut to n)."""
    text = " ".join(WORDS[i % len(WORDS)] for i in range(n + 8))
    ids = tokenizer.encode(text, add_special_tokens=False).ids[:n]
    assert len(ids) == n
    return list(ids)


def child(name: str, side: str, n: int) -> None:
    """One case in this process: print {"load", "times", "peak_mb"} as JSON."""
    start = time.perf_counter()
    from attnlab.models import load_model, model_folder

    numpy_model = load_model(name)
    load = time.perf_counter() - start
    ids = ids_of(numpy_model.tokenizer, n)
    if side == "numpy":
        run = lambda: numpy_model.trace_ids(tuple(ids))  # noqa: E731
    else:
        import torch
        import transformers
        from transformers.utils import logging

        logging.set_verbosity_error()
        del numpy_model
        path = model_folder(name)[1]
        start = time.perf_counter()
        model = getattr(transformers, MODELS[name][1]).from_pretrained(
            str(path.parent), gguf_file=path.name, attn_implementation="eager",
            dtype=torch.float32,
        ).eval()  # fmt: skip
        load = time.perf_counter() - start
        x = torch.tensor([ids])

        def run() -> object:
            with torch.inference_mode():
                return model(input_ids=x, output_attentions=True)

    run()  # warm up
    times = []
    for _ in range(REPEATS[n]):
        t0 = time.perf_counter()
        out = run()
        times.append(time.perf_counter() - t0)
        del out
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB -> MB on Linux
    print(json.dumps({"load": load, "times": times, "peak_mb": peak}))


def case(name: str, side: str, n: int) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", name, side, str(n)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main(name: str, sizes: tuple[int, ...]) -> None:
    title = MODELS[name][0]
    print(f"{title}, {os.cpu_count()} cores, medians of alternating child processes")
    header = (f"{'tokens':>6}  {'numpy s':>9}  {'torch s':>9}  {'ratio':>6}  "
              f"{'numpy MB':>9}  {'torch MB':>9}  {'mem ratio':>9}")  # fmt: skip
    print(header)
    loads: dict[str, list[float]] = {"numpy": [], "torch": []}
    for n in sizes:
        runs: dict[str, list[float]] = {"numpy": [], "torch": []}
        peaks: dict[str, float] = {"numpy": 0.0, "torch": 0.0}
        for side in ("numpy", "torch", "torch", "numpy") if REPEATS[n] > 2 else ("numpy", "torch"):
            r = case(name, side, n)
            runs[side] += r["times"]
            peaks[side] = max(peaks[side], r["peak_mb"])
            loads[side].append(r["load"])
        a, b = statistics.median(runs["numpy"]), statistics.median(runs["torch"])
        pa, pb = peaks["numpy"], peaks["torch"]
        print(f"{n:>6}  {a:>9.3f}  {b:>9.3f}  {a / b:>6.2f}  {pa:>9.0f}  {pb:>9.0f}  "
              f"{pa / pb:>9.2f}", flush=True)  # fmt: skip
    la, lb = statistics.median(loads["numpy"]), statistics.median(loads["torch"])
    print(f"load: numpy (GGUF, tokenizer, weights) median {la:.2f} s, transformers {lb:.2f} s")


def arguments(argv: list[str]) -> tuple[str, tuple[int, ...]]:
    """`[--model smollm2|gemma3] [SIZE ...]` -> (model name, sizes); a bad one exits naming it."""
    name, rest = "smollm2", list(argv)
    if "--model" in rest:
        at = rest.index("--model")
        if at + 1 >= len(rest):
            sys.exit(f"--model needs a name: {' or '.join(MODELS)}")
        name = rest[at + 1].lower()
        del rest[at : at + 2]
    if name not in MODELS:
        sys.exit(f"--model {name!r}: this benchmark knows {' and '.join(MODELS)}")
    bad = [a for a in rest if not a.isdigit() or int(a) not in REPEATS]
    if bad:
        sys.exit(f"sizes are {', '.join(map(str, SIZES))}; got {' '.join(bad)}")
    return name, tuple(int(a) for a in rest) or SIZES


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        main(*arguments(sys.argv[1:]))
