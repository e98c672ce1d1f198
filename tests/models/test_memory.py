"""The allocator tweak (the server's workers set it) and the scratch arrays that keep the forward
pass off fresh pages."""

import subprocess
import sys

import numpy as np

from attnlab.models.memory import keep_freed_memory
from attnlab.models.workspace import Workspace


def test_keep_freed_memory_is_idempotent() -> None:
    first = keep_freed_memory()
    assert keep_freed_memory() is first


def test_attnlab_malloc_default_opts_out() -> None:
    code = "from attnlab.models.memory import keep_freed_memory as k; print(k())"
    env = {"ATTNLAB_MALLOC": "default", "PATH": ""}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.stdout.strip() == "False", out.stderr


def test_workspace_hands_out_views_of_one_buffer() -> None:
    ws = Workspace(8, np.dtype(np.float32))
    a = ws.take("ffn", 3, 5)
    b = ws.take("ffn", 6, 5)
    assert a.shape == (3, 5) and b.shape == (6, 5) and a.dtype == np.float32
    assert np.shares_memory(a, b) and a.flags.c_contiguous
    assert not np.shares_memory(ws.take("other", 3, 5), a)


def test_traces_do_not_share_memory_with_the_workspace(minilm) -> None:
    one = minilm.trace("by the river bank")
    before = one.attentions.copy(), one.hidden_states.copy(), one.layers[3].queries.copy()
    minilm.trace("at the savings bank, money is kept")  # reuses every scratch array
    assert np.array_equal(one.attentions, before[0])
    assert np.array_equal(one.hidden_states, before[1])
    assert np.array_equal(one.layers[3].queries, before[2])


_ROTATING_THREADS = """
import resource, sys
from concurrent.futures import ThreadPoolExecutor
import numpy as np
from attnlab.models.memory import keep_freed_memory
keep_freed_memory()
threads = [ThreadPoolExecutor(1) for _ in range(4)]  # a server's workers, each a thread
kept = []  # a cache of one "head": three 16 MB arrays, replaced by each new request

def request() -> int:  # the page faults of one request
    before = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt
    head = [np.ones((2048, 2048), np.float32) for _ in range(3)]
    kept[:] = [head]  # the previous head is freed here, by this thread
    return resource.getrusage(resource.RUSAGE_THREAD).ru_minflt - before

faults = [threads[i % 4].submit(request).result() for i in range(4)]  # each thread's first
print(faults[0], max(faults[2:]))  # the first request's, the worst once two heads were freed
"""


def _rotating_faults(env: dict[str, str]) -> tuple[int, int]:
    out = subprocess.run(
        [sys.executable, "-c", _ROTATING_THREADS], capture_output=True, text=True, env=env
    )
    assert out.returncode == 0, out.stderr
    first, worst = map(int, out.stdout.split())
    return first, worst


def test_worker_threads_reuse_memory_another_one_freed() -> None:
    """A server's worker threads take turns: a head computed on one and freed on another lands
    on pages already faulted in (one arena), not on fresh ones. With glibc's arena per thread
    every worker's first heads fault their pages in again (and each keeps its own freed memory)."""
    first, kept = _rotating_faults({"PATH": ""})
    _, default = _rotating_faults({"PATH": "", "ATTNLAB_MALLOC": "default"})
    assert default > first / 2, f"glibc's own arenas: {default} faults, the first head {first}"
    assert kept < first / 10, f"{kept} page faults for a head, the first one took {first}"
