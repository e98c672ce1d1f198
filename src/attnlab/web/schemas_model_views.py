"""The declared JSON contract of the Real model's extra views, as the web's routes and /openapi.json
name it: the answer models live in encode/answers_model_views.py, beside their encoder."""

from attnlab.encode.answers_model_views import (
    HeadsAnswer,
    MaskAnswer,
    MaskTarget,
    SharedKeys,
    WordPieces,
)

__all__ = [
    "HeadsAnswer",
    "MaskAnswer",
    "MaskTarget",
    "SharedKeys",
    "WordPieces",
]
