"""apart.py: the cost measurement runs in a child of its own, and its death is one 503."""

import os
from concurrent.futures.process import BrokenProcessPool

import pytest

from attnlab.web.apart import NICENESS, measuring_pool

WAIT = 60  # seconds: a bound on waiting for a child, never a threshold that is asserted


def _pid() -> int:
    return os.getpid()


def _die() -> None:
    os._exit(3)  # what a segmentation fault in the child looks like to the server


def _niceness() -> int:
    return os.nice(0)


@pytest.fixture
def apart():
    pool = measuring_pool()
    yield pool
    pool.close()


def test_the_work_runs_in_one_other_process_kept_between_calls(apart) -> None:
    first = apart.submit(_pid).result(WAIT)
    assert first != os.getpid()
    assert apart.submit(_pid).result(WAIT) == first


def test_a_dead_child_is_a_broken_pool_and_the_next_call_gets_a_new_child(apart) -> None:
    """Bug: tracemalloc.stop() in a threaded server crashed the whole server under load."""
    before = apart.submit(_pid).result(WAIT)
    with pytest.raises(BrokenProcessPool):
        apart.submit(_die).result(WAIT)
    after = apart.submit(_pid).result(WAIT)
    assert after not in (before, os.getpid())


def test_the_cost_route_measures_outside_the_server(client, monkeypatch) -> None:
    """tracemalloc never runs in the server's process: it would count other requests' memory
    and, in CPython 3.11, can crash the process when another thread allocates."""
    import tracemalloc

    started = []
    monkeypatch.setattr(tracemalloc, "start", lambda *a: started.append(a))
    r = client.get("/api/cost", params={"max_n": 16})
    assert r.status_code == 200, r.text
    assert r.json()["points"][0]["n"] == 4 and started == []


def test_the_child_runs_at_a_lower_priority(apart) -> None:
    assert apart.submit(_niceness).result(WAIT) == os.nice(0) + NICENESS


_ORPHAN = """
import os, sys
from attnlab.web.apart import measuring_pool
if __name__ == "__main__":
    print(measuring_pool().submit(os.getpid).result(), flush=True)
    os.kill(os.getpid(), 9)  # the server killed: no lifespan shutdown, no close()
"""


def test_the_child_does_not_outlive_a_killed_server(tmp_path) -> None:
    """Bug: after benchmarks/load.py stopped a server, its measuring child lived on for 15
    minutes (and held the benchmark's output pipe open)."""
    import subprocess
    import sys
    import time

    script = tmp_path / "server.py"  # spawn imports the parent's main module: a file, not -c
    script.write_text(_ORPHAN)
    server = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    with server.stdout:  # not read to its end: an orphaned child would hold it open forever
        child = int(server.stdout.readline())
        server.wait(timeout=WAIT)
        deadline = time.monotonic() + 30  # the child looks for its parent every second
        while time.monotonic() < deadline and _alive(child):
            time.sleep(0.2)
        orphaned = _alive(child)
        if orphaned:
            os.kill(child, 9)
    assert not orphaned, f"the measuring child {child} outlived its server"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as f:  # a zombie has exited: only its entry is left
        return f.read().split(")")[-1].split()[0] != "Z"
