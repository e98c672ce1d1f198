"""worker_setup.py: the tuning is the workers' (BLAS on one thread that does not spin, freed
memory kept), never the process that imports attnlab or runs the server's event loop."""

import os
import subprocess
import sys
import time

import pytest
from starlette.responses import Response

from attnlab.web.executors import Pool
from attnlab.web.model_service import Models
from attnlab.web.server_options import ServerOptions

WAIT = 60  # seconds: a bound on waiting for a worker, never a threshold that is asserted


def _tuning() -> tuple[str | None, bool, list[int]]:
    from threadpoolctl import threadpool_info

    from attnlab.models import memory

    blas = sorted({i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"})
    return os.environ.get("OPENBLAS_THREAD_TIMEOUT"), memory._done, blas


def _tuned_answer() -> Response:
    spin, kept, blas = _tuning()
    return Response(f"{spin} {kept} {str(blas).replace(' ', '')}")


def _spun_ms() -> float:
    """CPU time of this process while its only Python thread sleeps 50 ms after two products
    on every BLAS thread (a spinning BLAS worker uses all of it)."""
    import numpy as np
    from threadpoolctl import threadpool_limits

    with threadpool_limits(os.cpu_count(), user_api="blas"):
        a = np.ones((1024, 1024), np.float32)
        a @ a
        a @ a
        before = time.process_time()
        time.sleep(0.05)
        return (time.process_time() - before) * 1e3


@pytest.fixture(scope="module")
def pool():
    p = Pool(1, what="test", niceness=0)
    yield p
    p.close()


def test_a_worker_runs_blas_on_one_thread_and_only_the_models_keep_freed_memory(pool) -> None:
    spin, kept, blas = pool.submit(_tuning).result(WAIT)
    assert (spin, kept, blas) == ("20", False, [1])
    models = Models(ServerOptions())
    try:
        spin, kept, blas = models.submit(_tuned_answer).result(WAIT).body.decode().split()
    finally:
        models.close()
    assert (spin, blas) == ("20", "[1]")
    assert kept == "True" or os.environ.get("ATTNLAB_MALLOC") == "default"


def test_a_worker_s_blas_threads_do_not_spin_through_a_pause(pool) -> None:
    """OpenBLAS's default spins a worker ~0.1 s after a product: 48-50 ms of a 50 ms sleep,
    measured; a spinning worker held a core from the decoder's attention threads."""
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: BLAS has no worker thread to spin")
    spun = pool.submit(_spun_ms).result(WAIT)
    assert spun < 20, f"{spun:.1f} ms of CPU time while the worker slept 50 ms"


def test_importing_attnlab_and_making_the_app_tune_nothing() -> None:
    """Bug: `import attnlab` set OPENBLAS_THREAD_TIMEOUT and create_app (and load_model) set
    glibc's allocator for the whole process: a notebook's process is its user's."""
    code = (
        "import os\n"
        "from attnlab.web.app import create_app\n"
        "from attnlab.models import memory\n"
        "create_app()\n"
        "print(os.environ.get('OPENBLAS_THREAD_TIMEOUT'), memory._done)"
    )
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_THREAD_TIMEOUT"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["None", "False"]
