"""The notebook widget: `show(...)` for the lesson, a real model, or attention from elsewhere;
`train(...)` for a training run (the Train view).

Needs the `notebook` extra (anywidget): `pip install 'attnlab[notebook]'`.
"""

from __future__ import annotations

from attnlab.widget.adapter import attention_maps
from attnlab.widget.atlas_widget import AtlasWidget, atlas_view
from attnlab.widget.maps_widget import MapsWidget
from attnlab.widget.show import show
from attnlab.widget.train_widget import TrainWidget, train
from attnlab.widget.widgets import LessonWidget, ModelWidget

__all__ = [
    "AtlasWidget", "LessonWidget", "MapsWidget", "ModelWidget", "TrainWidget",
    "atlas_view", "attention_maps", "show", "train",
]  # fmt: skip
