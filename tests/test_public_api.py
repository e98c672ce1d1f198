"""Every public function answers bad input with a named AttnlabError, never a bare error (issue 9).

The walk covers every callable `attnlab.__all__` exports (a test below fails when one is
added without bad inputs here), each argument given None, a wrong type, NaN, infinity and a
huge number; and the real model's `trace`, `focus_index`, `head` and `rows`.
"""

import inspect
import math
from collections.abc import Callable

import numpy as np
import pytest

import attnlab
from attnlab import (
    AttnlabError,
    LessonOptions,
    attend,
    causal_mask,
    entropy_bits,
    explain_lesson,
    load_model,
    merge_heads,
    self_attend,
    softmax,
    split_heads,
)
from attnlab.lesson.toy import focus_index

BAD = [None, "x", math.nan, math.inf, -math.inf, 10**400, -1, 1.5, True, [], object(), b"x",
       {"a": 1}, np.array([[np.nan, 1.0]]), np.array([[np.inf, 1.0]])]  # fmt: skip
ONES = np.ones((2, 2))
NOWHERE = "/nonexistent-folder/never"

CALLS: dict[str, list[Callable[[object], object]]] = {
    "attend": [
        lambda b: attend(b, ONES, ONES),
        lambda b: attend(ONES, b, ONES),
        lambda b: attend(ONES, ONES, b),
        lambda b: attend(ONES, ONES, ONES, mode=b),  # type: ignore[arg-type]
        lambda b: attend(ONES, ONES, ONES, axis=b),  # type: ignore[arg-type]
        lambda b: attend(ONES, ONES, ONES, mask=b),
        lambda b: attend(ONES, ONES, ONES, temperature=b),  # type: ignore[arg-type]
        lambda b: attend(ONES, ONES, ONES, tokens=b),  # type: ignore[arg-type]
        lambda b: attend(ONES, ONES, ONES, key_tokens=b),  # type: ignore[arg-type]
    ],
    "causal_mask": [lambda b: causal_mask(b)],  # type: ignore[arg-type]
    "entropy_bits": [lambda b: entropy_bits(b)],  # type: ignore[arg-type]
    "softmax": [lambda b: softmax(b), lambda b: softmax(ONES, axis=b)],  # type: ignore[arg-type]
    "split_heads": [lambda b: split_heads(b, 2), lambda b: split_heads(ONES, b)],  # type: ignore[arg-type]
    "merge_heads": [lambda b: merge_heads(b)],
    "self_attend": [
        lambda b: self_attend(b, np.eye(2), np.eye(2), np.eye(2), tokens=["a", "b"]),
        lambda b: self_attend(ONES, b, np.eye(2), np.eye(2), tokens=["a", "b"]),
        lambda b: self_attend(ONES, np.eye(2), np.eye(2), np.eye(2), tokens=b),  # type: ignore[arg-type]
    ],
    "explain_lesson": [
        lambda b: explain_lesson(b),  # type: ignore[arg-type]
        lambda b: explain_lesson("by the river bank", b),  # type: ignore[arg-type]
        lambda b: explain_lesson("by the river bank", focus=b),  # type: ignore[arg-type]
    ],
    "LessonOptions": [
        lambda b: LessonOptions(mode=b),  # type: ignore[arg-type]
        lambda b: LessonOptions(axis=b),  # type: ignore[arg-type]
        lambda b: LessonOptions(temperature=b),  # type: ignore[arg-type]
        lambda b: LessonOptions(positions=b),  # type: ignore[arg-type]
        lambda b: LessonOptions(causal=b),  # type: ignore[arg-type]
        lambda b: LessonOptions(heads=b),  # type: ignore[arg-type]
        lambda b: LessonOptions(shuffle=b),  # type: ignore[arg-type]
        lambda b: LessonOptions(edits=b),  # type: ignore[arg-type]
    ],
    "load_model": [lambda b: load_model(b)],  # type: ignore[arg-type]
    "save": [  # into NOWHERE: a bad value accepted would fail to write, and say so
        lambda b: attnlab.save(b, NOWHERE + ".json"),  # type: ignore[arg-type]
        lambda b: attnlab.save(explain_lesson(), b),  # type: ignore[arg-type]
        lambda b: attnlab.save(explain_lesson(), NOWHERE + ".html", format=b),
        lambda b: attnlab.save(explain_lesson(), NOWHERE + ".csv", table=b),
        lambda b: attnlab.save(explain_lesson(), NOWHERE + ".html", beat=b),
        lambda b: attnlab.save(explain_lesson(), NOWHERE + ".html", focus=b),
        lambda b: attnlab.save(explain_lesson(), NOWHERE + ".csv", table="matrix", head=b),
    ],
    "focus_index": [lambda b: focus_index(("by", "bank"), b), lambda b: focus_index(b, 0)],  # type: ignore[arg-type]
    "show": [
        lambda b: attnlab.show(b),
        lambda b: attnlab.show(np.full((1, 1, 2, 2), 0.5), b),  # type: ignore[arg-type]
        lambda b: attnlab.show(np.full((1, 1, 2, 2), 0.5), ["a", "b"], layer=b),  # type: ignore[arg-type]
        lambda b: attnlab.show(np.full((1, 1, 2, 2), 0.5), ["a", "b"], head=b),  # type: ignore[arg-type]
        lambda b: attnlab.show(np.full((1, 1, 2, 2), 0.5), ["a", "b"], focus=b),  # type: ignore[arg-type]
        lambda b: attnlab.show(explain_lesson("by the river bank"), beat=b),  # type: ignore[arg-type]
    ],
}
ACCEPTS = {  # (function, call number, value): the few bad-looking values that are valid input
    ("attend", 5, None), ("attend", 6, None), ("attend", 7, None), ("attend", 8, None),
    ("attend", 6, 1.5), ("attend", 6, 10**400 // 10**399),
    ("explain_lesson", 1, None), ("explain_lesson", 2, None), ("explain_lesson", 2, -1),
    ("LessonOptions", 2, None), ("LessonOptions", 2, 1.5), ("LessonOptions", 6, None),
    ("focus_index", 0, None), ("softmax", 1, -1), ("LessonOptions", 4, True),
    ("show", 4, None), ("show", 5, None),  # start on the default focus / beat
    ("show", 2, None), ("show", 3, None),  # the first layer / head shown (BertViz's layer=None)
    ("save", 2, None), ("save", 5, None), ("save", 5, -1),  # the suffix's format; a focus
}  # fmt: skip
NOT_FUNCTIONS = {"Trace", "Explanation", "LessonExplanation"}  # results, built by the functions


def test_every_exported_callable_is_walked() -> None:
    exported = {
        name
        for name in attnlab.__all__
        if callable(getattr(attnlab, name))
        and not (
            inspect.isclass(getattr(attnlab, name))
            and issubclass(getattr(attnlab, name), Exception)
        )
    }
    assert exported - NOT_FUNCTIONS <= set(CALLS), exported - NOT_FUNCTIONS - set(CALLS)


@pytest.mark.parametrize(
    ("name", "number", "call"),
    [(name, i, call) for name, calls in CALLS.items() for i, call in enumerate(calls)],
    ids=lambda x: str(x) if not callable(x) else "",
)
def test_bad_inputs_raise_a_named_attnlab_error(name: str, number: int, call) -> None:
    wrong = []
    for bad in BAD:
        if any((name, number, bad) == a for a in ACCEPTS if type(a[2]) is type(bad)):
            continue
        try:
            call(bad)
        except AttnlabError as exc:
            assert type(exc) is not AttnlabError or exc.field, (bad, exc)  # named or placed
            assert str(exc), bad
            continue
        except Exception as exc:  # the point: any other exception is a failure
            wrong.append(f"{bad!r:.30}: {type(exc).__name__}: {exc}"[:160])
            continue
        wrong.append(f"{bad!r:.30}: accepted")
    assert not wrong, wrong


def test_the_models_folder_functions_answer_bad_types_by_name() -> None:
    from attnlab.models import architecture_of, model_folder, read_checkpoint

    for call in (read_checkpoint, architecture_of, model_folder):
        for bad in (None, 5, b"x", [], 1.5):
            with pytest.raises(AttnlabError):
                call(bad)  # type: ignore[arg-type]


def test_wrong_types_are_also_type_errors() -> None:
    """ArgumentTypeError is a TypeError too, so `except TypeError` in a caller still works."""
    from attnlab.errors import ArgumentTypeError

    with pytest.raises(TypeError):
        causal_mask("4")  # type: ignore[arg-type]
    assert issubclass(ArgumentTypeError, TypeError) and issubclass(ArgumentTypeError, ValueError)


@pytest.mark.usefixtures("minilm")
def test_a_real_models_methods_answer_bad_types_by_name(minilm) -> None:
    mt = minilm.trace("by the river bank")
    calls = [
        lambda b: minilm.trace(b),
        lambda b: mt.focus_index(b),
        lambda b: mt.head(b, 0),
        lambda b: mt.head(0, b),
        lambda b: mt.rows(b),
    ]
    for i, call in enumerate(calls):
        for bad in BAD:
            if (bad is None and i == 1) or (
                isinstance(bad, str) and i == 0
            ):  # the default focus; a text
                continue
            with pytest.raises(AttnlabError):
                call(bad)
                pytest.fail(f"call {i} accepted {bad!r}")
    for focus in ("²", "--5", "9" * 5000, "٣"):
        with pytest.raises(attnlab.FocusError):
            mt.focus_index(focus)
