"""LessonOptions: one frozen, validated object; variants by dataclasses.replace."""

from dataclasses import FrozenInstanceError, replace

import numpy as np
import pytest

from attnlab.errors import (
    AttnlabError,
    MaskError,
    PositionsError,
    ShuffleError,
    TemperatureError,
    UnknownHeadError,
    UnknownModeError,
)
from attnlab.lesson.edits import Edits
from attnlab.lesson.options import LessonOptions


def test_defaults_are_the_seed_lesson() -> None:
    o = LessonOptions()
    assert (o.mode, o.axis, o.temperature, o.positions, o.causal, o.heads) == (
        "scaled", "keys", None, "none", False, 1,
    )  # fmt: skip
    assert not o.edits and o.shuffle is None and o.mask is None


def test_frozen_and_variants_by_replace() -> None:
    o = LessonOptions(causal=True)
    with pytest.raises(FrozenInstanceError):
        o.causal = False  # type: ignore[misc]
    v = replace(o, axis="queries")
    assert v.axis == "queries" and v.causal and o.axis == "keys"


@pytest.mark.parametrize(
    ("kwargs", "error", "field"),
    [
        ({"mode": "softer"}, UnknownModeError, "mode"),
        ({"axis": "columns"}, UnknownModeError, "axis"),
        ({"temperature": -1.0}, TemperatureError, "temperature"),
        ({"temperature": 2.0, "mode": "uniform"}, TemperatureError, "temperature"),
        ({"positions": "alibi"}, PositionsError, "positions"),
        ({"heads": 3}, UnknownHeadError, "heads"),
        ({"heads": True}, UnknownHeadError, "heads"),
        ({"shuffle": -1}, ShuffleError, "shuffle"),
        ({"shuffle": 2**32}, ShuffleError, "shuffle"),
        ({"mask": np.ones((2, 3), dtype=bool)}, MaskError, "mask"),
        ({"mask": np.ones((2, 2))}, MaskError, "mask"),
    ],
)
def test_every_refusal_is_named_and_says_which_field(
    kwargs: dict[str, object], error: type[Exception], field: str
) -> None:
    with pytest.raises(error) as caught:
        LessonOptions(**kwargs)  # type: ignore[arg-type]
    assert getattr(caught.value, "field", None) == field


def test_a_bad_head_is_not_blamed_on_the_mode_control() -> None:
    # the bug: heads=3 raised UnknownModeError, so the page showed it beside Normalization
    with pytest.raises(UnknownHeadError) as caught:
        LessonOptions(heads=3)
    assert not isinstance(caught.value, UnknownModeError) and caught.value.field == "heads"


def test_mask_is_copied_and_read_only() -> None:
    m = np.tril(np.ones((4, 4), dtype=bool))
    o = LessonOptions(mask=m)
    m[0, 3] = True
    assert not o.mask[0, 3] and not o.mask.flags.writeable


def test_edits_must_be_an_edits_object() -> None:
    with pytest.raises(AttnlabError) as caught:
        LessonOptions(edits={"embeddings": {"bank": [1, 0, 0, 1]}})  # type: ignore[arg-type]
    assert caught.value.field == "set"
    assert LessonOptions(edits=Edits.parse({"embeddings": ["bank=1,0,0,1"]})).edits
