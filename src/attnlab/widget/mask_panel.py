"""The Mask a token panel in the notebook: the word taken out and the focus's drift, as traits.

On the web page the panel (static/model_mask.js) writes "maskWord" and "maskHow"; the page's
host (model_view_asks.js) asks /api/model/mask for the text and token on screen and puts the
answer in "mask", or the refusal in "maskError" ({"message", "field"}). In a notebook the
kernel plays the route's part with its one path (models/masking.py and encode_masking:
payloads.mask_answer), so the widget's plots and table hold the page's numbers. As on the page
it is asked again after every new text or token, so its numbers never belong to another one.
"""

from __future__ import annotations

import re
from typing import Any

import traitlets as t

from attnlab.errors import AttnlabError
from attnlab.models import Model, ModelTrace
from attnlab.models.masking import HOWS
from attnlab.widget import payloads

__all__ = ["MaskPanel"]

_INDEX = re.compile(r"[+-]?\d+")
"""A word to mask written as a number is a token's position, as the route's `mask` reads it."""


class MaskPanel(t.HasTraits):
    """A widget's Mask a token panel: mixed into a widget that holds one real model's pass."""

    maskWord = t.Unicode("").tag(sync=True)  # the view's keys (model_mask.js)
    maskHow = t.Enum(HOWS, "mask").tag(sync=True)
    mask: Any = t.Dict(allow_none=True, default_value=None).tag(sync=True)
    maskError: Any = t.Dict(allow_none=True, default_value=None).tag(sync=True)

    def _mask_on(self) -> tuple[Model, ModelTrace, int]:
        """The model, its pass on screen and the token followed."""
        raise NotImplementedError

    _mask_for: tuple[Any, ...] = ()  # (pass, focus, word, how) of the answer shown

    def _start_mask(self) -> None:
        """Answer the panel's choices: another word, another way to take it out."""
        self.observe(lambda _: self._show_mask(), names=["maskWord", "maskHow"])

    def _show_mask(self) -> None:
        """The masked run for the text and token on screen, once a word was given; run again
        only when one of them changed (another head shows the same run's other column)."""
        word = self.maskWord.strip()
        if not word:
            self._mask_for, self.mask, self.maskError = (), None, None
            return
        try:
            model, mt, focus = self._mask_on()
            key = (focus, word, self.maskHow)
            if self._mask_for and self._mask_for[0] is mt and self._mask_for[1:] == key:
                return
            self._mask_for = (mt, *key)
            asked = int(word) if _INDEX.fullmatch(word) else word
            answer = payloads.mask_answer(model, mt, focus=focus, word=asked, how=self.maskHow)
        except AttnlabError as exc:
            self.mask, self.maskError = None, {"message": str(exc), "field": exc.field}
            return
        self.mask, self.maskError = answer, None
