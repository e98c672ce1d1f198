"""The notebook widgets: the toy lesson and a real model's heads (maps_widget.py: weights alone).

Each is an anywidget whose `_esm` is static/notebook.js with its imports inlined
(encode.bundle.view_module), so it loads from a `blob:` URL in JupyterLab, Notebook 7 and VS Code
with no server, no CDN and no request of its own; `_css` is the page's stylesheet scoped to the
widget (styles.py). The views read the same keys as on the web page, but here they are traits
synced with the kernel, and Python plays the part of the JSON API: when the view sets a key
(a token clicked, a head picked, a step taken) the trait changes, an observer recomputes what the
view shows (the lesson, one head's trace, the grid) and sets it back. `layer`, `head`, `focus`
and `beat` are plain traits both ways: set them from Python to move the view, `observe` them to
hear the learner. A refusal (an unknown word, a text too long) goes to `error` as
{"message", "field"}, as the API's 400 would, and the last good state stays on screen.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anywidget
import traitlets as t

import attnlab
from attnlab.core.attention_maps import AttentionMaps
from attnlab.encode.bundle import view_module
from attnlab.encode.lesson_json import encode_lesson
from attnlab.encode.model_json import encode_comparison
from attnlab.encode.page_json import encode_lab, encode_presets
from attnlab.errors import AttnlabError, FocusError, UnknownHeadError
from attnlab.lesson.explain import LessonExplanation, explain_lesson
from attnlab.models import Model, ModelTrace, load_model
from attnlab.models.compare import DEFAULT_A, DEFAULT_B, DEFAULT_WORD, compare
from attnlab.models.head_view import summary_of, text_of
from attnlab.widget import lab_answers, payloads
from attnlab.widget.mask_panel import MaskPanel
from attnlab.widget.matrix_panel import MatrixPanel
from attnlab.widget.styles import widget_css

__all__ = ["LessonWidget", "ModelWidget"]


def _maybe_dict() -> Any:
    """A synced dict trait that may be None (mypy reads traitlets' Dict as never None)."""
    return t.Dict(allow_none=True, default_value=None).tag(sync=True)


def _error(exc: AttnlabError, field: str | None = None) -> dict[str, Any]:
    return {"message": str(exc), "field": field or exc.field}


class _View(anywidget.AnyWidget):
    """What every attnlab widget shares: the module, the stylesheet, the page's words, the step."""

    _esm = view_module("notebook")
    _css = widget_css()
    view = t.Unicode("lesson").tag(sync=True)
    words = t.Dict().tag(sync=True)
    choices = t.Dict().tag(sync=True)
    error = _maybe_dict()
    global_keys = t.Bool(False).tag(sync=True)  # keys step the view they are pressed in
    beat = t.Int(0).tag(sync=True)  # 0..5: tokens, project, score, softmax, blend, parallel

    @t.validate("beat")
    def _beat_in_range(self, proposal: Any) -> int:
        b = int(proposal["value"])
        beats = self.choices.get("beats") or [None] * 6
        if not 0 <= b < len(beats):
            raise AttnlabError(f"beat {b} is outside 0..{len(beats) - 1}", field="beat")
        return b

    def __init__(self, **kwargs: Any) -> None:
        page = encode_presets()
        super().__init__(choices=page["choices"], words=payloads.words_for(page["words"]), **kwargs)
        self._quiet = False

    def save(self, path: str | Path, **options: Any) -> Path:
        """Write what the widget shows to `path` with `attnlab.save`: .html one self-contained
        page opening at this step and head, .json, .csv (weights from elsewhere: .csv, .json).
        `options` are save's (format, table, ...); the step, layer, head and focus default to
        the view's."""
        return attnlab.save(self._saveable(), path, **{**self._where(), **options})

    def _saveable(self) -> LessonExplanation | ModelTrace | AttentionMaps:
        raise NotImplementedError

    def _where(self) -> dict[str, Any]:
        """The view's step, head and token, as save's keyword options."""
        where = {"beat": self.beat, "focus": getattr(self, "focus", None)}
        for key in ("layer", "head"):
            if hasattr(self, key):
                where[key] = getattr(self, key)
        return where

    @contextmanager
    def _own(self) -> Any:
        """The widget's own updates: observers that answer the learner ignore them."""
        was, self._quiet = self._quiet, True
        try:
            yield
        finally:
            self._quiet = was


class LessonWidget(_View):
    """The toy lesson: `by the river bank`'s six beats, a context, a normalisation, a token.

    With `lab=True` the lab shows under it (view "lab"): its options are traits like the
    lesson's (temperature, positions, causal, heads, shuffle, edits, predict), and its sweep and
    cost are asked of the kernel as custom messages (lab_answers.py)."""

    sentence = t.Unicode().tag(sync=True)
    mode = t.Unicode("scaled").tag(sync=True)
    axis = t.Unicode("keys").tag(sync=True)
    focus = t.Union([t.Int(), t.Unicode()], allow_none=True).tag(sync=True)
    lesson = _maybe_dict()
    presets = t.Dict().tag(sync=True)
    lab = t.Dict().tag(sync=True)
    busy = t.Bool(False).tag(sync=True)
    cell: Any = t.List(allow_none=True, default_value=None).tag(sync=True)  # [i, j] or None
    guess = t.Int(allow_none=True, default_value=None).tag(sync=True)
    asking = t.Bool(False).tag(sync=True)
    present = t.Bool(False).tag(sync=True)  # presentation mode (static/present.js)
    # the lab's options (static/lab_state.js LAB_KEYS, and predict: the view's own)
    temperature = t.Float(allow_none=True, default_value=None).tag(sync=True)
    positions = t.Unicode("none").tag(sync=True)
    causal = t.Bool(False).tag(sync=True)
    heads = t.Int(1).tag(sync=True)
    shuffle = t.Int(allow_none=True, default_value=None).tag(sync=True)
    edits = t.Dict().tag(sync=True)  # {"set": {"bank": [1, 0, 0, 1]}, "set_q": ...}
    predict = t.Bool(False).tag(sync=True)

    def __init__(self, explanation: LessonExplanation, *, beat: int = 0, lab: bool = False) -> None:
        o = explanation.options
        super().__init__(
            view="lab" if lab else "lesson", sentence=explanation.sentence, mode=o.mode,
            axis=o.axis, focus=explanation.focus, presets=encode_presets(), lab=encode_lab(),
            beat=beat, temperature=o.temperature, positions=o.positions, causal=o.causal,
            heads=o.heads, shuffle=o.shuffle, edits=lab_answers.edit_params(o.edits),
        )  # fmt: skip
        self._options = o
        self._show(explanation)
        self.observe(self._reload, names=list(_LESSON_KEYS))
        self.on_msg(self._ask)

    def _ask(self, widget: Any, content: Any, buffers: Any) -> None:
        """A lab question from the view (static/notebook.js), answered by the kernel."""
        lab_answers.answer(content, self.send)

    @property
    def explanation(self) -> LessonExplanation:
        """The explanation on screen."""
        return self._explanation

    def _saveable(self) -> LessonExplanation:
        return self._explanation

    def _show(self, ex: LessonExplanation) -> None:
        self._explanation = ex
        self._good = {key: getattr(self, key) for key in _LESSON_KEYS} | {
            "sentence": ex.sentence, "mode": ex.options.mode, "axis": ex.options.axis,
            "focus": ex.focus,
        }  # fmt: skip
        with self._own():
            self.focus = ex.focus
        self.lesson = payloads.plain(encode_lesson(ex))

    def _reload(self, change: dict[str, Any]) -> None:
        if self._quiet:
            return
        wanted = {k: getattr(self, k) for k in self._good}
        if wanted == self._good:
            return
        if wanted["sentence"] != self._good["sentence"] and wanted["focus"] == self._good["focus"]:
            wanted["focus"] = (
                None  # a new sentence alone: follow its ambiguous word, as the page does
            )
        try:
            opts = lab_answers.lab_options(self._options, wanted)
            ex = explain_lesson(wanted["sentence"], opts, focus=wanted["focus"])
        except AttnlabError as exc:
            self.error = _error(exc)
            with self._own():  # back to the lesson on screen; the message stays
                for key, value in self._good.items():
                    setattr(self, key, value)
            return
        self.error = None
        self._show(ex)


_LESSON_KEYS = ("sentence", "mode", "axis", "focus", "temperature", "positions", "causal",
                "heads", "shuffle", "edits")  # fmt: skip
"""The keys whose change computes the lesson again (static/app.js LESSON_KEYS)."""


class _HeadsView(_View):
    """A model's layers × heads: the grid, one head's six beats, the weights table."""

    name = t.Unicode().tag(sync=True)
    text = t.Unicode().tag(sync=True)
    layer = t.Int(0).tag(sync=True)
    head = t.Int(0).tag(sync=True)
    focus = t.Int(allow_none=True, default_value=None).tag(sync=True)
    info = t.Dict().tag(sync=True)
    trace = _maybe_dict()
    grid = _maybe_dict()
    compare = _maybe_dict()
    compareError = _maybe_dict()
    status = t.Unicode("").tag(sync=True)
    word = t.Unicode(DEFAULT_WORD).tag(sync=True)
    a = t.Unicode(DEFAULT_A).tag(sync=True)
    b = t.Unicode(DEFAULT_B).tag(sync=True)

    def _sizes(self) -> tuple[int, int, int]:
        """(layers, heads, tokens) of what is on screen."""
        raise NotImplementedError

    @t.validate("layer", "head")
    def _head_in_range(self, proposal: Any) -> int:
        value, which = int(proposal["value"]), proposal["trait"].name
        size = self._sizes()[0 if which == "layer" else 1]
        if not 0 <= value < size:
            raise UnknownHeadError(f"{which} must be between 0 and {size - 1}, got {value}",
                                   field=which)  # fmt: skip
        return value

    @t.validate("focus")
    def _focus_in_range(self, proposal: Any) -> int | None:
        value: int | None = proposal["value"]
        n = self._sizes()[2]
        if value is not None and not 0 <= value < n:
            raise FocusError(f"focus index {value} is outside 0..{n - 1}")
        return value

    def _start(self) -> None:
        self.observe(self._pick, names=["layer", "head", "focus"])
        self.observe(self._retext, names=["text", "name"])
        self.observe(self._compare, names=["word", "a", "b"])

    def _pick(self, change: dict[str, Any]) -> None:
        if not self._quiet:
            self._refresh(grid=change["name"] == "focus")

    def _refresh(self, *, grid: bool) -> None:
        raise NotImplementedError

    def _retext(self, change: dict[str, Any]) -> None:
        raise NotImplementedError

    def _compare(self, change: dict[str, Any]) -> None:
        return None


class ModelWidget(_HeadsView, MatrixPanel, MaskPanel):
    """A real model's pass (`model.trace(text)`): every head, and any head's six beats.

    A head's beats, its whole matrix (matrix_panel.py) and the Mask a token panel's run
    (mask_panel.py) are computed in Python when the learner asks for them; a new text is run
    through the model (the one given, or loaded again by its name)."""

    def __init__(self, trace: ModelTrace, *, model: Model | None = None, text: str | None = None,
                 layer: int = 0, head: int = 0, focus: int | str | None = None,
                 beat: int = 0) -> None:  # fmt: skip
        self._mt, self._model = trace, model
        super().__init__(view="model", name=trace.model, text=text or text_of(trace),
                         info=payloads.model_info(trace), beat=beat)  # fmt: skip
        self._say_model()
        with self._own():
            self.layer, self.head = layer, head
            self.focus = trace.focus_index(focus)  # None: the last word, as the page follows
        self._good_text = self.text
        self._start_matrix()
        self._start_mask()
        self._refresh(grid=True)
        self._compare({})  # the Compare contexts panel's first answer, as the page asks it
        self._start()

    @property
    def model_trace(self) -> ModelTrace:
        """The pass on screen."""
        return self._mt

    def _saveable(self) -> ModelTrace:
        return self._mt

    def _sizes(self) -> tuple[int, int, int]:
        return self._mt.n_layers, self._mt.n_heads, self._mt.n

    def _say_model(self) -> None:
        """The page's words with this model's help and intro (words/model_help.py)."""
        s = summary_of(self._mt)
        self.words = payloads.words_for(
            encode_presets()["words"], causal=s.causal, special=s.special, tokens=self._mt.tokens
        )

    def _refresh(self, *, grid: bool) -> None:
        want = grid or self.grid is None
        head, held = payloads.model_answer(
            self._mt, layer=self.layer, head=self.head, focus=self.focus, grid=want
        )
        self.trace = head
        if want:
            self.grid = held
        self._follow_row(head["window"]["focus"])
        self._show_mask()  # as the page's host asks it after each head (model_view_asks.js)

    def _mask_on(self) -> tuple[Model, ModelTrace, int]:
        assert self.trace is not None  # shown before any mask is asked
        return self._loaded(), self._mt, int(self.trace["window"]["focus"])

    def _matrix_head(self) -> tuple[ModelTrace, int, int]:
        return self._mt, self.layer, self.head

    def _loaded(self) -> Model:
        if self._model is None:
            self._model = load_model(self._mt.model)
        return self._model

    def _retext(self, change: dict[str, Any]) -> None:
        if self._quiet:
            return
        if change["name"] == "name" and self.name != self._mt.model:
            with self._own():
                self.name = self._mt.model
            return
        try:
            mt = self._loaded().trace(self.text)
        except AttnlabError as exc:
            self.error = _error(exc, "text")
            with self._own():
                self.text = self._good_text
            return
        self._mt, self._good_text, self.error = mt, self.text, None
        self._say_model()
        with self._own():
            self.focus = mt.focus_index(None)
        self._refresh(grid=True)

    def _compare(self, change: dict[str, Any]) -> None:
        try:
            model = self._loaded()
            result = compare(model.trace(self.a), model.trace(self.b), self.word)
            # /api/model/compare's answer: the comparison and A − B on the keys both texts hold
            self.compare = encode_comparison(result).model_dump(mode="json")
            self.compareError = None
        except AttnlabError as exc:
            field = "word" if isinstance(exc, FocusError) else exc.field
            self.compareError = _error(exc, field)
