"""`attnlab.show(...)`: one call for the lesson, a real model's pass, or attention from elsewhere.

    show(attnlab.explain_lesson("by the river bank"))     the toy lesson
    show(attnlab.explain_lesson(...), lab=True)           the lesson with its lab under it
    show(model.trace(text))  or  show(model, text)        a real model: every head, any head's beats
    show(outputs.attentions, tokens)                      weights from transformers, BertViz,
    show(attention, tokens)                               CircuitsVis, NumPy or nested lists

Options are keyword-only: layer, head, focus and beat to start on (they are also the widget's
traits), lab (the lesson only: its lab under it, its questions answered by the kernel), and the
adapter's (adapter.attention_maps: sentence_b_start, encoder_attention, decoder_attention,
cross_attention, encoder_tokens, decoder_tokens, kind, batch, source, include_layers,
include_heads, heads, prettify_tokens). BertViz's `attention=` names the weights too, and its
`html_action="view"` is what a widget does; any other option is refused by name.

With `include_layers` or `include_heads`, `layer=` and `head=` are the model's own numbers (as
BertViz's `layer=`), and the widget's `layer` and `head` traits count the layers and heads shown.
"""

from __future__ import annotations

import inspect
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
        ok = ok or value is None  # layer and head: the first shown
        ok = ok or (isinstance(value, str) and name == "focus")
        if not ok:
            raise ArgumentTypeError(f"{name} must be a whole number, got {value!r:.40}", field=name)


ADAPTER_OPTIONS = tuple(
    name for name, p in inspect.signature(attention_maps).parameters.items()
    if p.kind is inspect.Parameter.KEYWORD_ONLY
)  # fmt: skip
"""The options show() hands to the adapter: attention_maps' keyword-only parameters."""

HTML_ACTIONS = {
    "return": (
        "html_action='return' is BertViz's way to get its HTML back; attnlab.show returns a "
        "widget: display it as the cell's last line, or save what it shows with "
        "w.save('weights.csv') or w.save('weights.json')"
    ),
}
"""BertViz's html_action values show() refuses, and why ("view" is what a widget does)."""


def _bertviz_options(attention: dict[str, Any]) -> None:
    """BertViz's html_action, and any option neither show() nor the adapter knows, named."""
    action = attention.pop("html_action", "view")
    if action != "view":
        why = HTML_ACTIONS.get(action) if isinstance(action, str) else None
        raise AttnlabError(why or f"html_action must be 'view' (BertViz's values: 'view', "
                           f"'return'), got {action!r:.40}", field="html_action")  # fmt: skip
    unknown = sorted(set(attention) - set(ADAPTER_OPTIONS))
    if unknown:
        own = ("layer", "head", "focus", "beat", "lab", "attention", "html_action")
        known = ", ".join((*own, *ADAPTER_OPTIONS))
        raise ArgumentTypeError(
            f"show() has no option {', '.join(map(repr, unknown))}; it takes {known}",
            field=unknown[0],
        )


def _place(value: int | None, ids: tuple[int, ...], name: str) -> int:
    """`layer=` or `head=` as the model numbers it, as a position among the ones shown."""
    if value is None:
        return 0
    if value not in ids:
        raise AttnlabError(
            f"{name} {value} is not among the {name}s shown, {', '.join(str(i) for i in ids)}",
            field=name,
        )
    return ids.index(value)


def show(
    what: Any = None,
    tokens: Sequence[str] | str | None = None,
    *,
    layer: int | None = None,
    head: int | None = None,
    focus: int | str | None = None,
    beat: int | None = None,
    lab: bool = False,
    **attention: Any,
) -> Widget:
    """A widget for `what` (see the module's docstring); display it as a cell's last line."""
    if "attention" in attention:  # BertViz's head_view(attention=..., tokens=...)
        if what is not None:
            raise ArgumentTypeError("the attention is given twice: positionally and as "
                                    "attention=; give it once", field="attention")  # fmt: skip
        what = attention.pop("attention")
    _bertviz_options(attention)
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
        return ModelWidget(what, layer=layer or 0, head=head or 0, focus=focus, beat=beat or 0)
    if _is_model(what):
        if not isinstance(tokens, str):
            raise AttnlabError("a model needs a text to run: show(model, 'by the river bank')",
                               field="text")  # fmt: skip
        mt = what.trace(tokens)
        return ModelWidget(mt, model=what, text=tokens, layer=layer or 0, head=head or 0,
                           focus=focus, beat=beat or 0)  # fmt: skip
    if isinstance(tokens, str):
        raise AttnlabError("tokens must be a list of strings, one per row, not one string",
                           field="tokens")  # fmt: skip
    maps = what if isinstance(what, AttentionMaps) else attention_maps(what, tokens, **attention)
    at = maps.tokens.index(focus) if isinstance(focus, str) and focus in maps.tokens else focus
    if isinstance(at, str):
        raise AttnlabError(f"focus {focus!r} is not one of the tokens {list(maps.tokens)}",
                           field="focus")  # fmt: skip
    return MapsWidget(maps, layer=_place(layer, maps.layer_ids, "layer"),
                      head=_place(head, maps.head_ids, "head"), focus=at,
                      beat=5 if beat is None else beat)  # fmt: skip
