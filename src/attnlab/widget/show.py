"""`attnlab.show(...)`: one call for the lesson, a real model's pass, or attention from elsewhere.

    show(attnlab.explain_lesson("by the river bank"))     the toy lesson
    show(attnlab.explain_lesson(...), lab=True)           the lesson with its lab under it
    show(model.trace(text))  or  show(model, text)        a real model: every head, any head's beats
    show(outputs.attentions, tokens)                      weights from transformers, BertViz,
    show(attention, tokens)                               CircuitsVis, NumPy or nested lists

Options are keyword-only: layer, head, focus and beat to start on (they are also the widget's
traits), lab (the lesson only: its lab under it, its questions answered by the kernel), and the
adapter's (adapter.attention_maps: sentence_b_start, encoder_attention, decoder_attention,
cross_attention, encoder_tokens, decoder_tokens, kind, batch, source).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from attnlab.core.attention_maps import AttentionMaps
from attnlab.errors import ArgumentTypeError, AttnlabError
from attnlab.lesson.explain import LessonExplanation
from attnlab.models import ModelTrace
from attnlab.widget.adapter import attention_maps
from attnlab.widget.maps_widget import MapsWidget
from attnlab.widget.widgets import LessonWidget, ModelWidget

__all__ = ["show"]

Widget = LessonWidget | ModelWidget | MapsWidget


def _is_model(obj: Any) -> bool:
    return callable(getattr(obj, "trace", None)) and hasattr(obj, "config")


def _check_places(**places: Any) -> None:
    """layer, head, focus and beat are whole numbers (focus may be a token, focus and beat None):
    a wrong type is named here, before a widget's trait would refuse it with a bare TraitError."""
    for name, value in places.items():
        ok = isinstance(value, int) and not isinstance(value, bool)
        ok = ok or (value is None and name in ("focus", "beat"))
        ok = ok or (isinstance(value, str) and name == "focus")
        if not ok:
            raise ArgumentTypeError(f"{name} must be a whole number, got {value!r:.40}", field=name)


def show(
    what: Any = None,
    tokens: Sequence[str] | str | None = None,
    *,
    layer: int = 0,
    head: int = 0,
    focus: int | str | None = None,
    beat: int | None = None,
    lab: bool = False,
    **attention: Any,
) -> Widget:
    """A widget for `what` (see the module's docstring); display it as a cell's last line."""
    _check_places(layer=layer, head=head, focus=focus, beat=beat)
    if not isinstance(lab, bool):
        raise ArgumentTypeError(f"lab must be True or False, got {lab!r:.40}", field="lab")
    if lab and not isinstance(what, LessonExplanation):
        raise AttnlabError("the lab is the toy lesson's: show(attnlab.explain_lesson(...), "
                           f"lab=True), got {type(what).__name__}", field="lab")  # fmt: skip
    if tokens is not None and not isinstance(tokens, str | Sequence):
        raise ArgumentTypeError(f"tokens must be a list of strings, got {tokens!r:.40}",
                                field="tokens")  # fmt: skip
    if isinstance(what, LessonExplanation):
        return LessonWidget(what, beat=beat or 0, lab=lab)
    if isinstance(what, ModelTrace):
        return ModelWidget(what, layer=layer, head=head, focus=focus, beat=beat or 0)
    if _is_model(what):
        if not isinstance(tokens, str):
            raise AttnlabError("a model needs a text to run: show(model, 'by the river bank')",
                               field="text")  # fmt: skip
        mt = what.trace(tokens)
        return ModelWidget(mt, model=what, text=tokens, layer=layer, head=head, focus=focus,
                           beat=beat or 0)  # fmt: skip
    if isinstance(tokens, str):
        raise AttnlabError("tokens must be a list of strings, one per row, not one string",
                           field="tokens")  # fmt: skip
    maps = what if isinstance(what, AttentionMaps) else attention_maps(what, tokens, **attention)
    at = maps.tokens.index(focus) if isinstance(focus, str) and focus in maps.tokens else focus
    if isinstance(at, str):
        raise AttnlabError(f"focus {focus!r} is not one of the tokens {list(maps.tokens)}",
                           field="focus")  # fmt: skip
    return MapsWidget(maps, layer=layer, head=head, focus=at, beat=5 if beat is None else beat)
