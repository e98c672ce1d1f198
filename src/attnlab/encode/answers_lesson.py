"""The declared JSON contract of the toy lesson and its lab: what encode/lesson_json.py builds
for `/api/lesson`, `/api/shuffle`, and encode/page_json.py for `/api/presets` and `/api/lab`.

Like answers_trace.py, every model forbids undeclared keys, so an encoder that drifts from
`/openapi.json` fails where it builds its answer.
"""

from __future__ import annotations

from pydantic import Field, FiniteFloat

from attnlab.core.positions import PositionKind
from attnlab.encode.answers_trace import (
    Answer,
    BeatAnswer,
    ExplanationAnswer,
    Matrix,
    TraceAnswer,
    Vector,
)
from attnlab.types import Axis, Mode

__all__ = [
    "LabAnswer",
    "LessonAnswer",
    "PresetsAnswer",
    "ShuffleAnswer",
    "ShuffleCheckAnswer",
]


class HeadAnswer(TraceAnswer):
    """One of the toy's heads: its trace, its name and blurb, and its own narration."""

    name: str
    blurb: str
    narration: list[BeatAnswer]


class RotaryAnswer(Answer):
    angles: Matrix
    queries: Matrix
    keys: Matrix
    rotated_queries: Matrix
    rotated_keys: Matrix


class PositionsAnswer(Answer):
    """Word order: the scheme, what it means, and the vectors it added or rotated."""

    kind: PositionKind
    note: str
    sinusoidal_scale: FiniteFloat
    rope_speed: FiniteFloat
    word_embeddings: Matrix
    encodings: Matrix | None
    rope: RotaryAnswer | None


class EditsAnswer(Answer):
    """The learner's edited vectors by role, each word mapped to its numbers."""

    embeddings: dict[str, list[FiniteFloat]]
    queries: dict[str, list[FiniteFloat]]
    keys: dict[str, list[FiniteFloat]]
    values: dict[str, list[FiniteFloat]]


class ShuffleRow(Answer):
    token: str
    from_: int = Field(alias="from")
    to: int
    before: Vector
    after: Vector
    distance: FiniteFloat
    unchanged: bool


class ShuffleCheckAnswer(Answer):
    """One shuffle under one positional scheme: each token's output before and after."""

    seed: int
    positions: PositionKind
    causal: bool
    permutation: list[int]
    tokens: list[str]
    shuffled_tokens: list[str]
    all_unchanged: bool
    max_distance: FiniteFloat
    rows: list[ShuffleRow]
    note: str


class PredictAnswer(Answer):
    answer: int
    answer_token: str
    notes: list[str] = Field(description="per key: what a learner hears after guessing it")
    score_text: str = Field(
        description="the Score step's narration without its answer, shown until the guess"
    )
    score_label: str = Field(
        description="the Score step's picture name without its answer, used until the guess"
    )


class WrongAxisAnswer(Answer):
    """When the softmax ran across the queries: the right result beside the wrong one."""

    right_weights: Matrix
    right_outputs: Matrix
    moved: Vector
    note: str


class OneProjectionAnswer(Answer):
    """The seed's first common mistake: one matrix for Q, K and V beside the real head, on the
    sentence as the vocabulary gives it (the lab's other changes left out)."""

    shared: str = Field(description="whose matrix is the one W: queries, keys or values")
    tokens: list[str]
    focus: int
    real_raw_scores: Matrix = Field(description="QKᵀ of the real head (three matrices)")
    real_weights: Matrix
    one_raw_scores: Matrix = Field(description="QQᵀ with Q = K = V = X·W")
    one_weights: Matrix
    one_outputs: Matrix
    real_self_first: list[bool] = Field(description="per row: the largest weight is on itself")
    one_self_first: list[bool]
    note: str
    finding: str = Field(description="the note's finding, short: own score and largest weight")


class LessonAnswer(ExplanationAnswer):
    """`/api/lesson`: the explanation of the first head plus the lab's keys."""

    causal: bool
    causal_note: str | None
    positions: PositionsAnswer
    heads: list[HeadAnswer]
    concat_outputs: Matrix
    heads_note: str | None
    edits: EditsAnswer
    shuffle: ShuffleCheckAnswer | None
    predict: PredictAnswer
    wrong_axis: WrongAxisAnswer | None
    one_projection: OneProjectionAnswer


class ShuffleAnswer(Answer):
    """`/api/shuffle`: one shuffle of the sentence under every positional scheme."""

    seed: int
    kinds: list[PositionKind]
    none: ShuffleCheckAnswer
    sinusoidal: ShuffleCheckAnswer
    rope: ShuffleCheckAnswer


class PresetAnswer(Answer):
    name: str
    sentence: str
    focus: str
    blurb: str


class ModeChoice(Answer):
    value: Mode
    label: str
    help: str


class BeatChoice(Answer):
    key: str
    title: str


class ChoicesAnswer(Answer):
    """What the page's selectors offer, so the page repeats none of it."""

    modes: list[ModeChoice]
    axes: list[Axis]
    positions: list[PositionKind]
    beats: list[BeatChoice]


class PresetsAnswer(Answer):
    """`/api/presets`: the presets, the vocabulary, the modes, the limits and the page's words."""

    presets: list[PresetAnswer]
    vocabulary: list[str]
    dim_names: list[str]
    modes: list[Mode]
    axes: list[Axis]
    max_tokens: int
    choices: ChoicesAnswer
    words: dict[str, str] = Field(description="the page's fixed sentences by a dotted key")


class TemperatureRange(Answer):
    min: FiniteFloat
    max: FiniteFloat
    steps: int
    sqrt_d_k: FiniteFloat


class CostLimits(Answer):
    max_n: int
    d: int
    default_max_n: int


class LabAnswer(Answer):
    """`/api/lab`: the lab's choices and limits."""

    positions: list[PositionKind]
    heads: list[int]
    head_names: list[str]
    temperature: TemperatureRange
    edit_limit: FiniteFloat
    edit_params: dict[str, str] = Field(description="API parameter -> the role it edits")
    sinusoidal_scale: FiniteFloat
    rope_speed: FiniteFloat
    cost: CostLimits
