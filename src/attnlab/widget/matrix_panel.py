"""The matrix panel in the notebook: one head's whole matrix and any row's numbers, as traits.

On the web page the Real model view's matrix panel (static/model_matrix.js) reads "matrix"
and "row", which the page's host asks of /api/model/matrix and /api/model/row, and writes
"matrix_scale", "pool", "specials" and "row_index". In a notebook there is no server: the
kernel plays the routes' part with the same one path they take (models/matrix_view.py and
encode_matrix, encode_row: payloads.matrix_answer, payloads.row_answer), so the widget's
picture and row table hold the page's numbers. `pool` and `specials` are checked here as
the route's query checks them; the colour scale is the view's own and needs no answer.
"""

from __future__ import annotations

from typing import Any

import traitlets as t

from attnlab.core.attention_maps import AttentionMaps
from attnlab.core.pooling import POOLS
from attnlab.errors import UnknownHeadError
from attnlab.models import ModelTrace
from attnlab.models.matrix_view import SPECIALS
from attnlab.widget import payloads

__all__ = ["MatrixPanel"]


class MatrixPanel(t.HasTraits):
    """A widget's matrix panel: mixed into a widget that holds one real model's pass or
    attention weights handed in alone (whose picture needs the same tokens both ways: others
    have no matrix, and the panel stays empty)."""

    matrix: Any = t.Dict(allow_none=True, default_value=None).tag(sync=True)
    matrix_scale = t.Unicode("log").tag(sync=True)  # the picture's colours (matrix_picture.js)
    pool = t.Enum(POOLS, "max").tag(sync=True)
    specials = t.Enum(SPECIALS, "show").tag(sync=True)
    row_index = t.Int(allow_none=True, default_value=None).tag(sync=True)
    row: Any = t.Dict(allow_none=True, default_value=None).tag(sync=True)
    _matrix_for: tuple[Any, ...] = ()  # (pass, layer, head, pool, specials) of the matrix shown

    def _matrix_head(self) -> tuple[ModelTrace | AttentionMaps, int, int]:
        """The pass (or the weights) and the (layer, head) on screen."""
        raise NotImplementedError

    @t.validate("row_index")
    def _row_in_range(self, proposal: Any) -> int | None:
        value: int | None = proposal["value"]
        n = self._matrix_head()[0].n
        if value is not None and not 0 <= value < n:
            raise UnknownHeadError(f"row must be between 0 and {n - 1}, got {value}", field="row")
        return value

    def _start_matrix(self) -> None:
        """Answer the panel's choices: another pooling or specials, another row."""
        self.observe(lambda _: self._show_matrix(), names=["pool", "specials"])
        self.observe(lambda _: self._show_row(), names=["row_index"])

    def _show_matrix(self) -> None:
        """The head's matrix, computed again only when its head, text or options changed."""
        mt, layer, head = self._matrix_head()
        key = (layer, head, self.pool, self.specials)
        if self._matrix_for and self._matrix_for[0] is mt and self._matrix_for[1:] == key:
            return
        self._matrix_for = (mt, *key)
        if isinstance(mt, AttentionMaps) and mt.tokens != mt.key_tokens:
            self.matrix = None  # queries and keys of their own: no square picture
            return
        self.matrix = payloads.matrix_answer(
            mt, layer=layer, head=head, pool=self.pool, specials=self.specials
        )

    def _show_row(self) -> None:
        """The asked row's numbers for the head on screen (none when no row is asked)."""
        mt, layer, head = self._matrix_head()
        index = self.row_index
        at = {"layer": layer, "head": head}
        self.row = None if index is None else payloads.row_answer(mt, **at, row=index)

    def _follow_row(self, focus: int) -> None:
        """A new head or token on screen: its matrix, and the followed token's row (as the
        page's host asks them after each trace)."""
        self._show_matrix()
        if self.row_index == focus:
            self._show_row()  # the same row of another head
        else:
            self.row_index = focus  # the observer shows it
