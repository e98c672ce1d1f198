"""The models and the last traces one process keeps, each key computed once.

A server's models worker (web/model_service.py) answers many requests about the same few texts:
stepping through the heads of one text should run its forward pass once, and a head's beats,
picture and rows should share one recomputation. So this module keeps

    every model asked for      loaded on first use, once, for the life of the process
    the last TRACES traces     by (model, text): a ModelTrace
    the last HEADS heads       by (model, text, layer, head): the head's recomputed Trace

and a second caller that asks for a key being computed waits for that computation instead of
starting its own (`Kept`, a single-flight LRU), while other keys are computed side by side.

A name is a known model ("minilm", "smollm2") or a folder registered with `serve_folder`
(`attnlab serve --model PATH`), never a path: `known_name` refuses anything else, so a request
cannot make the process read a file. Each folder's name is its own: two folders of one name
(a/tiny and b/tiny) are "tiny" and "tiny-2", in the order served. The caller decides what a
long forward pass costs: `trace` takes a `heavy(tokens)` context factory (the web's heavy slot)
to run it in.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from contextlib import AbstractContextManager, nullcontext
from functools import lru_cache
from typing import Generic, TypeVar

from attnlab.core.trace import Trace
from attnlab.errors import AttnlabError, UnknownModelError
from attnlab.models.model_trace import ModelTrace
from attnlab.models.protocol import Model
from attnlab.models.registry import KNOWN_MODELS, load_model, model_folder

__all__ = [
    "HEADS",
    "NAMES",
    "REFUSED",
    "SERVED",
    "TRACES",
    "Kept",
    "cached_head",
    "cached_model",
    "cached_trace",
    "description",
    "known_name",
    "loaded_model",
    "model_names",
    "refuse_folder",
    "serve_folder",
    "served_name",
]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

SERVED: dict[str, str] = {}
"""Folders registered with `serve_folder`: display name -> path. Only `serve_folder` adds."""

REFUSED: dict[str, tuple[str, str]] = {}
"""Folders `attnlab serve` was given and could not serve: their own name -> (path, why), so a
page asking for one hears why instead of "unknown model". Only `refuse_folder` adds."""

NAMES: list[str] = list(KNOWN_MODELS)
"""Every name a caller may ask for, the known models then the served folders (extended in place
by `serve_folder`, so a schema that holds this list names the folders too)."""

_LOADING = threading.Lock()


def model_names() -> tuple[str, ...]:
    """Every name a caller may ask for: the known models, then the served folders."""
    return tuple(NAMES)


def known_name(name: str) -> str:
    """`name` as it is kept (a known model in lower case, or a served folder's name)."""
    if name.lower() in KNOWN_MODELS:
        return name.lower()
    if name not in SERVED:
        if name in REFUSED:
            path, why = REFUSED[name]
            raise UnknownModelError(
                f"the model {name!r} is not served: the server refused the folder at {path!r} "
                f"when it started ({why}); it serves {', '.join(model_names())}"
            )
        raise UnknownModelError(
            f"unknown model {name!r}: expected one of {', '.join(model_names())}"
        )
    return name


def refuse_folder(path: str, why: str) -> None:
    """Remember that the folder at `path` was not served, and why (its own name: the name a
    page would ask for it by)."""
    try:
        own = model_folder(path)[0]
    except (AttnlabError, OSError):  # the path itself was the trouble: its last part is the name
        own = os.path.basename(os.path.normpath(path))
    if own not in SERVED:
        REFUSED[own] = (path, why)


@lru_cache(maxsize=len(KNOWN_MODELS) + 4)
def loaded_model(name: str) -> Model:
    return load_model(SERVED[name], name=name) if name in SERVED else load_model(name)


def cached_model(name: str) -> Model:
    """The model called `name` (a known one or a served folder's), loaded on first use and
    kept for the life of the process (one thread loads it while the others wait, so it is in
    memory once)."""
    with _LOADING:
        return loaded_model(name)


def served_name(path: str) -> str | None:
    """The name the folder at `path` is served by, or None if it is not served."""
    here = os.path.realpath(path)
    return next((n for n, p in SERVED.items() if os.path.realpath(p) == here), None)


def _free_name(own: str) -> str:
    """`own` (a folder's or file's name) if no model has it, else `own-2`, `own-3`, …; a known
    model's name is the folder's `own-folder` first."""
    base = own if own not in KNOWN_MODELS else f"{own}-folder"
    taken = set(SERVED) | set(KNOWN_MODELS)
    return next(n for n in (base, *(f"{base}-{i}" for i in range(2, len(taken) + 3)))
                if n not in taken)  # fmt: skip


def serve_folder(path: str, *, name: str | None = None) -> str:
    """Load the model at `path` (a Hugging Face-layout folder or a GGUF) now, so a bad folder
    fails at once, and let callers ask for it by the name returned: `name` if given (the
    server's worker is given the names the server chose), else the folder's own name made
    distinct (`_free_name`). A folder already served keeps its name."""
    kept = served_name(path)
    if kept is not None:
        return kept
    if name is None or name in SERVED or name in KNOWN_MODELS:
        name = _free_name(model_folder(path)[0])
    load_model(path, name=name)
    SERVED[name] = path
    if name not in NAMES:
        NAMES.append(name)
    loaded_model.cache_clear()
    return name


def description(name: str, model: Model) -> str:
    """What the model called `name` is, in a sentence: a known model's own, or a folder's sizes."""
    if name in KNOWN_MODELS:
        return KNOWN_MODELS[name].description
    c = model.config
    return (
        f"{name}: a {c.architecture} model from {SERVED[name]}, {c.n_layers} layers, "
        f"{c.n_heads} heads, d_model {c.d_model}"
    )


class Kept(Generic[K, V]):
    """The last `size` values by key, shared by threads. Each key is computed once: a second
    request for a key being computed waits for that computation instead of starting its own
    (the page asks for a head's beats and its picture at once), while other keys are computed
    in parallel."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()
        self._computing: dict[K, threading.Lock] = {}

    def get(self, key: K, compute: Callable[[], V]) -> V:
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
            turn = self._computing.setdefault(key, threading.Lock())
        with turn:
            with self._lock:
                if key in self._kept:  # computed by the request we waited for
                    return self._kept[key]
            try:
                value = compute()
            finally:
                with self._lock:
                    self._computing.pop(key, None)
            with self._lock:
                self._kept[key] = value
                while len(self._kept) > self.size:
                    self._kept.popitem(last=False)
            return value


TRACES: Kept[tuple[str, str], ModelTrace] = Kept(4)
"""A 2,048-token SmolLM2 trace holds about 0.4 GB, a MiniLM one of 128 tokens about 20 MB."""

HEADS: Kept[tuple[str, str, int, int], Trace] = Kept(4)
"""A 2,048-token head holds three n × n float32 arrays, 48 MB."""


def cached_trace(
    name: str,
    text: str,
    *,
    heavy: Callable[[int], AbstractContextManager[None]] = lambda tokens: nullcontext(),
) -> ModelTrace:
    """The kept trace of `text` by the model `name`; one not kept yet is computed now, inside
    `heavy(number of tokens)` (nothing by default)."""
    model = cached_model(name)

    def run() -> ModelTrace:
        with heavy(len(model.tokenize(text)[1])):
            return model.trace(text)

    return TRACES.get((name, text), run)


def cached_head(name: str, text: str, mt: ModelTrace, layer: int, head: int) -> Trace:
    """The kept head (`layer`, `head`) of `mt`, the trace of `text` by the model `name`."""
    return HEADS.get((name, text, layer, head), lambda: mt.head(layer, head))
