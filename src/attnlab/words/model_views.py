"""The words of the Real model's extra views: the head view, token masking, words made of
pieces and Compare contexts cell by cell.

`MODEL_VIEW_WORDS` are fixed page words by key (page.py merges them into PAGE_WORDS, served by
/api/presets), `MODEL_VIEW_VALUES` documents their `{name}`s; the functions write the sentences
that carry measured numbers (numfmt's rule), which the API sends with the numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from attnlab.words.numfmt import num, percent

__all__ = [
    "MASK_COLUMNS",
    "MODEL_VIEW_VALUES",
    "MODEL_VIEW_WORDS",
    "PieceWhy",
    "heads_note",
    "mask_note",
    "pieces_note",
    "unknown_mask_word",
]

_HEAD_VIEW = {
    "model.hv.title": "Head view: every line is one weight",
    "model.hv.help": (
        "Left: each token as a query; right: each token as a key. A line joins query i to key "
        "j, and the more weight i gives j, the darker the line (its opacity is the weight). "
        "Tick several heads to overlay them, each in its colour; click a token (or focus it "
        "and press Enter) to keep only its lines; click it again to see every line."
    ),
    "model.hv.heads": "Heads to draw",
    "model.hv.head": "head {head}",
    "model.hv.show": "Show",
    "model.hv.show.heads": "the heads ticked (this layer)",
    "model.hv.show.mean_heads": "the mean over this layer's heads",
    "model.hv.show.mean_layers": "the mean over every layer's heads",
    "model.hv.mean_heads": "mean of layer {layer}'s {n_heads} heads",
    "model.hv.mean_layers": "mean of all {n_layers} layers × {n_heads} heads",
    "model.hv.queries": "queries (row i)",
    "model.hv.keys": "keys (column j)",
    "model.hv.query_token": "query {token} (position {position})",
    "model.hv.key_token": "key {token} (position {position})",
    "model.hv.canvas": "Lines from each query to each key, {what}",
    "model.hv.none": "Tick a head (or choose a mean) to draw its lines.",
    "model.hv.hint": "Point at a token to read its weights here.",
    "model.hv.readout_query": "{token} (query, position {position}) gives: {list}",
    "model.hv.readout_key": "{token} (key, position {position}) receives: {list}",
    "model.hv.pair": "{token} {weight}",
    "model.hv.series": "{series}: {pairs}",
    "model.hv.isolated": "Only the lines of {token} ({side}) are drawn.",
    "model.hv.side.query": "as a query",
    "model.hv.side.key": "as a key",
    "model.hv.long": (
        "{n} tokens: the columns scroll; lines under a weight of 0.005 are not drawn (they "
        "would be invisible)."
    ),
    "model.hv.lesson": "Head view of the toy head (every line is one weight)",
    "model.hv.ask": "Show the head view of this layer",
    "model.hv.ask_long": (
        "{n} tokens: the head view recomputes every head of this layer and takes a few seconds, "
        "so it is asked only when you want it."
    ),
}

_MASK = {
    "model.mask.title": "Mask a token: how much does the focus row depend on it?",
    "model.mask.help": (
        "Run the text again with one word masked, then compare the focus token's attention row "
        "and vector with the plain run, layer by layer. 0 means nothing moved."
    ),
    "model.mask.word": "Word to mask",
    "model.mask.how": "How",
    "model.mask.how.mask": "replace it by the mask token",
    "model.mask.how.drop": "drop it from the text",
    "model.mask.how.none": "change nothing (the check: every distance is 0)",
    "model.mask.button": "Mask and compare",
    "model.mask.table_name": "Masking, layer by layer",
    "model.mask.col.layer": "layer",
    "model.mask.col.tv_head": "row change (head {head})",
    "model.mask.col.tv_mean": "row change (mean of heads)",
    "model.mask.col.target": "weight the row gave the word",
    "model.mask.col.cosine": "vector change (1 − cosine)",
    "model.mask.col.distance": "vector distance (L2)",
    "model.mask.plot_rows": "How far the focus row moved",
    "model.mask.plot_vector": "How far the focus vector moved",
    "model.mask.x_axis": "layer (in = entering layer 0)",
    "model.mask.x_axis_rows": "layer",
    "model.mask.y_rows": "total variation of the rows (0 = same, 1 = disjoint)",
    "model.mask.y_vector": "1 − cosine of the focus vectors (0 = same direction)",
    "model.mask.series_head": "this head",
    "model.mask.series_mean": "mean of the layer's heads",
    "model.mask.series_vector": "1 − cosine",
    "model.mask.plot_name": "{title}: {values}",
    "model.mask.edited": "Edited text: {text}",
    "model.mask.edited_tokens": "Edited tokens: {tokens}",
}

_PIECES_AND_COMPARE = {
    "model.text_keys": "Enter runs the model; Shift+Enter starts a new line.",
    "model.compare.occurrence_a": "Which one in sentence A",
    "model.compare.occurrence_b": "Which one in sentence B",
    "model.compare.occurrence": "{word} number {k} (position {position})",
    "model.compare.diff_name": "Difference A − B on the keys both sentences share",
    "model.compare.diff_caption": (
        "A − B, layer {layer} head {head}: the weight {word} gives each shared key in A minus "
        "the weight it gives it in B"
    ),
    "model.compare.diff_key": "key",
    "model.compare.diff_a": "in A",
    "model.compare.diff_b": "in B",
    "model.compare.diff_d": "A − B",
    "model.compare.diff_sign": (
        "The sign: a positive difference means the word in sentence A gives that key more of "
        "its weight than the word in sentence B does; a negative one, less; 0, the same. Only "
        "keys both sentences hold are listed (a token repeated in both is paired in order)."
    ),
}

MODEL_VIEW_WORDS: Mapping[str, str] = {**_HEAD_VIEW, **_MASK, **_PIECES_AND_COMPARE}

MASK_COLUMNS = ("layer", "row change (mean)", "largest head", "weight on word", "1 − cos", "L2")
"""The columns of `attnlab mask`'s table (encode/terminal_mask.py)."""

