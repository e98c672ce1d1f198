"""Mask a token and measure, layer by layer, how the focus token's attention and vector move.

exBERT's idea, made quantitative. Take a text, a focus token f and a word w (all its pieces):

    how = "mask"  replace each piece of w by the tokenizer's mask token ([MASK]); n stays
    how = "drop"  remove the pieces of w (a decoder has no mask token); n shrinks, later
                  tokens move up one position per piece
    how = "none"  change nothing and run again: every distance is 0 (the check of the method)

and run the model again. For every layer l and head h, with p the focus row of the plain run and
q the focus row of the edited run, both over the keys the runs SHARE (every token but w's
pieces, matched by position), each renormalised to sum to 1 over those keys,

    tv[l, h] = ½ Σ_j |p_j / Σ p − q_j / Σ q|     (total variation, 0 = same row, 1 = disjoint)

and for the focus token's hidden vector x_l (x_0 entering layer 0, x_{l+1} leaving layer l)

    cosine_distance[l] = 1 − x·x' / (|x| |x'|)      l2[l] = |x − x'|

`target_weight[l, h]` is the weight the plain run's focus row gave w's pieces: what the
renormalisation spreads over the other keys.

`edited_text` is the edit written as text: the plain run's text with w's characters (found
through the trace's token spans) replaced by the mask token's name or cut out with one space
beside them, so "the river flooded," reads "the flooded,", not the tokens joined by spaces.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

import numpy as np

from attnlab.errors import AttnlabError, MaskTokenError, TooLongError
from attnlab.models.model_trace import ModelTrace
from attnlab.models.pieces import Word, find_word, occurrences, split_words
from attnlab.types import FloatArray
from attnlab.words.model_views import unknown_mask_word

__all__ = [
    "HOWS", "How", "Masking", "Reruns", "edited_text", "mask_of", "mask_token", "masked_run",
    "typeable_words",
]  # fmt: skip

How = Literal["mask", "drop", "none"]
HOWS: tuple[How, ...] = ("mask", "drop", "none")


@runtime_checkable
class Reruns(Protocol):
    """A model that runs token ids it did not tokenize itself (bert.py, llama.py). One with a
    mask token also has `mask_token` -> ("[MASK]", 103): see `mask_of`."""

    def trace_ids(
        self, ids: tuple[int, ...], tokens: tuple[str, ...] | None = None
    ) -> ModelTrace: ...


def mask_of(model: object) -> tuple[str, int] | None:
    """The model's mask token and id, or None (a decoder has none: drop the word instead)."""
    mask: tuple[str, int] | None = getattr(model, "mask_token", None)
    return mask


@dataclass(frozen=True, repr=False)
class Masking:
    """A plain run and an edited one, and how far the focus moved in each layer."""

    base: ModelTrace
    edited: ModelTrace
    how: How
    focus: int  # the focus token in the plain run
    target: Word | None  # the pieces masked or dropped (None for how="none")
    shared: tuple[tuple[int, int], ...]  # (key in base, the same key in edited)
    tv: FloatArray  # (layers, heads) total variation of the renormalised focus rows
    target_weight: FloatArray  # (layers, heads) the plain focus row's weight on the target
    cosine_distance: FloatArray  # (layers + 1,)
    l2: FloatArray  # (layers + 1,)

    def __repr__(self) -> str:
        what = "nothing" if self.target is None else repr(self.target.text)
        return (
            f"Masking({self.how} {what}, focus {self.focus} {self.base.tokens[self.focus]!r}, "
            f"{self.base.n_layers} layers × {self.base.n_heads} heads; tv, target_weight, "
            "cosine_distance, l2)"
        )

    @property
    def edited_focus(self) -> int:
        """The focus token's position in the edited run."""
        return dict(self.shared)[self.focus]

    @property
    def edited_text(self) -> str | None:
        """The edited run as text, or None when the plain run kept no text and spans."""
        return edited_text(self.base, self.target, self.how, self.edited)

    @property
    def tv_mean(self) -> FloatArray:
        """The total variation averaged over each layer's heads: (layers,)."""
        m: FloatArray = self.tv.mean(axis=-1)
        return m


def masked_run(
    model: object, base: ModelTrace, *, focus: int, word: str | int, how: How, occurrence: int = 1
) -> Masking:
    """`mask_token` for any model, as a request asks it (the page's /api/model/mask and the
    widget's panel): a model that cannot rerun edited tokens is refused on "model", an edited
    text too long to run on "mask"."""
    if not isinstance(model, Reruns):
        raise AttnlabError(f"{base.model} cannot rerun edited tokens", field="model")
    try:
        return mask_token(model, base, focus=focus, word=word, occurrence=occurrence, how=how)
    except TooLongError as exc:
        raise AttnlabError(str(exc), field="mask") from None


