"""Generated inputs whose answer is a number: the induction probe and Gu et al.'s sinks probe.

Induction (Olsson et al., 2022, "In-context Learning and Induction Heads"): a random sequence of
T distinct tokens, then the same T again. At second-half position i the token seen T positions
before was followed by the token at i − T + 1; an induction head puts its weight there ("prefix
matching"). The induction score is the mean of A[i, i − T + 1] over the second half; the
previous-token score the mean of A[i, i − 1] over every row but the first, on the same probes.

Sinks (Gu et al., 2024, arXiv 2410.10781, Table 1): 64 tokens of natural text, 64 random tokens
and one token repeated 64 times; a head is a sink on an input when its mean weight on the first
token exceeds ε = 0.3, and the table gives the share of all heads that are. With identical
inputs at every position a RoPE model's attention depends on distance alone; they found 0 % sinks
there for Llama 2/3 and Mistral. An encoder's inputs keep its frame ([CLS] … [SEP]) around the 64.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from attnlab.atlas.measures import EPSILON
from attnlab.atlas.stats import STATISTICS, HeadSums, fixed
from attnlab.errors import AttnlabError, TooLongError
from attnlab.models.model_trace import word_like
from attnlab.types import FloatArray

__all__ = [
    "SINK_INPUTS",
    "AtlasModel",
    "SinkRow",
    "induction_sums",
    "probe_vocabulary",
    "sinks_probe",
]

NATURAL_TEXT = (
    "The river rises in the hills above the town and runs for forty miles to the sea. In "
    "spring the snow melts and the water climbs the stone steps of the old mill, so the "
    "miller keeps his grain on the upper floor. Children fish from the bridge in summer, "
    "and in the autumn the leaves of the alders float past the boats that carry wool, "
    "timber and apples down to the harbour. A ferry crosses where the banks are low, and "
    "its bell rings each hour from dawn until the lamps are lit along the quay."
)
"""The natural input of the sinks probe: plain English, longer than 64 tokens in any tokenizer."""

SINK_INPUTS = ("natural", "random", "repeated")
SINK_TOKENS = 64


class AtlasTrace(Protocol):
    @property
    def attentions(self) -> FloatArray: ...  # (L, H, n, n)


class AtlasModel(Protocol):
    """What the atlas needs of a model: protocol.py's Model plus a pass over token ids."""

    @property
    def name(self) -> str: ...
    @property
    def config(self) -> Any: ...  # n_layers, n_heads, causal
    @property
    def max_tokens(self) -> int: ...
    def tokenize(self, text: str) -> tuple[tuple[str, ...], tuple[int, ...]]: ...
    def trace_ids(self, ids: tuple[int, ...], tokens: tuple[str, ...] | None = ...) -> Any: ...


def probe_vocabulary(model: AtlasModel) -> tuple[int, ...]:
    """Ids a random probe draws from: the tokenizer's word-like tokens, no special or unused one."""
    own = getattr(model, "probe_vocabulary", None)
    if own is not None:
        ids: tuple[int, ...] = own()
        return ids
    vocab: dict[str, int] = model.tokenizer.get_vocab()  # type: ignore[attr-defined]
    return tuple(
        sorted(i for t, i in vocab.items() if word_like(t) and not t.startswith(("[", "<")))
    )


