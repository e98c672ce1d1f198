"""Checks of a model folder's config.json against sane ranges and against its own tensors.

Small functions any architecture's loader calls (BERT in checkpoint.py; a Llama-family loader
the same way): each refusal is a `ConfigError` or `TensorValueError` (both `WeightsError`s) that
names the file and the key or tensor, e.g.

    config.json: num_hidden_layers is 2 but model.safetensors has 6 layers (encoder.layer.0 … 5)

A config that disagrees with its tensors must not load: with fewer layers named than stored,
the rest would be silently skipped; with an infinite layer_norm_eps every LayerNorm returns its
bias and attention turns uniform, a model that runs and means nothing.

The weight bound: trained transformers keep their weights small (all-MiniLM-L6-v2's largest is
7.9; initialisation draws from N(0, 0.02²)). Below WEIGHT_BOUND = 1e4, a LayerNorm output
(|x| ≤ √d·|γ| + |β|, about 2e6 for d = 4096) times a weight, summed over d_ff ≤ 1e5 terms, stays
near 1e15 per product and nowhere near float32's largest number, 3.4e38; a weight of 3e38 would
overflow the first matrix product into inf and the softmax into NaN.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from attnlab.errors import ConfigError, TensorValueError

__all__ = [
    "WEIGHT_BOUND",
    "check_divides",
    "check_finite_weights",
    "check_layer_count",
    "check_matches_tensor",
    "config_eps",
    "config_int",
]

WEIGHT_BOUND = 1e4
"""The largest |weight| a checkpoint may hold (see the module docstring for why)."""
SIZE_LIMIT = 1 << 24
"""The largest size a config may name (16,777,216: beyond any vocabulary or width in use)."""


def config_int(
    config: Mapping[str, Any],
    key: str,
    *,
    where: str = "config.json",
    default: int | None = None,
    hi: int = SIZE_LIMIT,
) -> int:
    """config[key] as a positive integer up to `hi` (`default` when absent, if given)."""
    if key not in config:
        if default is None:
            raise ConfigError(f"{where} lacks {key}")
        return default
    value = config[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(f"{where}: {key} must be a positive integer, got {value!r}")
    if value > hi:
        raise ConfigError(
            f"{where}: {key} is {value}, beyond the largest size attnlab reads ({hi})"
        )
    return value


def config_eps(
    config: Mapping[str, Any], key: str, *, where: str = "config.json", default: float
) -> float:
    """config[key] as a finite number in (0, 1): a normalisation's ε (`default` when absent)."""
    value = config.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(f"{where}: {key} must be a small positive number, got {value!r}")
    if not math.isfinite(value) or not 0 < value < 1:
        raise ConfigError(
            f"{where}: {key} must be finite and between 0 and 1 (typically 1e-12 to 1e-5), "
            f"got {value!r}"
        )
    return float(value)


def check_divides(
    whole: int,
    part: int,
    *,
    whole_key: str,
    part_key: str,
    what: str = "heads",
    where: str = "config.json",
) -> None:
    """`part` must divide `whole` (e.g. num_attention_heads into hidden_size)."""
    if whole % part:
        raise ConfigError(
            f"{where}: {whole_key} {whole} does not split into {part} {what} evenly "
            f"({part_key} is {part}; {whole} / {part} = {whole / part:.3g})"
        )


def check_layer_count(
    names: Iterable[str],
    n_layers: int,
    *,
    prefix: str,
    key: str = "num_hidden_layers",
    file: str = "model.safetensors",
    where: str = "config.json",
) -> None:
    """The tensors' layers, named `{prefix}{i}.…`, must be exactly 0 … n_layers - 1."""
    pattern = re.compile(re.escape(prefix) + r"(\d+)\.")
    found = sorted({int(m.group(1)) for name in names if (m := pattern.match(name))})
    if found == list(range(n_layers)):
        return
    if not found:
        stored = f"no {prefix}… tensors"
    elif found == list(range(len(found))):
        stored = f"{len(found)} layers ({prefix}0 … {found[-1]})"
    else:
        stored = f"layers {', '.join(map(str, found[:8]))}{' …' if len(found) > 8 else ''}"
    raise ConfigError(f"{where}: {key} is {n_layers} but {file} has {stored}")


def check_matches_tensor(
    value: int,
    *,
    key: str,
    tensor: str,
    shape: tuple[int, ...],
    axis: int,
    what: str,
    file: str = "model.safetensors",
    where: str = "config.json",
) -> None:
    """config[key] == shape[axis] of `tensor` (e.g. vocab_size and the embedding's rows)."""
    if len(shape) <= axis or shape[axis] != value:
        found = shape[axis] if len(shape) > axis else f"shape {shape}"
        raise ConfigError(f"{where}: {key} is {value} but {file}'s {tensor} has {found} {what}")


def check_finite_weights(
    name: str, a: np.ndarray, *, file: str = "model.safetensors", bound: float = WEIGHT_BOUND
) -> None:
    """Every entry of tensor `name` finite and within ±bound; TensorValueError otherwise."""
    if a.size == 0:
        return
    lo, hi = float(a.min()), float(a.max())  # NaN if any entry is NaN; no temporary array
    if -bound <= lo and hi <= bound:
        return
    bad = ~np.isfinite(a) | (np.abs(a) > bound)
    at = tuple(int(i) for i in np.argwhere(bad)[0])
    raise TensorValueError(
        f"{file}: tensor {name} holds {float(a[at]):.3g} at {at}; weights must be finite and "
        f"within ±{bound:g} (trained weights are rarely above 10)"
    )
