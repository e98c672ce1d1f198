"""OpenBLAS's threads stop spinning soon after a product once attnlab is imported first."""

import os
import subprocess
import sys

import pytest

# A fresh interpreter: one product big enough for BLAS's threads, then the CPU time the process
# uses while its only Python thread sleeps for 50 ms (a spinning worker uses all of it).
SPIN = """
import time
import attnlab  # noqa: F401
import numpy as np
from threadpoolctl import threadpool_info
threads = max(i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas")
a = np.ones((1024, 1024), np.float32)
a @ a
a @ a
before = time.process_time()
time.sleep(0.05)
print(threads, (time.process_time() - before) * 1e3)
"""


def _run(code: str, **env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k != "OPENBLAS_THREAD_TIMEOUT"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=clean | env, check=False)  # fmt: skip
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_blas_workers_do_not_spin_through_a_pause_after_a_product() -> None:
    threads, spun_ms = _run(SPIN).split()
    if int(threads) < 2:
        pytest.skip("BLAS runs one thread here: no worker to spin")
    # OpenBLAS's default spins a worker for ~0.1 s: 48-50 ms of the 50 ms sleep, measured
    assert float(spun_ms) < 20, f"{spun_ms} ms of CPU time while the process slept 50 ms"


def test_the_variable_is_set_before_numpy_loads() -> None:
    code = """
import os, sys
class Spy:  # reports the variable at the moment NumPy starts to load
    def find_spec(self, name, path=None, target=None):
        if name == "numpy":
            print(os.environ.get("OPENBLAS_THREAD_TIMEOUT"))
        return None
sys.meta_path.insert(0, Spy())
import attnlab
"""
    assert _run(code) == "20"


def test_a_value_already_set_is_kept() -> None:
    code = "import os, attnlab; print(os.environ['OPENBLAS_THREAD_TIMEOUT'])"
    assert _run(code, OPENBLAS_THREAD_TIMEOUT="28") == "28"


def test_nothing_is_set_once_numpy_has_loaded() -> None:
    code = (
        "import os, numpy\n"
        "from attnlab.blas_spin import shorten_blas_spin\n"
        "print(shorten_blas_spin(), 'OPENBLAS_THREAD_TIMEOUT' in os.environ)"
    )
    assert _run(code) == "False False"
