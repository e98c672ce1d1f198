"""One real head as every host shows it, computed once: the frozen `HeadView`.

`head_view(mt, layer=, head=, focus=)` reads a ModelTrace for one (layer, head, focus) and
returns everything the Real model view shows of it, so the page's route, the notebook widget
and the offline file only encode it (encode/head_json.py) and never call back into the model:

    explanation   the lesson's six beats on the whole text (another mode or axis re-runs
                  `attend` on the head's own q, k, v: heads.explain_head)
    rows, pair    the tokens the beats show (window.py: all of a short text) and the pair the
                  Parallel beat reads both ways; `mask` is the causal mask cut to those rows
    gqa           the focus token's key and value as each query head of the group reads them
    rope          a decoder's RoPE curve and next tokens (None for an encoder)
    grid          every head's focus row, diagnostics and (short texts, kind "full") matrices
    word          the word the focus is a piece of, when it has several
    summary       the model's name, sizes and limits (summary.py), the words' chooser
    text, spans   the text traced and each token's character span in it

Row i, column j means token i (the query) attends to token j (the key).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

import numpy as np

from attnlab.core.diagnostics import HeadStats
from attnlab.core.softmax import entropy_bits
from attnlab.core.trace import Trace
from attnlab.models.decoder_trace import DecoderTrace
from attnlab.models.heads import explain_head
from attnlab.models.model_trace import ModelTrace
from attnlab.models.pieces import Word, split_words
from attnlab.models.protocol import Model
from attnlab.models.registry import KNOWN_MODELS
from attnlab.models.summary import ModelSummary
from attnlab.models.window import window
from attnlab.types import Axis, BoolArray, FloatArray, Mode
from attnlab.words.explanation import Explanation
from attnlab.words.narration import asymmetric_pair

__all__ = [
    "FULL_GRID_AT",
    "GRID_ROWS_AT",
    "ROPE_DISTANCES",
    "TOP_NEXT",
    "GqaReads",
    "Grid",
    "GridView",
    "HeadView",
    "RopeView",
    "head_view",
    "model_summary",
    "rope_view",
    "summary_of",
    "text_of",
    "view_of",
]

Grid = Literal["focus", "full", "none"]
FULL_GRID_AT = 40
"""Up to this many tokens the grid may carry every head's whole matrix."""
GRID_ROWS_AT = 512
"""Beyond this many tokens the grid carries no focus rows (30 × 9 × 2,048 codes are over 1 MB):
its cells are coloured by a diagnostic instead."""
ROPE_DISTANCES = 2048
"""The score-by-distance curve runs over distances 0..min(this, max(n, 256)) − 1."""
TOP_NEXT = 5
GQA_ENTRIES = 4
"""How many leading entries of each head's key and value the GQA line shows."""


@dataclass(frozen=True)
class GqaReads:
    """The key/value head a query head reads, the query heads sharing it, and the focus
    token's key and value as each of them reads it (the first GQA_ENTRIES numbers)."""

    kv_head: int
    group: tuple[int, ...]
    identical: bool  # every head of the group read equal keys and values
    keys: FloatArray  # (g, GQA_ENTRIES)
    values: FloatArray  # (g, GQA_ENTRIES)


@dataclass(frozen=True)
class RopeView:
    """A decoder's focus query before and after RoPE, its score against the key it weighs
    most as the distance between them grows, and the next tokens it predicts. A decoder with
    learned positions (GPT-2, `positions` "learned") has no rotation: the three RoPE arrays
    are None and the next tokens alone are shown."""

    focus: int
    key: int
    distance: int  # focus − key
    query_before: FloatArray | None  # (d_k,); None with learned positions
    query_after: FloatArray | None  # (d_k,)
    scores: FloatArray | None  # (D,) q·k/√d_k at distances 0..D − 1
    next_after_focus: tuple[tuple[str, float, bool], ...]  # (token, probability, special)
    next_after_last: tuple[tuple[str, float, bool], ...]
    positions: Literal["rope", "learned"] = "rope"


