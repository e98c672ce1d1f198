"""A real model's requests, declared once: the query strings of `/api/model/info`,
`/api/model/trace`, `/api/model/matrix`, `/api/model/row`, `/api/model/compare`, of the
extra views `/api/model/heads` (a layer's heads) and `/api/model/mask` (one word masked), and
of `/api/export/model.html` (the text, head and token on screen as one offline file).

Only known model names are accepted, and the name of a folder the server was started with
(`attnlab serve --model PATH`, models/kept.py's `serve_folder`): a query string cannot make the
server read a path.
A layer or head is checked against the model once it is loaded (model_routes.py); here it is
a whole number from 0.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, StringConstraints, WithJsonSchema

from attnlab.core.pooling import Pool
from attnlab.encode.model_json import Grid, Specials
from attnlab.models.compare import DEFAULT_A, DEFAULT_B, DEFAULT_WORD
from attnlab.models.kept import NAMES, known_name
from attnlab.types import Axis, Mode
from attnlab.web.request_fields import Beat, Between, Blank, NotNumber, Params, Position

__all__ = [
    "MAX_TEXT_CHARS",
    "CompareQuery",
    "HeadsQuery",
    "MaskQuery",
    "MatrixQuery",
    "ModelFileQuery",
    "ModelFocus",
    "ModelQuery",
    "ModelText",
    "ModelTraceQuery",
    "ModelWord",
    "RowQuery",
]

MAX_TEXT_CHARS = 24_000
"""A text parameter may not exceed this many characters: 2,048 SmolLM2 tokens of English are
about 9,000, of code or digits fewer per token, so the token limit (the model's own, checked
after tokenizing, with the limit in the message) is what a long text meets first."""

ModelText = Annotated[str, StringConstraints(max_length=MAX_TEXT_CHARS)]
"""A text as typed, spaces kept: a tokenizer reads leading spaces as tokens of their own (Gemma 3
gives "    GNU" a whitespace token), so the page and `attnlab explain` number one text alike."""
ModelWord = Annotated[str, StringConstraints(strip_whitespace=True, max_length=MAX_TEXT_CHARS)]
"""A word of the text (a focus, a word to mask or compare): its spaces are not part of it."""
ModelFocus = Blank[Annotated[int | ModelWord | None, Position]]
"""A token of the text or its position (None: the model's default focus)."""


ModelName = Annotated[
    str,
    StringConstraints(max_length=200),
    AfterValidator(known_name),
    WithJsonSchema({"type": "string", "enum": NAMES}),
]
Index = Annotated[int, Between(0)]
Index1 = Annotated[int, Between(1)]


class ModelQuery(Params):
    """`GET /api/model/info`: which model."""

    model: Blank[ModelName] = "minilm"


class TextQuery(ModelQuery):
    """One text."""

    text: ModelText = DEFAULT_A


class LayerQuery(TextQuery):
    """One layer of one text."""

    layer: Blank[Index] = 0


class HeadQuery(LayerQuery):
    """One head of one text."""

    head: Blank[Index] = 0


class ModelTraceQuery(HeadQuery):
    """`GET /api/model/trace`: one head of one text, and how much of the heads grid."""

    focus: ModelFocus = Field(None, description="a token or its position")
    mode: Blank[Mode] = "scaled"
    axis: Blank[Axis] = "keys"
    grid: Blank[Grid] = Field("focus", description="every head's focus row, full matrices, none")


class MatrixQuery(HeadQuery):
    """`GET /api/model/matrix`: one head's whole matrix as a picture."""

    pool: Blank[Pool] = Field("max", description="how a long text's blocks are pooled")
    specials: Blank[Specials] = Field(
        "show",
        description=(
            "the model's special tokens ([CLS] and [SEP] for a BERT encoder, the tokenizer's "
            "control tokens such as <|im_start|> for a Llama-family decoder): shown, hidden, or "
            "hidden with rows renormalised"
        ),
    )


class RowQuery(HeadQuery):
    """`GET /api/model/row`: one query row's weights over every key."""

    row: Blank[Index] = 0


class CompareQuery(ModelQuery):
    """`GET /api/model/compare`: one word followed through two texts."""

    word: Annotated[ModelWord, NotNumber] = DEFAULT_WORD
    a: ModelText = DEFAULT_A
    b: ModelText = DEFAULT_B
    occurrence_a: Blank[Index1] = Field(1, description="which place of the word in a, from 1")
    occurrence_b: Blank[Index1] = Field(1, description="which place of the word in b, from 1")


class HeadsQuery(LayerQuery):
    """`GET /api/model/heads`: every head of one layer of one text, whole."""


class MaskQuery(TextQuery):
    """`GET /api/model/mask`: follow `focus`, mask (or drop) `mask`, compare layer by layer."""

    focus: ModelFocus = Field(None, description="a token or its position")
    mask: Blank[Annotated[int | ModelWord, Position]] = Field(
        "river", description="the word (or position) to mask"
    )
    occurrence: Blank[Index1] = Field(
        1, description="which place of the word, from 1, when it occurs more than once"
    )
    how: Blank[Literal["mask", "drop", "none"]] = Field(
        "mask", description="mask: the mask token in its place; drop: removed; none: the check"
    )


class ModelFileQuery(HeadQuery):
    """`GET /api/export/model.html`: the text, the head and the token followed, and the step."""

    focus: ModelFocus = Field(
        None, description="the token followed or its index (default: the last word)"
    )
    beat: Blank[Beat] = Field(0, description="the step the file opens at, from 0")
