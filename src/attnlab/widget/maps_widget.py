"""The notebook widget of attention weights handed in alone (an AttentionMaps): the grid, the
table, the Parallel beat and the whole matrix, computed from the weights (models/maps_view.py);
the beats that need Q, K and V say so. The shared part of a heads widget is widgets._HeadsView.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from attnlab.core.attention_maps import AttentionMaps
from attnlab.encode.page_json import encode_presets
from attnlab.models.maps_view import pair_shares, special_tokens
from attnlab.models.model_trace import last_word
from attnlab.widget import payloads
from attnlab.widget.matrix_panel import MatrixPanel
from attnlab.widget.widgets import _HeadsView
from attnlab.words.weights_only import pair_summary, text_is_fixed

__all__ = ["MapsWidget"]


def _last_word(tokens: tuple[str, ...]) -> int:
    """The trace's default focus (model_trace.last_word), a [SPECIAL] or <special> one skipped."""
    return last_word(tokens, special_tokens(tokens))


class MapsWidget(_HeadsView, MatrixPanel):
    """Attention weights handed in from elsewhere: the grid, the table, the Parallel beat and
    the head's whole matrix (matrix_panel.py, computed from the weights); the beats that need
    Q, K and V say so."""

    def __init__(self, maps: AttentionMaps, *, layer: int = 0, head: int = 0,
                 focus: int | None = None, beat: int = 5) -> None:  # fmt: skip
        self._given = maps  # as handed in, for `maps` and save: an unnamed source stays unnamed
        named = maps.source
        source = maps.source or "elsewhere"
        if not maps.source:
            maps = replace(maps, source=source)  # the view's name for the weights
        self._maps = maps
        super().__init__(view="model", name=source, text=" ".join(maps.tokens),
                         info=payloads.maps_info(maps), beat=beat)  # fmt: skip
        self.words = payloads.words_for(
            encode_presets()["words"], tokens=maps.tokens + maps.key_tokens, source=named,
            weights_only=True, sizes=(maps.n_layers, maps.n_heads),
        )  # fmt: skip
        if (shares := pair_shares(maps)) is not None and maps.sentence_b_start is not None:
            said = pair_summary(maps.tokens, maps.sentence_b_start, a_to_b=shares[0],
                                b_to_a=shares[1], heads=maps.n_layers * maps.n_heads)  # fmt: skip
            self.words = {**self.words, "maps.intro": f"{self.words['maps.intro']} {said}"}
        with self._own():
            self.layer, self.head = layer, head
            self.focus = _last_word(maps.tokens) if focus is None else focus
        self._start_matrix()
        self._refresh(grid=True)
        self._start()

    @property
    def maps(self) -> AttentionMaps:
        """The weights on screen, as they were handed in."""
        return self._given

    def _saveable(self) -> AttentionMaps:
        return self._given  # saved as .csv or .json: the beats of .html and .svg need Q and K

    def _sizes(self) -> tuple[int, int, int]:
        return self._maps.n_layers, self._maps.n_heads, self._maps.n

    def _refresh(self, *, grid: bool) -> None:
        focus = self.focus if self.focus is not None else 0
        self.trace = payloads.maps_head(self._maps, layer=self.layer, head=self.head, focus=focus)
        if grid or self.grid is None:
            self.grid = payloads.maps_grid(self._maps, focus)
        self._follow_row(focus)

    def _matrix_head(self) -> tuple[AttentionMaps, int, int]:
        return self._maps, self.layer, self.head

    def _retext(self, change: dict[str, Any]) -> None:
        if self._quiet:
            return
        self.error = {"message": text_is_fixed(self._maps.source), "field": "text"}
        with self._own():
            self.text, self.name = " ".join(self._maps.tokens), self._maps.source
