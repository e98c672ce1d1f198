"""Sliding windows and sinks: the loss under a window in every layer, against transformers'
LlamaForCausalLM given the same mask as an explicit 4D additive attention mask."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attnlab.errors import ShapeError, TooLongError
from attnlab.models.sliding_windows import Scheme, kept_keys, scheme_loss, window_table
from attnlab.models.spec import MaskSpec

TEXT = (
    "The river bank was muddy after the rain, so the farmers walked home along the water "
    "and talked about the harvest, the weather and the price of grain at the market in town."
)


def _ids(model, n: int) -> tuple[int, ...]:  # type: ignore[no-untyped-def]
    ids = model.tokenizer.encode(TEXT * 3).ids[:n]
    assert len(ids) == n
    return tuple(ids)


def _reference_nll(reference, ids: tuple[int, ...], allowed: np.ndarray) -> float:  # type: ignore[no-untyped-def]
    """transformers' mean next-token NLL with `allowed` (n, n) as a 4D additive mask."""
    import torch

    additive = torch.zeros((1, 1, len(ids), len(ids)), dtype=torch.float32)
    additive[0, 0][torch.from_numpy(~allowed)] = torch.finfo(torch.float32).min
    with torch.no_grad():
        logits = reference(input_ids=torch.tensor([ids]), attention_mask=additive).logits[0]
    logp = torch.log_softmax(logits.double(), dim=-1)[:-1]  # (n − 1, vocab)
    return float(-logp[torch.arange(len(ids) - 1), torch.tensor(ids[1:])].mean())


@pytest.mark.torch
@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::FutureWarning")
def test_window_and_sinks_losses_match_a_direct_masked_forward(smollm2, smollm2_reference) -> None:  # type: ignore[no-untyped-def]
    ids = _ids(smollm2, 40)
    n = len(ids)
    full_ref = _reference_nll(smollm2_reference, ids, Scheme().allowed(n, slice(None)))
    assert abs(scheme_loss(smollm2, ids, Scheme()).nll - full_ref) < 1e-4
    for scheme in (Scheme(8), Scheme(8, 2)):
        ref = _reference_nll(smollm2_reference, ids, scheme.allowed(n, slice(None)))
        mine = scheme_loss(smollm2, ids, scheme)
        assert abs(mine.nll - ref) < 1e-4, scheme.name
        assert abs(ref - full_ref) > 1e-2, "the reference must see the mask, not a causal one"
        assert mine.perplexity == pytest.approx(math.exp(ref), rel=1e-4)
        assert mine.scored == n - 1


def test_a_window_as_long_as_the_text_gives_the_full_loss_exactly(smollm2) -> None:  # type: ignore[no-untyped-def]
    ids = _ids(smollm2, 24)
    full = scheme_loss(smollm2, ids, Scheme()).nll
    for scheme in (Scheme(24), Scheme(100), Scheme(24, 3)):
        assert scheme_loss(smollm2, ids, scheme).nll == full, scheme.name
    # w = 23 hides key 0 from query 23 only, whose next token is not in the text (not scored);
    # w = 22 hides it from query 22 too, which predicts the last token
    assert scheme_loss(smollm2, ids, Scheme(23)).nll == full
    assert scheme_loss(smollm2, ids, Scheme(22)).nll != full


def test_window_table_runs_full_then_each_sink_count_and_window(smollm2) -> None:  # type: ignore[no-untyped-def]
    ids = _ids(smollm2, 20)
    seen = []
    rows = window_table(
        smollm2, ids, (4, 8), (0, 2), progress=lambda i, c, s: seen.append((i, c, s))
    )
    names = [r.scheme.name for r in rows]
    assert names == ["full", "window 4", "window 8", "window 4 + 2 sinks", "window 8 + 2 sinks"]
    assert [(i, c) for i, c, _ in seen] == [(i, 5) for i in range(5)]
    by = {r.scheme: r for r in rows}
    assert by[Scheme(4, 0)].nll == scheme_loss(smollm2, ids, Scheme(4)).nll  # s = 0: a plain window
    assert [r.n_tokens for r in rows] == [20] * 5
    with pytest.raises(TooLongError, match="3000 tokens"):
        window_table(smollm2, (1,) * 3000)
    with pytest.raises(ShapeError, match="at least 2"):
        scheme_loss(smollm2, ids[:1], Scheme())


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 40), w=st.integers(1, 45), s=st.integers(0, 6))
def test_a_scheme_keeps_the_window_and_the_sinks_and_nothing_after_the_query(
    n: int, w: int, s: int
) -> None:
    allowed = Scheme(w, s).allowed(n, slice(None))
    expected = np.array([[j <= i and (i - w < j or j < s) for j in range(n)] for i in range(n)])
    assert (allowed == expected).all()
    assert np.array_equal(np.asarray(Scheme(w, s).mask.allowed(0, n)), allowed)  # MaskSpec's
    plain = np.asarray(MaskSpec(window=w).allowed(0, n))
    assert np.array_equal(Scheme(w, 0).allowed(n, slice(None)), plain)
    if w >= n:
        assert (allowed == Scheme().allowed(n, slice(None))).all()
    assert kept_keys(Scheme(w, s), n) == pytest.approx(expected.sum(1).mean())
