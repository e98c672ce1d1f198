"""The JSON form of the core's results: a Trace, an Explanation, and the lab's measures.

One encoder per type, each a plain function from the dataclass to the API's declared contract
(answers_*.py, which the routes validate every answer into); numbers that JSON cannot hold are
spelled out by arrays.py. The keys follow the Python names, and row i, column j of every matrix
means query i attends to key j.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from attnlab.core.cost import Cost, KVCacheCost
from attnlab.core.positions import Rotary
from attnlab.core.saturation import Saturation, Sweep
from attnlab.core.trace import Trace
from attnlab.encode.arrays import decode_array, decode_number, encode_array, encode_number
from attnlab.words import notes
from attnlab.words.captions import Captions
from attnlab.words.explanation import Explanation
from attnlab.words.narration import Beat, asymmetric_pair
from attnlab.words.notes import Reading, read_cell

__all__ = [
    "JACOBIAN_AT_MOST",
    "READINGS_AT_MOST",
    "decode_trace",
    "encode_beat",
    "encode_cost",
    "encode_explanation",
    "encode_kv_cache",
    "encode_rotary",
    "encode_saturation",
    "encode_sweep",
    "encode_trace",
]

JACOBIAN_AT_MOST = 16
"""Beyond this many keys the focus row's Jacobian matrix is left out (its sizes stay)."""
READINGS_AT_MOST = 12
"""Beyond this many tokens the words for every cell are left out (n² sentences)."""
_ARRAYS = ("embeddings", "queries", "keys", "values", "raw_scores", "scores", "weights", "outputs")


def encode_trace(t: Trace) -> dict[str, Any]:
    """A Trace as JSON: its labels and settings, then every array as lists of rows."""
    out: dict[str, Any] = {
        "tokens": list(t.tokens),
        "mode": t.mode,
        "axis": t.axis,
        "d_k": t.d_k,
        "divisor": encode_number(t.divisor),
        "temperature": t.temperature,
        "dim_names": list(t.dim_names) if t.dim_names is not None else None,
        "key_tokens": list(t.key_tokens) if t.key_tokens is not None else None,
        "mask": t.mask.tolist() if t.mask is not None else None,
    }
    for name in _ARRAYS:
        value = getattr(t, name)
        out[name] = encode_array(value) if value is not None else None
    return out


def decode_trace(data: dict[str, Any]) -> Trace:
    """Rebuild a Trace from `encode_trace`'s output (arrays come back as float64)."""

    def opt_tuple(x: list[str] | None) -> tuple[str, ...] | None:
        return tuple(x) if x is not None else None

    arrays = {
        name: decode_array(data[name]) if data.get(name) is not None else None for name in _ARRAYS
    }
    mask = data.get("mask")
    return Trace(
        tokens=tuple(data["tokens"]),
        mode=data["mode"],
        axis=data.get("axis", "keys"),
        d_k=int(data["d_k"]),
        divisor=decode_number(data["divisor"]),
        temperature=data.get("temperature"),
        dim_names=opt_tuple(data.get("dim_names")),
        key_tokens=opt_tuple(data.get("key_tokens")),
        mask=np.asarray(mask, dtype=np.bool_) if mask is not None else None,
        **arrays,  # type: ignore[arg-type]
    )


def encode_beat(b: Beat) -> dict[str, str]:
    return {"key": b.key, "title": b.title, "text": b.text}


def encode_captions(c: Captions) -> dict[str, Any]:
    """Each beat's heading, description and notes by its key, and the shared pieces."""
    beats = {
        key: {"heading": b.heading, "description": b.description, "notes": list(b.notes)}
        for key, b in (
            ("tokens", c.tokens), ("project", c.project), ("score", c.score),
            ("softmax", c.softmax), ("blend", c.blend), ("parallel", c.parallel),
        )
    }  # fmt: skip
    return {"beats": beats, "divisor": c.divisor, "budget": c.budget, "pair": list(c.pair)}


def encode_reading(r: Reading) -> dict[str, Any]:
    return {"row": r.row, "col": r.col, "text": r.text, "mistaken": r.mistaken, "why": r.why}


def encode_explanation(ex: Explanation) -> dict[str, Any]:
    """The trace's JSON plus `focus`, `focus_token`, `pair`, `narration`, `saturation` and, for
    a short text, `readings`: the words for every cell."""
    t, f = ex.trace, ex.focus
    out = encode_trace(t)
    out["focus"] = f
    out["focus_token"] = t.tokens[f]
    out["pair"] = list(asymmetric_pair(t, f))
    out["narration"] = [encode_beat(b) for b in ex.beats]
    out["saturation"] = encode_saturation(ex.saturation, t)
    out["captions"] = encode_captions(ex.captions)
    out["readings"] = None
    if t.n <= READINGS_AT_MOST:
        m = t.weights.shape[-1]
        out["readings"] = [
            [encode_reading(read_cell(t, i, j)) for j in range(m)] for i in range(t.n)
        ]
    return out


