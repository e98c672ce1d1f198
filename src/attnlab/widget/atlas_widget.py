"""The notebook widget of a head atlas: `atlas_view("minilm.parquet")`, the page's Atlas view
(static/atlas.js, its imports inlined) on the file's numbers (atlas/atlas_view.py through
encode/atlas_json.py, the /api/atlas answer). `statistic`, `layer` and `head` are traits both
ways; pressing "Open in the Real model" on an exemplar sets `opened` to {model, text, layer,
head, focus}, and `open_exemplar()` returns the Real model widget on it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import anywidget
import traitlets as t

from attnlab.atlas.atlas_view import AtlasView
from attnlab.atlas.atlas_view import atlas_view as view_of
from attnlab.atlas.file import read_atlas
from attnlab.encode.atlas_json import encode_atlas
from attnlab.encode.bundle import view_module
from attnlab.errors import AttnlabError
from attnlab.widget.styles import widget_css

__all__ = ["AtlasWidget", "atlas_view"]


class AtlasWidget(anywidget.AnyWidget):
    """The Atlas view of one atlas file."""

    _esm = view_module("atlas")
    _css = widget_css()
    atlas = t.Dict().tag(sync=True)
    statistic = t.Unicode("").tag(sync=True)
    layer = t.Int(0).tag(sync=True)
    head = t.Int(0).tag(sync=True)
    sort = t.Dict(allow_none=True, default_value=None).tag(sync=True)
    error = t.Dict(allow_none=True, default_value=None).tag(sync=True)
    links = t.Bool(False).tag(sync=True)  # the page's links: none in a notebook
    openable = t.Bool(True).tag(sync=True)
    opened = t.Dict(allow_none=True, default_value=None).tag(sync=True)

    def __init__(
        self, view: AtlasView, *, statistic: str | None = None, layer: int = 0, head: int = 0
    ) -> None:
        answer = encode_atlas(view).model_dump(mode="json")
        self._view = view  # before the traits: their validators read it
        super().__init__(atlas=answer, statistic=view.statistics[0].key)
        self.add_class("attnlab-nb")
        if statistic is not None:
            self.statistic = statistic
        self.layer, self.head = layer, head

    @t.validate("statistic")
    def _known_statistic(self, proposal: dict[str, Any]) -> str:
        keys = [s.key for s in self._view.statistics]
        if proposal["value"] not in keys:
            raise AttnlabError(
                f"unknown statistic {proposal['value']!r}: choose one of {', '.join(keys)}",
                field="statistic",
            )
        return str(proposal["value"])

    @t.validate("layer", "head")
    def _in_the_model(self, proposal: dict[str, Any]) -> int:
        name = proposal["trait"].name
        count = self._view.n_layers if name == "layer" else self._view.n_heads
        value = proposal["value"]
        if isinstance(value, bool) or not 0 <= value < count:
            raise AttnlabError(
                f"{name} must be 0 to {count - 1} ({self._view.provenance.model} has {count} "
                f"{name}s), got {value!r}",
                field=name,
            )
        return int(value)

    @property
    def view(self) -> AtlasView:
        """The atlas on screen, as computed once from its file."""
        return self._view

    def open_exemplar(self) -> Any:
        """The Real model widget on the exemplar last opened (attnlab.show(model, text, ...))."""
        if not self.opened:
            raise ValueError("no exemplar opened yet: press “Open in the Real model” in the view")
        from attnlab.models import load_model
        from attnlab.widget.show import show

        o = self.opened
        model = load_model(o["model"])
        return show(model, o["text"], layer=o["layer"], head=o["head"], focus=o["focus"])


def atlas_view(
    path: str | os.PathLike[str],
    *,
    statistic: str | None = None,
    layer: int = 0,
    head: int = 0,
) -> AtlasWidget:
    """The Atlas view of the atlas file at `path` (attnlab atlas CORPUS --model M -o path);
    a statistic, layer or head the atlas does not have is an AttnlabError naming the choices."""
    sums, prov = read_atlas(Path(path))
    view = view_of(sums, prov, name=Path(path).stem)
    return AtlasWidget(view, statistic=statistic, layer=layer, head=head)