@dataclass(frozen=True)
class GridView:
    """Every head at a glance for one focus: its row in each head and the diagnostics."""

    kind: Literal["focus", "full"]
    focus: int
    rows: FloatArray  # (L, H, n) the focus token's budget in every head
    stats: HeadStats  # (L, H) means over the query rows
    send_rows: bool  # False beyond GRID_ROWS_AT tokens: the cells show a diagnostic
    attentions: FloatArray | None  # (L, H, n, n) for kind "full" of a short text

    @property
    def top(self) -> FloatArray:
        """(L, H): the key each head's focus row weights most."""
        top: FloatArray = self.rows.argmax(axis=-1)
        return top

    @property
    def entropy_bits(self) -> FloatArray:
        """(L, H): the focus row's entropy in each head."""
        return entropy_bits(self.rows.astype(np.float64))


@dataclass(frozen=True)
class HeadView:
    """One head of one trace for one focus, as the page, the widget and the file show it."""

    summary: ModelSummary
    layer: int
    head: int
    explanation: Explanation  # on the whole text
    rows: tuple[int, ...]  # the token index of each row shown
    pair: tuple[int, int]  # token indices
    mask: BoolArray | None  # (r, r) the mask cut to the rows shown
    gqa: GqaReads
    rope: RopeView | None
    grid: GridView | None
    word: Word | None
    text: str
    spans: tuple[tuple[int, int], ...] | None

    @property
    def trace(self) -> Trace:
        return self.explanation.trace

    @property
    def focus(self) -> int:
        """The focus token's index in the whole text."""
        return self.explanation.focus


def summary_of(mt: ModelTrace) -> ModelSummary:
    """The trace's model summary with its description; a trace built without one gets the
    sizes it holds (its own length as the limit)."""
    s = mt.summary
    if s is None:
        keep = mt.layers[0]
        s = ModelSummary(
            name=mt.model, architecture="decoder" if mt.causal else "encoder",
            n_layers=mt.n_layers, n_heads=mt.n_heads, n_kv_heads=mt.n_kv_heads,
            d_model=int(mt.hidden_states.shape[-1]), d_k=int(keep.queries.shape[-1]),
            max_tokens=mt.n, causal=mt.causal, special=mt.special,
        )  # fmt: skip
    return _described(s)


def _described(s: ModelSummary) -> ModelSummary:
    if s.description:
        return s
    known = KNOWN_MODELS.get(s.name)
    description = known.description if known else (
        f"{s.name}: a {s.architecture} model, {s.n_layers} layers, {s.n_heads} heads, "
        f"d_model {s.d_model}"
    )  # fmt: skip
    return replace(s, description=description)


def model_summary(model: Model) -> ModelSummary:
    """A loaded model's summary with its description (the one its traces carry, when it has
    one: bert.py and llama.py name their special tokens in it)."""
    found = getattr(model, "summary", None)
    s = found if isinstance(found, ModelSummary) else ModelSummary.of(model)
    return _described(s)


def text_of(mt: ModelTrace) -> str:
    """The text traced; for a pass begun from token ids (masking.py), the text its tokens
    spell (WordPiece's ## joined, a byte-level token's leading space kept)."""
    if mt.text is not None:
        return mt.text
    out = ""
    for tok in mt.tokens:
        if tok in mt.special:
            continue
        if tok.startswith("##"):
            out += tok[2:]
        else:
            piece = tok.replace("Ġ", " ").replace("▁", " ")
            out += piece if mt.causal or piece.startswith(" ") or not out else " " + piece
    return out.strip()


def head_view(
    mt: ModelTrace, *, layer: int, head: int, focus: str | int | None = None,
    mode: Mode = "scaled", axis: Axis = "keys", grid: Grid = "focus",
    kept: Trace | None = None,
) -> HeadView:  # fmt: skip
    """The view of head (layer, head) of `mt` following `focus` (default: the last word);
    `kept` is that head's Trace when the host keeps it already (mt.head(layer, head))."""
    if kept is not None and (mode, axis) == ("scaled", "keys"):
        ex = Explanation.of(kept, mt.focus_index(focus))  # the kept head, as the model ran it
    else:
        ex = explain_head(mt, layer=layer, head=head, focus=focus, mode=mode, axis=axis)
    return view_of(mt, ex, layer=layer, head=head, grid=grid)


