"""A head's matrix without its special tokens ([CLS], [SEP]), renormalised or not.

BERT-family heads park much of their weight on [CLS] and [SEP] (Clark et al., 2019, "What Does
BERT Look At?", section 3): the structure among the words is then a faint wash. Hiding those
rows and columns shows it. Two honest ways, and the page says which one is on:

* not renormalised: the words' own weights, unchanged; a row then sums to less than 1, the
  rest being what it gave to the hidden tokens;
* renormalised: each row divided by what it kept, so it sums to 1 over the shown keys (the
  weights a softmax over only those keys would give, since softmax renormalises the same way).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from attnlab.types import FloatArray

__all__ = ["without_specials"]


def without_specials(
    w: FloatArray, tokens: Sequence[str], special: Sequence[str], *, renormalise: bool
) -> tuple[FloatArray, npt.NDArray[np.intp], FloatArray]:
    """The (k, k) matrix over the k tokens that are not special, the kept indices (k,), and the
    weight each kept row gave the hidden keys (k,). Nothing is hidden when all are special."""
    kept = np.array([i for i, t in enumerate(tokens) if t not in special], dtype=np.intp)  # (k,)
    if kept.size == 0:
        kept = np.arange(len(tokens), dtype=np.intp)
    sub = w[np.ix_(kept, kept)].astype(np.float64)  # (k, k)
    held = sub.sum(axis=-1)  # (k,) what each row kept
    hidden: FloatArray = np.clip(1.0 - held, 0.0, 1.0)  # (k,)
    if renormalise:
        sub = sub / np.where(held > 0, held, 1.0)[:, None]  # (k, k) rows sum to 1 again
    return sub, kept, hidden
