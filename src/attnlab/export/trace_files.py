"""The traces as JSON files: a lesson as `/api/lesson` answers it, a real model's every head.

A lesson's file is `encode_lesson` (encode/lesson_json.py), the same contract the page reads,
with the Cheaper section's answer under "cheaper" (encode/cheaper_json.py). A
model's file names the model and its tokens, then holds each layer's heads as `encode_trace`
(encode/trace_json.py: q, k, v, raw scores, scores, weights, outputs), without the layer input
repeated in every head: `hidden_states` holds it once, (layers + 1, n, d_model).
`decode_trace` reads any head back. Attention weights handed in from elsewhere (AttentionMaps)
are their labels and the (layers, heads, n, m) weights, `decode_array` reads them back.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from attnlab.core.attention_maps import AttentionMaps
from attnlab.encode.arrays import encode_array
from attnlab.encode.lesson_json import encode_lesson
from attnlab.encode.trace_json import encode_trace
from attnlab.lesson.explain import LessonExplanation
from attnlab.models.model_trace import ModelTrace

__all__ = ["lesson_json", "maps_json", "model_trace_json"]


def lesson_json(ex: LessonExplanation) -> dict[str, Any]:
    """The lesson's JSON: every head, beat and lab option's numbers, and under "cheaper" the
    Cheaper attention section's for the same lesson (`/api/cheaper`'s answer, tiles of 2)."""
    from attnlab.encode.cheaper_json import encode_cheaper
    from attnlab.lesson.cheaper_lab import cheaper_lab

    cheaper = encode_cheaper(cheaper_lab(ex.sentence, ex.options, focus=ex.focus))
    return {**encode_lesson(ex), "cheaper": cheaper.model_dump(mode="json")}


def model_trace_json(mt: ModelTrace) -> dict[str, Any]:
    """A real model's pass: its tokens, hidden states and every head's trace, layer by layer."""
    return {
        "model": mt.model,
        "tokens": list(mt.tokens),
        "token_ids": list(mt.token_ids),
        "n_layers": mt.n_layers,
        "n_heads": mt.n_heads,
        "n_kv_heads": mt.n_kv_heads,
        "causal": mt.causal,
        "hidden_states": encode_array(mt.hidden_states),
        "layers": [
            {
                "layer": layer,
                "heads": [
                    encode_trace(replace(mt.head(layer, head), embeddings=None))
                    for head in range(mt.n_heads)
                ],
            }
            for layer in range(mt.n_layers)
        ],
    }


def maps_json(maps: AttentionMaps) -> dict[str, Any]:
    """Weights from elsewhere: where they came from, their labels and every head's weights."""
    return {
        "source": maps.source,
        "tokens": list(maps.tokens),
        "key_tokens": list(maps.key_tokens),
        "n_layers": maps.n_layers,
        "n_heads": maps.n_heads,
        "weights": encode_array(maps.weights),  # (L, H, n, m)
    }
