"""The threads a pass shares: parts in order, and BLAS on one thread while any pass is inside."""

import os
import threading

import pytest

from attnlab.models.threads import THREADS, each


def test_each_keeps_the_order_of_the_parts() -> None:
    assert each(lambda x: x * x, [3, 1, 2]) == [9, 1, 4]


def test_one_part_runs_on_the_calling_thread() -> None:
    assert each(lambda _: threading.get_ident(), [0]) == [threading.get_ident()]


def test_several_parts_run_on_the_pool() -> None:
    if THREADS < 2:
        pytest.skip("one core: no pool")
    idents = each(lambda _: threading.current_thread().name, [0, 1])
    assert all(name.startswith("attnlab-pass") for name in idents)


_OVERLAP = """
import json
import threadpoolctl
from attnlab.models.threads import one_blas_thread

def blas():
    return {i["num_threads"] for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"}

before = blas()
one_blas_thread.__enter__()  # pass A
one_blas_thread.__enter__()  # pass B
inside = blas()
one_blas_thread.__exit__(None, None, None)  # A leaves first
after_a = blas()
one_blas_thread.__exit__(None, None, None)
print(json.dumps([sorted(before), sorted(inside), sorted(after_a), sorted(blas())]))
"""


def test_blas_keeps_one_thread_until_the_last_pass_is_out() -> None:
    """Two passes on two threads leave in any order: the limit stays while one is inside and
    the process gets its own BLAS threads back after the last. In a fresh interpreter: BLAS's
    limit is the process's, and this one's live servers may still be computing."""
    pytest.importorskip("threadpoolctl")
    import json
    import subprocess
    import sys

    env = {**os.environ, "OPENBLAS_NUM_THREADS": "2"}
    out = subprocess.run([sys.executable, "-c", _OVERLAP], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    before, inside, after_a, after = json.loads(out.stdout)
    assert before == [2] and inside == [1]
    assert after_a == [1], "B still runs its blocks"
    assert after == before
