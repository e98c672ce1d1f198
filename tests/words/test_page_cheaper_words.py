"""The Cheaper section's fixed words say what the code does: the sizes the price card measures,
the buttons' labels, and that the real-model card's windows line names the command."""

from __future__ import annotations

from attnlab.core.cheaper_cost import FORMS, PRICE_SIZES, RUNS
from attnlab.words.page_cheaper import CHEAPER_WORDS

SPOKEN = {3: "three", 5: "five"}


def test_the_price_card_names_the_sizes_and_runs_it_measures() -> None:
    help_ = CHEAPER_WORDS["lab.cheaper.price.help"]
    assert f"n = {PRICE_SIZES[0]:,} to {PRICE_SIZES[-1]:,}" in help_
    assert f"runs {SPOKEN[RUNS]} times" in help_
    measuring = CHEAPER_WORDS["lab.cheaper.price.measuring"]
    assert f"the {SPOKEN[len(FORMS)]} forms at {SPOKEN[len(PRICE_SIZES)]} sizes" in measuring
    assert "{seconds}" in measuring


def test_the_real_models_card_points_at_the_commands_that_compute_it() -> None:
    assert "`attnlab cheaper cache`" in CHEAPER_WORDS["lab.cheaper.models.help"]
    windows = CHEAPER_WORDS["lab.cheaper.models.windows"]
    assert "`attnlab cheaper windows`" in windows
    assert not any(ch.isdigit() for ch in windows.replace("SmolLM2", ""))  # no number no run made
    assert "{seconds}" in CHEAPER_WORDS["lab.cheaper.models.running"]
