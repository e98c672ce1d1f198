"""The Train view in a notebook: `attnlab.widget.train("lookup", steps=100, seed=0)`.

The kernel runs the whole experiment first (train/catalog.py, in this process: the lookup's 100
steps take well under a second, the induction run's 500 about 20 s on one core), and the widget
carries it as the page's own chunk answer (encode/train_json.py): every curve point, every
checkpoint's maps, the run in words. The view is the page's (static/train_view.js); with no
server to ask, it plays the kernel's run back a chunk at a time, so Play, Pause, Step, the speed
and the scrubber behave as on the page, and the curves are the ones the CLI prints.
"""

from __future__ import annotations

from typing import Any

import anywidget
import traitlets as t

from attnlab.encode.bundle import view_module
from attnlab.encode.train_json import encode_catalog, encode_chunk
from attnlab.train.catalog import advance, begin
from attnlab.train.steps import Step
from attnlab.widget.styles import widget_css

__all__ = ["TrainWidget", "train"]


class TrainWidget(anywidget.AnyWidget):
    """One finished run of a training experiment, shown by the Train view."""

    _esm = view_module("notebook")
    _css = widget_css()
    view = t.Unicode("train").tag(sync=True)
    train_catalog = t.Dict().tag(sync=True)
    train_run = t.Dict().tag(sync=True)

    def __init__(self, name: str, steps: list[Step], run_payload: dict[str, Any]) -> None:
        super().__init__(
            train_catalog=encode_catalog().model_dump(mode="json"), train_run=run_payload
        )
        self.experiment = name
        self.steps = steps  # the run's Steps, as train/ computed them


def train(name: str, *, steps: int | None = None, seed: int = 0) -> TrainWidget:
    """Run experiment `name` ("lookup", "sqrt-dk", "induction") for `steps` updates (its
    default when None) from `seed`, and show it. Bad input raises TrainError naming it."""
    run = begin(name, steps=steps, seed=seed)
    done: list[Step] = []
    while not run.done:
        run, chunk = advance(run, 200)
        done.extend(chunk)
    payload = encode_chunk(f"kernel-{name}-{seed}", run, done, done).model_dump(mode="json")
    return TrainWidget(name, done, payload)