def mask_token(
    model: Reruns,
    base: ModelTrace,
    *,
    focus: int,
    word: str | int | None,
    occurrence: int = 1,
    how: How = "mask",
) -> Masking:
    """Mask (or drop) `word`'s `occurrence`-th place in `base`'s text, rerun, and measure."""
    target = None if how == "none" else _target(base, word, occurrence)
    if target is not None and focus in target.pieces:
        raise MaskTokenError(
            f"the focus {base.tokens[focus]!r} is the token masked: mask another word, "
            "or follow another token"
        )
    tokens, ids, shared = _edit(model, base, target, how)
    edited = model.trace_ids(ids, tokens)
    jb = [s[0] for s in shared]
    je = [s[1] for s in shared]
    fe = dict(shared)[focus]
    p = base.rows(focus).astype(np.float64)  # (L, H, n)
    q = edited.rows(fe).astype(np.float64)  # (L, H, n')
    ps, qs = p[..., jb], q[..., je]  # (L, H, S) the shared keys
    ps = ps / ps.sum(-1, keepdims=True)
    qs = qs / qs.sum(-1, keepdims=True)
    tv = 0.5 * np.abs(ps - qs).sum(-1)  # (L, H)
    gone = [] if target is None else list(target.pieces)
    target_weight = p[..., gone].sum(-1)  # (L, H)
    x = base.hidden_states[:, focus].astype(np.float64)  # (L + 1, d)
    y = edited.hidden_states[:, fe].astype(np.float64)  # (L + 1, d)
    cos = (x * y).sum(-1) / (np.linalg.norm(x, axis=-1) * np.linalg.norm(y, axis=-1))
    return Masking(
        base=base, edited=edited, how=how, focus=focus, target=target, shared=shared, tv=tv,
        target_weight=target_weight, cosine_distance=1.0 - cos,
        l2=np.linalg.norm(x - y, axis=-1),
    )  # fmt: skip


def _target(base: ModelTrace, word: str | int | None, occurrence: int) -> Word:
    if word is None or (isinstance(word, str) and not word.strip()):
        raise MaskTokenError("choose a word to mask")
    if isinstance(word, int) or word.strip().isdigit():
        i = int(word)
        if not 0 <= i < base.n:
            raise MaskTokenError(f"token {i} is outside 0..{base.n - 1}")
        target = Word(base.tokens[i], i, i + 1)
    else:
        if not occurrences(base.tokens, word, base.special):
            raise MaskTokenError(unknown_mask_word(word.strip(), typeable_words(base)))
        try:
            target = find_word(base.tokens, word, occurrence=occurrence, special=base.special)
        except Exception as exc:  # FocusError: the same message, against this field
            raise MaskTokenError(str(exc)) from None
    if any(base.tokens[j] in base.special for j in target.pieces):
        raise MaskTokenError(
            f"{base.tokens[target.start]!r} is a special token: mask a word of the text"
        )
    return target


def _edit(
    model: Reruns, base: ModelTrace, target: Word | None, how: How
) -> tuple[tuple[str, ...], tuple[int, ...], tuple[tuple[int, int], ...]]:
    """The edited tokens and ids, and each kept key's (base, edited) position."""
    tokens, ids, n = base.tokens, base.token_ids, base.n
    if target is None:
        return tokens, ids, tuple((j, j) for j in range(n))
    gone = set(target.pieces)
    kept = [j for j in range(n) if j not in gone]
    if how == "drop":
        shared = tuple((j, k) for k, j in enumerate(kept))
        return tuple(tokens[j] for j in kept), tuple(ids[j] for j in kept), shared
    mask = mask_of(model)
    if mask is None:
        raise MaskTokenError(f"{base.model} has no mask token: drop the word instead")
    name, mask_id = mask
    new_tokens = tuple(name if j in gone else t for j, t in enumerate(tokens))
    new_ids = tuple(mask_id if j in gone else i for j, i in enumerate(ids))
    return new_tokens, new_ids, tuple((j, j) for j in kept)


def edited_text(base: ModelTrace, target: Word | None, how: How, edited: ModelTrace) -> str | None:
    """`base.text` with the target's characters masked or cut (one space beside them goes too).

    The span of a piece may hold the space before it (byte-level BPE's " river"): only the
    characters inside it that are not spaces are the word's. None without a text and spans."""
    text, spans = base.text, base.spans
    if text is None or spans is None:
        return None
    if target is None:
        return text
    start = min(spans[j][0] for j in target.pieces)
    stop = max(spans[j][1] for j in target.pieces)
    while start < stop and text[start].isspace():
        start += 1
    while stop > start and text[stop - 1].isspace():
        stop -= 1
    if how == "mask":
        mask = "".join(edited.tokens[j] for j in target.pieces)  # one mask token a piece
        return text[:start] + mask + text[stop:]
    if start > 0 and text[start - 1].isspace():
        start -= 1  # the space before the word goes with it
    elif stop < len(text) and text[stop].isspace():
        stop += 1  # a word that opens the text takes the space after it
    return text[:start] + text[stop:]


def typeable_words(base: ModelTrace) -> tuple[str, ...]:
    """The words of `base` a learner can type to mask, in order, each once (case aside): a
    word's text without the punctuation a BPE tokenizer glues to it ("flooded," → flooded),
    when that still finds it; no special token, no word of punctuation alone."""
    out: dict[str, str] = {}
    for w in split_words(base.tokens, base.special):
        if base.tokens[w.start] in base.special:
            continue
        bare = w.text.strip().strip(_PUNCTUATION)
        typed = bare if bare and occurrences(base.tokens, bare, base.special) else w.text.strip()
        if typed and any(c.isalnum() for c in typed):
            out.setdefault(typed.lower(), typed)
    return tuple(out.values())


_PUNCTUATION = ".,;:!?\"'“”‘’()[]{}…"