def encode_saturation(sat: Saturation, t: Trace) -> dict[str, Any]:
    """Entropy, largest weight and sums per distribution; the focus row's Jacobian and a note."""
    f = sat.focus
    note = None
    if sat.per == "row":
        note = notes.saturation_note(
            t.tokens[f], float(sat.entropy_bits[f]), float(sat.max_entropy_bits[f]),
            float(sat.max_weight[f]), sat.jacobian_frobenius,
        )  # fmt: skip
    keep_jacobian = sat.jacobian is not None and t.weights.shape[-1] <= JACOBIAN_AT_MOST
    return {
        "per": sat.per,
        "entropy_bits": encode_array(sat.entropy_bits),
        "max_entropy_bits": encode_array(sat.max_entropy_bits),
        "max_weight": encode_array(sat.max_weight),
        "row_sums": encode_array(sat.row_sums),
        "column_sums": encode_array(sat.column_sums),
        "focus": f,
        "jacobian": encode_array(sat.jacobian) if keep_jacobian else None,  # type: ignore[arg-type]
        "jacobian_frobenius": sat.jacobian_frobenius,
        "jacobian_max_abs": sat.jacobian_max_abs,
        "note": note,
    }


def encode_rotary(r: Rotary) -> dict[str, Any]:
    return {
        "angles": encode_array(r.angles),
        "queries": encode_array(r.queries),
        "keys": encode_array(r.keys),
        "rotated_queries": encode_array(r.rotated_queries),
        "rotated_keys": encode_array(r.rotated_keys),
    }


def encode_sweep(s: Sweep) -> dict[str, Any]:
    """The focus row at every temperature, with where Scaled and No √dₖ sit on the T axis."""
    return {
        "tokens": list(s.tokens),
        "focus": s.focus,
        "temperatures": encode_array(s.temperatures),
        "weights": encode_array(s.weights),
        "entropy_bits": encode_array(s.entropy_bits),
        "jacobian_frobenius": encode_array(s.jacobian_frobenius),
        "jacobian_max_abs": encode_array(s.jacobian_max_abs),
        "sqrt_d_k": s.sqrt_d_k,
        "marks": {"scaled": s.sqrt_d_k, "unscaled": 1.0},
        "max_entropy_bits": s.max_entropy_bits,
    }


def encode_kv_cache(c: KVCacheCost) -> dict[str, Any]:
    """One more token after n: recompute vs one cached row, measured and modelled, per n."""
    columns = zip(c.n, c.recompute_seconds, c.cached_seconds, c.ratio, c.recompute_flops,
                  c.cached_flops, c.recompute_bytes, c.cached_bytes, strict=True)  # fmt: skip
    keys = ("n", "recompute_seconds", "cached_seconds", "ratio", "recompute_flops",
            "cached_flops", "recompute_bytes", "cached_bytes")  # fmt: skip
    points = [
        {k: (int(x) if k == "n" else float(x)) for k, x in zip(keys, row, strict=True)}
        for row in columns
    ]
    for p in points:
        p["flop_ratio"] = p["recompute_flops"] / p["cached_flops"]
    return {
        "d": c.d,
        "points": points,
        "model": {
            "recompute_flops": "4·n²·d + 5·n²",
            "cached_flops": "4·n·d + 5·n",
            "recompute_bytes": "4·(4·n·d + 2·n²)",
            "cached_bytes": "4·(2·n·d + 2·d + 2·n)",
        },
        "budget_seconds": c.budget_seconds,
        "complete": c.complete,
    }


def encode_cost(c: Cost, kv_cache: KVCacheCost | None = None) -> dict[str, Any]:
    """Measured points, the fitted a + c·n² curves, and a smooth grid of the fit to draw."""
    grid = np.geomspace(c.n[0], c.n[-1], 64) if len(c.n) > 1 else c.n
    return {
        "d": c.d,
        "points": [
            {"n": int(n), "seconds": float(s), "bytes": float(b)}
            for n, s, b in zip(c.n, c.seconds, c.bytes, strict=True)
        ],
        "fit": {
            "form": "a + c·n²",
            "time": {"a": c.time_fit[0], "c": c.time_fit[1]},
            "memory": {"a": c.memory_fit[0], "c": c.memory_fit[1]},
        },
        "curve": [
            {
                "n": float(n),
                "seconds": float(c.curve(c.time_fit, n)),
                "bytes": float(c.curve(c.memory_fit, n)),
            }
            for n in grid
        ],
        "budget_seconds": c.budget_seconds,
        "complete": c.complete,
        "kv_cache": None if kv_cache is None else encode_kv_cache(kv_cache),
    }
