"""The Cheaper section's real-model card as JSON: `ModelsCacheAnswer` (`GET /api/cheaper/models`)
and `KvCheckAnswer` (`GET /api/cheaper/kv`), and their encoders.

Every number is a run's: models/real_caches.py's cache sizes (the function `attnlab cheaper
cache` prints), models/kv_decode.py's cache check; every sentence words/cheaper_words.py's.
"""

from __future__ import annotations

from typing import Literal

from attnlab.encode.answers_trace import Answer, JsonNumber
from attnlab.encode.cheaper_json import Badge
from attnlab.models.kv_decode import CacheCheck
from attnlab.models.real_caches import ModelCache
from attnlab.words.cheaper_words import cache_row_text, kv_badge, kv_text

__all__ = [
    "KV_TEXT",
    "KvCheckAnswer",
    "ModelsCacheAnswer",
    "encode_kv_check",
    "encode_model_caches",
]

KV_TEXT = "The river bank was muddy after the rain, so we walked"
"""The short text the page's cache check decodes (the CLI's `cheaper kv` default)."""
KV_ROWS_BELOW = 1e-4
"""A float32 model's rows within this of the whole pass: rounding, the same arithmetic."""


class CacheFormRow(Answer):
    name: str
    numbers: int  # per token per layer
    bytes: int  # 16-bit numbers


class ModelCacheAnswer(Answer):
    name: str
    source: Literal["weights", "gguf", "published"]
    n_layers: int | None
    forms: list[CacheFormRow]
    missing: str | None  # the install command when its package is absent
    text: str


class ModelsCacheAnswer(Answer):
    """Each real model's key/value cache per token per layer, in each form."""

    models: list[ModelCacheAnswer]


def encode_model_caches(rows: tuple[ModelCache, ...]) -> ModelsCacheAnswer:
    models = [
        ModelCacheAnswer(
            name=r.name,
            source=r.source,
            n_layers=r.n_layers,
            forms=[CacheFormRow(name=f.name, numbers=f.numbers, bytes=f.bytes) for f in r.forms],
            missing=r.missing,
            text=r.missing or cache_row_text(r.name, r.source, r.n_layers or 0, r.forms),
        )
        for r in rows
    ]
    return ModelsCacheAnswer(models=models)


class KvCheckAnswer(Answer):
    """Decoding token by token on a cache against the whole text's pass (models/kv_decode.py)."""

    model: str
    tokens: list[str]
    n_layers: int
    cache_numbers_per_token: int
    max_row_diff: JsonNumber
    max_logit_diff: JsonNumber
    same_next_token: bool
    badge: Badge
    text: str


def encode_kv_check(c: CacheCheck, *, model: str, dtype: str) -> KvCheckAnswer:
    ok = c.same_next_token and c.max_row_diff < KV_ROWS_BELOW
    text = kv_badge(c.max_row_diff, c.max_logit_diff, c.same_next_token, dtype)
    badge = Badge(kind="exact" if ok else "approximate", text=text)
    return KvCheckAnswer(
        model=model, tokens=list(c.tokens), n_layers=c.n_layers,
        cache_numbers_per_token=c.cache_numbers_per_token, max_row_diff=c.max_row_diff,
        max_logit_diff=c.max_logit_diff, same_next_token=c.same_next_token, badge=badge,
        text=kv_text(len(c.tokens), c.n_layers, c.cache_numbers_per_token, model),
    )  # fmt: skip
