"""The induction probe and the sinks probe on hand-built heads (atlas/probes.py)."""

import numpy as np
import pytest

from attnlab.atlas.patterns import PATTERN_HEADS, PatternModel
from attnlab.atlas.probes import SINK_INPUTS, induction_sums, sinks_probe
from attnlab.atlas.stats import STATISTICS
from attnlab.errors import AttnlabError


def head(name: str) -> tuple[int, int]:
    return next(
        (la, h) for la, row in enumerate(PATTERN_HEADS) for h, n in enumerate(row) if n == name
    )


def test_the_hand_built_induction_head_scores_one_and_the_others_do_not() -> None:
    sums = induction_sums(PatternModel(), count=3, length=10, top_k=1)
    m = sums.means()
    induction = m[STATISTICS.index("induction")]
    previous = m[STATISTICS.index("probe_previous")]
    assert induction[head("induction")] == 1
    assert induction[head("previous")] == 0 and induction[head("self")] == 0
    assert previous[head("previous")] == 1 and previous[head("induction")] < 0.1
    assert np.isnan(m[STATISTICS.index("entropy")]).all()  # only probe statistics counted


def test_the_sinks_table_of_hand_built_heads() -> None:
    rows = sinks_probe(PatternModel(max_tokens=128), samples=2)
    assert [r.input for r in rows] == list(SINK_INPUTS)
    by = {r.input: r for r in rows}
    # random tokens: the sink head alone (1 of 6) puts its weight on token 0; the induction
    # and copy heads find no earlier occurrence (or few) and fall back to token 0 as well
    assert 1 / 6 <= by["random"].sink_share <= 3 / 6
    # one token repeated: every copy and induction row has an earlier occurrence
    assert by["repeated"].sink_share == 1 / 6
    assert all(r.tokens == 64 for r in rows)


def test_the_sinks_probe_runs_on_a_model_whose_limit_the_passage_exceeds() -> None:
    """The natural passage is 97 words; the pattern model takes 64 (it once stopped the probe)."""
    model = PatternModel()
    rows = sinks_probe(model, samples=2)
    assert model.max_tokens == 64 and [r.tokens for r in rows] == [64, 64, 64]


def test_a_model_too_small_for_64_tokens_is_told_so() -> None:
    with pytest.raises(AttnlabError, match=r"runs 64 tokens .* takes at most 40"):
        sinks_probe(PatternModel(max_tokens=40))
