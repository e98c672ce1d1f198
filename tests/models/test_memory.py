"""The allocator tweak and the scratch arrays that keep the forward pass off fresh pages."""

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
