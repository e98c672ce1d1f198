"""One HTML file that works alone: a lesson or a real model's heads, opened from file://.

The file holds the page's styles, one script (encode/bundle.host_script: a small host and the
view it renders, every import inlined) and the numbers the view can ask for, precomputed here:

    a lesson   the exported sentence under each normalization (Scaled, No √dₖ, Uniform) with
               each of its tokens followed, every other lab option as exported
    a model    one text and the token followed: every layer's every head (the page's answer:
               models/head_view.py through encode/head_json.py, its layer input kept once per
               layer in "embeddings") and the heads grid, the model's info and words
               (words/model_help.py); at most MODEL_TOKENS_AT_MOST tokens, so the file stays
               small. What makes it large is L·H heads each with its own queries, outputs,
               words and RoPE curve (SmolLM2: 270 heads, ~18 KB each at 9 tokens); what heads
               share is kept once in "arrays" (SHARED: a GQA group's keys and values, the
               causal mask), the head's field then {"ref": i}. SmolLM2's 9-token file: 7.2 MB
               before, 6.0 MB so.

Stepping, the token followed (a lesson), the normalization (a lesson), the layer and head (a
model) work in the file; asking for anything else (another sentence or text) says, in the
page's words, what the file holds. The file makes no request: no server, no CDN, no font.
The skeleton is static/standalone.html; its three markers receive the style, data and script.
"""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache
from importlib.resources import files
from typing import Any

from attnlab.atlas.atlas_view import AtlasView
from attnlab.core.positions import KINDS
from attnlab.encode.atlas_json import encode_atlas
from attnlab.encode.bundle import host_script
from attnlab.encode.head_json import encode_grid_view, encode_head_view, encode_info
from attnlab.encode.lesson_json import encode_lesson
from attnlab.errors import AttnlabError, ExportError
from attnlab.lesson.explain import LessonExplanation, explain_lesson
from attnlab.lesson.toy import MAX_TOKENS, VOCABULARY
from attnlab.models.head_view import head_view, summary_of, text_of
from attnlab.models.model_trace import ModelTrace
from attnlab.types import AXES, MODES
from attnlab.words.atlas_words import ATLAS_VIEW_WORDS
from attnlab.words.model_help import model_words
from attnlab.words.page import BEAT_TITLES, MODE_CHOICES, PAGE_WORDS

__all__ = [
    "MODEL_TOKENS_AT_MOST",
    "SHARED",
    "STYLES",
    "atlas_html",
    "file_head",
    "standalone_html",
]

SHARED = ("keys", "values", "mask")
"""A head's fields that other heads may carry identically, kept once in the file's "arrays"."""
MODEL_TOKENS_AT_MOST = 32
"""A model's file holds L·H heads of n² numbers each: beyond this many tokens it is refused."""
STYLES = ("style.css", "model.css", "model_views.css", "export.css", "present.css", "atlas.css")
"""The page's stylesheets the file inlines, in order."""


def _static(name: str) -> str:
    return (files("attnlab") / "static" / name).read_text(encoding="utf-8")


def _choices() -> dict[str, Any]:
    return {
        "modes": [{"value": v, "label": lab, "help": h} for v, lab, h in MODE_CHOICES],
        "axes": list(AXES),
        "positions": list(KINDS),
        "beats": [{"key": k, "title": t} for k, t in BEAT_TITLES],
    }


def lesson_data(ex: LessonExplanation, *, beat: int = 0) -> dict[str, Any]:
    """What the lesson host reads: the state, the page's words and choices, and the lesson for
    every (mode, focus) the file offers, keyed "mode|focus"."""
    lessons: dict[str, Any] = {}
    for mode in MODES:
        for focus in range(len(ex.trace.tokens)):
            try:
                other = explain_lesson(ex.sentence, replace(ex.options, mode=mode), focus=focus)
            except AttnlabError:  # an option that does not combine with this mode
                continue
            lessons[f"{mode}|{focus}"] = encode_lesson(other)
    sentence = ex.sentence  # as it was typed: the text box shows the text traced
    return {
        "kind": "lesson",
        "state": {
            "sentence": sentence,
            "mode": ex.options.mode,
            "axis": ex.options.axis,
            "focus": ex.focus,
            "beat": beat,
        },
        "presets": {
            "presets": [{"name": sentence, "sentence": sentence, "focus": ex.focus, "blurb": ""}],
            "vocabulary": sorted(VOCABULARY),
            "max_tokens": MAX_TOKENS,
        },
        "choices": _choices(),
        "words": dict(PAGE_WORDS),
        "held": PAGE_WORDS["standalone.this_sentence"],
        "note": PAGE_WORDS["standalone.lesson_note"],
        "lessons": lessons,
    }