def view_of(mt: ModelTrace, ex: Explanation, *, layer: int, head: int, grid: Grid) -> HeadView:
    """The view of an explanation already made of head (layer, head) of `mt`."""
    t, f = ex.trace, ex.focus
    pair = asymmetric_pair(t, f)
    rows = window(t.weights[f], f, extra=pair)  # 1. the rows shown
    sub = np.asarray(rows, dtype=np.intp)
    return HeadView(
        summary=summary_of(mt), layer=layer, head=head, explanation=ex, rows=rows,
        pair=(pair[0], pair[1]),
        mask=t.mask[np.ix_(sub, sub)] if t.mask is not None else None,
        gqa=_gqa(mt, layer, head, f), rope=rope_view(mt, layer, head, f),
        grid=_grid(mt, f, grid), word=_word(mt, f), text=text_of(mt), spans=mt.spans,
    )  # fmt: skip


def _gqa(mt: ModelTrace, layer: int, head: int, focus: int) -> GqaReads:
    """2. The key/value head `head` reads, as each query head of its group reads it."""
    g = mt.n_heads // mt.n_kv_heads
    kv = mt.kv_head(head)
    group = tuple(range(kv * g, kv * g + g))
    reads = [mt.layers[layer].read_by(i) for i in group]  # (n, d_k), (n, d_v) for each head
    k0, v0 = reads[0]
    same = all(np.array_equal(k0, k) and np.array_equal(v0, v) for k, v in reads)
    keys = np.stack([k[focus, :GQA_ENTRIES] for k, _ in reads])  # (g, 4)
    values = np.stack([v[focus, :GQA_ENTRIES] for _, v in reads])  # (g, 4)
    return GqaReads(kv, group, same, keys, values)


def rope_view(mt: ModelTrace, layer: int, head: int, focus: int) -> RopeView | None:
    """3. A decoder's RoPE curve and next tokens (the next tokens alone for learned positions,
    GPT-2's); None for an encoder."""
    if not isinstance(mt, DecoderTrace) or mt.readout is None:
        return None  # an encoder: no next token to predict
    row = mt.rows(focus)[layer, head]  # (n,) the focus row of this head
    key = int(np.argmax(row))
    if not mt.has_rope(layer):  # learned positions (GPT-2): no rotation to show
        return RopeView(
            focus=focus, key=key, distance=focus - key, query_before=None, query_after=None,
            scores=None, next_after_focus=mt.next_tokens_marked(focus, TOP_NEXT),
            next_after_last=mt.next_tokens_marked(None, TOP_NEXT), positions="learned",
        )  # fmt: skip
    before, after = mt.rope_query(layer, head, focus)  # (d_k,) each
    d = min(ROPE_DISTANCES, max(mt.n, 256))
    scores = mt.score_by_distance(layer, head, focus, key, distances=d)  # (d,)
    return RopeView(
        focus=focus, key=key, distance=focus - key, query_before=before, query_after=after,
        scores=scores, next_after_focus=mt.next_tokens_marked(focus, TOP_NEXT),
        next_after_last=mt.next_tokens_marked(None, TOP_NEXT),
    )  # fmt: skip


def _grid(mt: ModelTrace, focus: int, kind: Grid) -> GridView | None:
    """4. Every head: the focus rows, and every matrix for a short text asked "full"."""
    if kind == "none":
        return None
    full = kind == "full" and mt.n <= FULL_GRID_AT
    return GridView(
        kind=kind, focus=focus, rows=mt.rows(focus), stats=mt.stats,
        send_rows=mt.n <= GRID_ROWS_AT, attentions=mt.attentions if full else None,
    )  # fmt: skip


def _word(mt: ModelTrace, focus: int) -> Word | None:
    """5. The word the focus token is a piece of, when it has several pieces."""
    for w in split_words(mt.tokens, mt.special):
        if focus in w.pieces and len(w.pieces) > 1:
            return w
    return None
