"""The API's parameter readers: each bad value refused with its field named."""

import pytest

from attnlab.web.params import MAX_CHARS, BadRequest, choice, flag, number, text, whole


def test_text_strips_and_limits() -> None:
    assert text(None, "sentence") == "" and text("  by the  ", "sentence") == "by the"
    with pytest.raises(BadRequest, match=f"the limit is {MAX_CHARS}") as info:
        text("x" * (MAX_CHARS + 1), "sentence")
    assert info.value.field == "sentence"


def test_number_and_whole() -> None:
    assert number("", "t") is None and number("0.5", "t") == 0.5 and number(2, "t") == 2.0
    with pytest.raises(BadRequest, match="t must be a number, got 'warm'"):
        number("warm", "t")
    with pytest.raises(BadRequest, match=r"head must be a whole number, got '1\.5'"):
        whole("1.5", "head", range(2))
    with pytest.raises(BadRequest, match="layer must be between 0 and 5, got '6'"):
        whole("6", "layer", range(6))
    assert whole(None, "layer", range(6)) is None and whole("5", "layer", range(6)) == 5


def test_flag_and_choice() -> None:
    assert flag("1", "causal") and flag("on", "causal") and not flag(None, "causal")
    with pytest.raises(BadRequest, match="true or false"):
        flag("maybe", "causal")
    assert choice(None, "mode", ("scaled", "uniform")) == "scaled"
    assert choice("uniform", "mode", ("scaled", "uniform")) == "uniform"
    with pytest.raises(BadRequest, match="unknown mode 'soft'") as info:
        choice("soft", "mode", ("scaled", "uniform"))
    assert info.value.field == "mode"