def model_data(
    mt: ModelTrace, *, layer: int = 0, head: int = 0, focus: str | int | None = None, beat: int = 0
) -> dict[str, Any]:
    """What the model host reads: the state, the model's sizes, every head for one focus."""
    if mt.n > MODEL_TOKENS_AT_MOST:
        raise ExportError(
            f"a model's HTML file holds every head for texts of up to {MODEL_TOKENS_AT_MOST} "
            f"tokens; this text has {mt.n}: save a shorter one, or its .json",
            field="text",
        )
    f = mt.focus_index(focus)
    mt.head(layer, head)  # a layer or head outside the model is refused here, by name
    heads, embeddings = {}, []
    for li in range(mt.n_layers):
        for hi in range(mt.n_heads):
            one = encode_head_view(head_view(mt, layer=li, head=hi, focus=f, grid="none"))
            if hi == 0:  # the layer's input, the same for its every head: kept once
                kept = one.embeddings
                embeddings.append(None if kept is None else kept.model_dump(mode="json"))
            heads[f"{li}|{hi}"] = one.model_dump(mode="json", exclude={"grid", "embeddings"})
    arrays = _share(heads)
    s = summary_of(mt)
    text = text_of(mt)
    shown = PAGE_WORDS.get(f"model.name.{mt.model}", mt.model)
    full = head_view(mt, layer=layer, head=head, focus=f, grid="full").grid
    return {
        "kind": "model",
        "state": {
            "name": mt.model,
            "text": text,
            "layer": layer,
            "head": head,
            "focus": f,
            "beat": beat,
        },
        "info": encode_info(
            s,
            known_models=[mt.model],
            grids=["full"],
            max_text_chars=len(text),
            compare_defaults=None,
        ).model_dump(mode="json"),
        "choices": _choices(),
        "words": model_words(PAGE_WORDS, causal=s.causal, special=s.special, tokens=mt.tokens),
        "held": PAGE_WORDS["standalone.this_text"],
        "note": PAGE_WORDS["standalone.model_note"].format(model=shown, token=mt.tokens[f]),
        "heads": heads,
        "shared": list(SHARED),
        "arrays": arrays,
        "embeddings": embeddings,
        "grid": None if full is None else encode_grid_view(full, s).model_dump(mode="json"),
    }


def _share(heads: dict[str, dict[str, Any]]) -> list[Any]:
    """Each distinct value of the SHARED fields once, in order; each head's field becomes
    {"ref": its index} (in place). Identical means the same JSON: the same numbers exactly."""
    index: dict[str, int] = {}
    arrays: list[Any] = []
    for one in heads.values():
        for name in SHARED:
            key = json.dumps(one[name], sort_keys=True)
            if key not in index:
                index[key] = len(arrays)
                arrays.append(one[name])
            one[name] = {"ref": index[key]}
    return arrays


def file_head(data: dict[str, Any], layer: int, head: int) -> dict[str, Any]:
    """Head (layer, head) of a model file's data as the page's route answers it: its shared
    fields and its layer's input put back (what standalone_model.js's `held` does)."""
    one = dict(data["heads"][f"{layer}|{head}"])
    for name in data["shared"]:
        one[name] = data["arrays"][one[name]["ref"]]
    return {**one, "embeddings": data["embeddings"][layer]}


def _safe_json(data: dict[str, Any]) -> str:
    """JSON that cannot end its <script> element early: every "<" is written \\u003c."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def _inline(text: str, tag: str) -> str:
    """Text for inside a <tag> element: a closing "</tag" in it is escaped (JS and CSS read
    "<\\/" as "</" in strings and comments, where alone it could occur)."""
    return text.replace(f"</{tag}", f"<\\/{tag}")


@cache
def _skeleton() -> str:
    return _static("standalone.html")


def standalone_html(
    obj: LessonExplanation | ModelTrace,
    *,
    beat: int = 0,
    layer: int = 0,
    head: int = 0,
    focus: str | int | None = None,
) -> str:
    """The self-contained HTML text of a lesson (every token and normalization) or of a real
    model's text (every head, following `focus`); it opens at step `beat` (0..5)."""
    if not 0 <= beat < len(BEAT_TITLES):
        raise ExportError(f"beat must be between 0 and {len(BEAT_TITLES) - 1}, got {beat}",
                          field="beat")  # fmt: skip
    if isinstance(obj, LessonExplanation):
        data, host = lesson_data(obj, beat=beat), "standalone_lesson"
        title = f"{PAGE_WORDS['lesson.title_export']}: {data['state']['sentence']}"
    elif isinstance(obj, ModelTrace):
        data = model_data(obj, layer=layer, head=head, focus=focus, beat=beat)
        host = "standalone_model"
        title = f"{PAGE_WORDS['lesson.title_export']}: {data['state']['text']}"
    else:
        raise ExportError(f"cannot make a page of a {type(obj).__name__}", field="obj")
    style = "\n".join(_inline(_static(name), "style") for name in STYLES)
    html = _skeleton()
    for marker, value in (
        ("title", _escape(title)),
        ("style", style),
        ("data", _safe_json(data)),
        ("script", _inline(host_script(host), "script")),
    ):
        html = html.replace(f"<!--attnlab:{marker}-->", value, 1)
    return html


def atlas_html(view: AtlasView) -> str:
    """The self-contained HTML text of a head atlas: the Atlas view on the file's own numbers
    (encode/atlas_json.py's answer, as GET /api/atlas sends it)."""
    answer = encode_atlas(view).model_dump(mode="json")
    p = view.provenance
    data = {
        "kind": "atlas",
        "atlas": answer,
        "note": ATLAS_VIEW_WORDS["atlas.standalone_note"].format(model=p.model, corpus=p.corpus),
    }
    title = f"{ATLAS_VIEW_WORDS['atlas.tab']}: {p.model} on {p.corpus}"
    style = "\n".join(_inline(_static(name), "style") for name in STYLES)
    html = _skeleton()
    for marker, value in (
        ("title", _escape(title)),
        ("style", style),
        ("data", _safe_json(data)),
        ("script", _inline(host_script("standalone_atlas"), "script")),
    ):
        html = html.replace(f"<!--attnlab:{marker}-->", value, 1)
    return html


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