def _frame(model: AtlasModel) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The ids a model puts around a text (BERT's [CLS] and [SEP]; none for a decoder)."""
    special = set(getattr(getattr(model, "summary", None), "special", ()))
    tokens, ids = model.tokenize("the")
    start = next((i for i, t in enumerate(tokens) if t not in special), 0)
    end = next((i for i in range(len(tokens) - 1, -1, -1) if tokens[i] not in special), start)
    return tuple(ids[:start]), tuple(ids[end + 1 :])


def _weights(model: AtlasModel, ids: tuple[int, ...]) -> FloatArray:
    a: FloatArray = np.asarray(model.trace_ids(ids).attentions)
    return a  # (L, H, n, n)


def induction_sums(
    model: AtlasModel, *, count: int, length: int, top_k: int, seed: int = 0
) -> HeadSums:
    """The induction and previous-token scores of `count` probes of 2 × `length` tokens."""
    c = model.config
    sums = HeadSums.empty(c.n_layers, c.n_heads, top_k=top_k)
    vocab = np.asarray(probe_vocabulary(model))
    before, after = _frame(model)
    totals = np.zeros(sums.totals.shape, np.int64)
    counts = np.zeros(sums.counts.shape, np.int64)
    induction, previous = STATISTICS.index("induction"), STATISTICS.index("probe_previous")
    for p in range(count):
        rng = np.random.default_rng([seed, p])
        half = tuple(int(i) for i in rng.choice(vocab, size=length, replace=False))
        a = _weights(model, before + half + half + after)  # (L, H, n, n)
        o = len(before)
        i = np.arange(o + length, o + 2 * length)  # second-half rows
        totals[induction] += fixed(a[:, :, i, i - length + 1].astype(np.float64).sum(-1))
        counts[induction] += length
        r = np.arange(o + 1, o + 2 * length)  # every probe row but the first
        totals[previous] += fixed(a[:, :, r, r - 1].astype(np.float64).sum(-1))
        counts[previous] += len(r)
    return HeadSums(
        totals=totals,
        counts=counts,
        histogram=sums.histogram,
        ex_value=sums.ex_value,
        ex_uid=sums.ex_uid,
        ex_position=sums.ex_position,
    )


@dataclass(frozen=True)
class SinkRow:
    """One input of the sinks probe: the share of heads that are sinks and their mean α."""

    input: str  # natural, random or repeated
    sink_share: float  # share of the L × H heads with α > ε, averaged over the samples
    mean_first: float  # α averaged over heads and samples
    samples: int
    tokens: int  # tokens per sample, the model's frame included


def _natural_ids(model: AtlasModel, before: int, after: int) -> tuple[int, ...]:
    """NATURAL_TEXT's ids without the model's frame: the whole passage where it fits the
    model's limit, else sentence by sentence (each sentence's ids, frame cut, in order)."""
    try:
        ids = model.tokenize(NATURAL_TEXT)[1]
        return tuple(ids[before : len(ids) - after])
    except TooLongError:
        pass
    out: list[int] = []
    for sentence in NATURAL_TEXT.split(". "):
        ids = model.tokenize(sentence.rstrip(".") + ".")[1]
        out.extend(ids[before : len(ids) - after])
    return tuple(out)


def sinks_probe(
    model: AtlasModel, *, samples: int = 4, seed: int = 0, epsilon: float = EPSILON
) -> tuple[SinkRow, ...]:
    """Gu et al.'s three inputs of SINK_TOKENS tokens through `model`: one row each."""
    before, after = _frame(model)
    if model.max_tokens < len(before) + SINK_TOKENS + len(after):
        raise AttnlabError(
            f"the sinks probe runs {SINK_TOKENS} tokens (plus {len(before) + len(after)} of "
            f"the model's frame); {model.name} takes at most {model.max_tokens}",
            field="model",
        )
    natural = _natural_ids(model, len(before), len(after))
    vocab = np.asarray(probe_vocabulary(model))
    rows = []
    for kind in SINK_INPUTS:
        shares, alphas = [], []
        for s in range(samples):
            rng = np.random.default_rng([seed, s, SINK_INPUTS.index(kind)])
            if kind == "natural":
                start = s * max(0, len(natural) - SINK_TOKENS) // max(samples - 1, 1)
                body = tuple(natural[start : start + SINK_TOKENS])
            elif kind == "random":
                body = tuple(int(i) for i in rng.choice(vocab, size=SINK_TOKENS))
            else:
                body = (int(rng.choice(vocab)),) * SINK_TOKENS
            a = _weights(model, before + body + after)
            alpha = a[..., 0].astype(np.float64).mean(-1)  # (L, H)
            shares.append(float((alpha > epsilon).mean()))
            alphas.append(float(alpha.mean()))
        n = len(before) + SINK_TOKENS + len(after)
        rows.append(SinkRow(kind, float(np.mean(shares)), float(np.mean(alphas)), samples, n))
    return tuple(rows)
