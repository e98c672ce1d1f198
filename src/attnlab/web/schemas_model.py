"""The declared JSON contract of a real model's answers, as the web's routes and /openapi.json
name it: the answer models live in encode/answers_model.py, beside their encoder."""

from attnlab.encode.answers_model import (
    CompareDefaults,
    CompareSide,
    ComparisonAnswer,
    DecoderAnswer,
    GqaAnswer,
    GridAnswer,
    HeadPlace,
    HeadStatsAnswer,
    MatrixAnswer,
    ModelInfoAnswer,
    ModelSizes,
    ModelTraceAnswer,
    NextToken,
    PackedArray,
    RowAnswer,
    WindowAnswer,
)

__all__ = [
    "CompareDefaults",
    "CompareSide",
    "ComparisonAnswer",
    "DecoderAnswer",
    "GqaAnswer",
    "GridAnswer",
    "HeadPlace",
    "HeadStatsAnswer",
    "MatrixAnswer",
    "ModelInfoAnswer",
    "ModelSizes",
    "ModelTraceAnswer",
    "NextToken",
    "PackedArray",
    "RowAnswer",
    "WindowAnswer",
]
