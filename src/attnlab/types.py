"""Type aliases shared across attnlab: arrays, attention modes, softmax axes."""

from __future__ import annotations

from typing import Literal, TypeAlias

import numpy as np
import numpy.typing as npt

FloatArray: TypeAlias = npt.NDArray[np.floating]
"""A float32 or float64 array; shapes are given in comments where it is used."""

BoolArray: TypeAlias = npt.NDArray[np.bool_]
"""A boolean array; in a mask, True means the query may attend to that key."""

Mode: TypeAlias = Literal["scaled", "unscaled", "uniform"]
"""How scores become weights: softmax(QKᵀ/√dₖ), softmax(QKᵀ), or 1/n for every key."""

MODES: tuple[Mode, ...] = ("scaled", "unscaled", "uniform")

Axis: TypeAlias = Literal["keys", "queries"]
"""Which way the softmax normalises: across the keys (correct) or across the queries (a mistake)."""

AXES: tuple[Axis, ...] = ("keys", "queries")