MODEL_VIEW_VALUES: Mapping[str, str] = {
    "list": "a token's strongest weights, comma-separated (model.hv.pair)",
    "series": "a drawn head's or mean's name",
    "pairs": "tokens and weights, comma-separated",
    "side": "model.hv.side.query or model.hv.side.key",
    "k": "an occurrence's number, from 1",
}


PieceWhy = Literal["last", "word", "chosen"]
"""Why the page follows the piece it does: the word's last, its last word-like one, or chosen."""


def pieces_note(word: str, pieces: Sequence[str], token: str, *, why: PieceWhy = "last") -> str:
    """How a word of several pieces is followed: by `token`, the piece the steps follow. `why`:
    its last piece (models/pieces.py's PIECE_RULE), the last that holds a letter or a digit
    (" door" of "door.": the default focus is the last word-like token), or a piece chosen."""
    followed = {
        "last": f"its last piece, “{token}”.",
        "word": f"its piece “{token}”, the last one that holds a letter or a digit.",
        "chosen": f"the piece chosen, “{token}”.",
    }[why]
    return (
        f"“{word.strip()}” is {len(pieces)} pieces ({', '.join(f'“{p}”' for p in pieces)}): "
        f"the page follows {followed} "
        "One head's row is one query's own scores and softmax; an average of the pieces' rows "
        "would be a row no head computed."
    )


def heads_note(
    *, n: int, top: int, floor: float, shares: Sequence[float], mean_layers: bool,
    mean_layers_max: int, n_layers: int, n_heads: int,
) -> str:  # fmt: skip
    """What the head view draws of a text longer than `top` tokens (each row's strongest keys,
    and how much of a row's weight they hold, per head), and why a mean is not offered."""
    said = []
    if top < n:
        low, high = percent(min(shares)), percent(max(shares))
        held = low if low == high else f"{low} to {high}"
        said.append(
            f"Each query row draws only its {top} strongest of {n} keys (every weight of at "
            f"least {num(floor)} is among them); they hold {held} of a row's weight on "
            "average, depending on the head."
        )
    if not mean_layers:
        said.append(
            f"The mean over every layer's heads is offered up to {mean_layers_max} tokens: "
            f"here it would recompute all {n_layers} × {n_heads} heads."
        )
    return " ".join(said)


SHOWN_CHOICES = 40
"""How many words an unknown-word refusal lists before it says how many more there are."""


def unknown_mask_word(word: str, choices: Sequence[str]) -> str:
    """The refusal of a word the text does not hold, listing the words the learner can type
    in plain words (as the toy lesson's unknown word does), not a Python list."""
    listed = ", ".join(choices[:SHOWN_CHOICES])
    more = len(choices) - SHOWN_CHOICES
    if more > 0:
        listed += f" and {more} more"
    if not choices:
        return f"“{word}” is not a word of the text, and the text has no word to mask"
    return f"“{word}” is not a word of the text: type one of its words: {listed}"


def distance(x: float) -> str:
    """A distance as the mask panel writes it (static/mask_layout.js distanceText): 0 only
    when it is 0, two significant digits below 1, "<0.0001" below that, two decimals from 1."""
    if x == 0 or abs(x) >= 1 or x != x:
        return num(x)
    if abs(x) < 1e-4:
        return "<0.0001" if x > 0 else ">-0.0001"
    return f"{float(f'{x:.1e}'):f}".rstrip("0").rstrip(".")


def mask_note(
    *, how: str, word: str, focus: str, tv_last: float, cos_last: float, layers: int, mask: str
) -> str:
    """What masking did to the focus, in the last layer, and why the first layer may show 0."""
    if how == "none":
        return (
            "Nothing was masked: the model ran twice on the same tokens, so every distance "
            "is 0. That is the check that the distances measure only what masking changes."
        )
    done = f"replacing “{word}” by {mask}" if how == "mask" else f"dropping “{word}”"
    same = (
        " In layer 0 the row cannot move: the other keys enter it unchanged, and the rows are "
        "compared over those keys only, each rescaled to sum to 1."
        if how == "mask"
        else ""
    )
    return (
        f"After {done}, {focus}'s row in the last layer moved by {distance(tv_last)} (mean "
        f"over heads; 0 = the same row, 1 = no weight in common) and its vector leaving layer "
        f"{layers - 1} by {distance(cos_last)} (1 − cosine).{same}"
    )
