"""The declared JSON contract of a trace and its explanation: pydantic models of what
encode/trace_json.py writes.

Every answer model forbids keys it does not declare, and every route validates the encoder's
dict into its model before sending it, so an encoder that grows, loses or retypes a key fails
loudly instead of drifting away from `/openapi.json`. A number JSON cannot hold travels as the
string "inf", "-inf" or "nan" (encode/arrays.py); a plain float field refuses a non-finite
value, so one the encoder forgot to spell out is caught too. Row i, column j of every matrix
means query i attends to key j.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, FiniteFloat

from attnlab.types import Axis, Mode

__all__ = [
    "Answer",
    "BeatAnswer",
    "CaptionsAnswer",
    "CostAnswer",
    "ExplanationAnswer",
    "JsonNumber",
    "KVCacheAnswer",
    "Matrix",
    "ReadingAnswer",
    "SaturationAnswer",
    "SweepAnswer",
    "TraceAnswer",
    "Vector",
]

JsonNumber: TypeAlias = FiniteFloat | Literal["inf", "-inf", "nan"]
"""A finite float, or the name of a number JSON lacks (a masked score is "-inf")."""
Vector: TypeAlias = list[JsonNumber]
Matrix: TypeAlias = list[list[JsonNumber]]


class Answer(BaseModel):
    """Base of every answer: undeclared keys are an error, not silently dropped."""

    model_config = ConfigDict(extra="forbid")


class TraceAnswer(Answer):
    """One head's trace: its labels and settings, then every array as lists of rows."""

    tokens: list[str] = Field(description="the query tokens, one per row")
    mode: Mode
    axis: Axis
    d_k: int
    divisor: JsonNumber = Field(description="what the scores were divided by: √dₖ, T, 1 or inf")
    temperature: FiniteFloat | None
    dim_names: list[str] | None
    key_tokens: list[str] | None = Field(description="the key tokens when they differ")
    mask: list[list[bool]] | None = Field(description="True where query i may attend to key j")
    embeddings: Matrix | None
    queries: Matrix | None
    keys: Matrix | None
    values: Matrix | None
    raw_scores: Matrix | None = Field(description="QKᵀ")
    scores: Matrix | None = Field(description="QKᵀ / divisor, -inf where masked")
    weights: Matrix
    outputs: Matrix | None


class BeatAnswer(Answer):
    """One beat of the narration."""

    key: str
    title: str
    text: str


class ReadingAnswer(Answer):
    """The words for one cell of the weight matrix, read the right way and backwards."""

    row: int
    col: int
    text: str
    mistaken: str
    why: str


class SaturationAnswer(Answer):
    """How peaked each distribution is, and the Jacobian of the focus row."""

    per: Literal["row", "column"]
    entropy_bits: Vector
    max_entropy_bits: Vector
    max_weight: Vector
    row_sums: Vector
    column_sums: Vector
    focus: int
    jacobian: Matrix | None
    jacobian_frobenius: FiniteFloat | None
    jacobian_max_abs: FiniteFloat | None
    note: str | None


class BeatCaptionAnswer(Answer):
    heading: str
    description: str = Field(description="the canvas's accessible name for this beat")
    notes: list[str]


class CaptionsAnswer(Answer):
    """The words the canvas draws, by beat key, and the pieces its cells reuse."""

    beats: dict[str, BeatCaptionAnswer]
    divisor: str
    budget: str
    pair: list[str]


class ExplanationAnswer(TraceAnswer):
    """A trace with its focus, narration, saturation, captions and (short texts) readings."""

    focus: int
    focus_token: str
    pair: list[int] = Field(description="the (focus, key) pair the Parallel beat highlights")
    narration: list[BeatAnswer]
    saturation: SaturationAnswer
    captions: CaptionsAnswer
    readings: list[list[ReadingAnswer]] | None


class SweepMarks(Answer):
    scaled: FiniteFloat
    unscaled: FiniteFloat


class SweepAnswer(Answer):
    """`/api/sweep`: the focus row at every temperature."""

    tokens: list[str]
    focus: int
    temperatures: Vector
    weights: Matrix = Field(description="(temperatures, keys)")
    entropy_bits: Vector
    jacobian_frobenius: Vector
    jacobian_max_abs: Vector
    sqrt_d_k: FiniteFloat
    marks: SweepMarks
    max_entropy_bits: FiniteFloat


class CostPoint(Answer):
    """One measured length n: the fastest time and the peak memory."""

    n: int
    seconds: FiniteFloat
    bytes: FiniteFloat


class CurvePoint(Answer):
    """The fitted curves at one n of a smooth grid."""

    n: FiniteFloat
    seconds: FiniteFloat
    bytes: FiniteFloat


class CostFitLine(Answer):
    a: FiniteFloat
    c: FiniteFloat


class CostFit(Answer):
    form: str
    time: CostFitLine
    memory: CostFitLine


class KVCachePoint(Answer):
    """One more token after n tokens: the n × n matrix recomputed, or one row on a cache."""

    n: int
    recompute_seconds: FiniteFloat
    cached_seconds: FiniteFloat
    ratio: FiniteFloat = Field(description="recompute_seconds / cached_seconds")
    recompute_flops: FiniteFloat
    cached_flops: FiniteFloat
    recompute_bytes: FiniteFloat
    cached_bytes: FiniteFloat
    flop_ratio: FiniteFloat = Field(description="recompute_flops / cached_flops, the model's ratio")


class KVCacheModel(Answer):
    """The cost model's formulas, per head, float32 (core/cost.py)."""

    recompute_flops: str
    cached_flops: str
    recompute_bytes: str
    cached_bytes: str


class KVCacheAnswer(Answer):
    """The key/value-cache comparison at n = 128 … 2048, measured once per process."""

    d: int
    points: list[KVCachePoint]
    model: KVCacheModel
    budget_seconds: FiniteFloat
    complete: bool


class CostAnswer(Answer):
    """`/api/cost`: measured time and memory of attention against n, and the fitted curves;
    with kv_cache=true, also one more token recomputed against one row on a key/value cache."""

    d: int
    points: list[CostPoint]
    fit: CostFit
    curve: list[CurvePoint]
    budget_seconds: FiniteFloat
    complete: bool
    kv_cache: KVCacheAnswer | None = None
