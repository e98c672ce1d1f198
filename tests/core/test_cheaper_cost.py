"""The price of each form against n: the n × n form's memory grows as n², the tiles' as n."""

from __future__ import annotations

from attnlab.core.cheaper_cost import FORMS, measure_price


def test_memory_of_each_form_against_n() -> None:
    p = measure_price((256, 1024), tile=128)
    assert set(p.seconds) == set(p.bytes) == set(FORMS)
    exact, tiled, linear = (p.bytes[f] for f in FORMS)
    assert exact[1] >= 1024 * 1024 * 4  # at least the n × n float32 scores
    assert exact[1] / exact[0] > 12  # 4× the tokens: about 16× the memory
    assert tiled[1] / tiled[0] < 5 and linear[1] / linear[0] < 5  # about 4×, or less
    assert tiled[1] < exact[1] / 10
    assert (p.seconds["exact"] > 0).all()
