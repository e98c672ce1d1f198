"""Edited vectors: accepted numbers, and refusals that quote the word, dimension and value."""

import math

import pytest

from attnlab.encode.lesson_json import encode_edits
from attnlab.errors import VectorEditError
from attnlab.lesson.edits import LIMIT, Edits, check_vector, parse_edit

DIMS = ("geographic", "financial", "function", "ambiguity")


def test_numbers_and_numeric_strings_are_accepted() -> None:
    assert check_vector("bank", [1, "2.5", " -3 ", 1e2]) == (1.0, 2.5, -3.0, 100.0)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        (
            ["1", "x", "0", "0"],
            "the embedding of 'bank', dimension 1 (financial): 'x' is not a number",
        ),
        ([0, 0, math.nan, 0], "dimension 2 (function): nan is NaN"),
        (["0", "nan", "0", "0"], "dimension 1 (financial): 'nan' is NaN"),
        ([0, 0, 0, 100.5], "dimension 3 (ambiguity): 100.5 is beyond ±100"),
        ([0, 0, 0, "inf"], "'inf' is beyond ±100"),
        ([0, None, 0, 0], "None is not a number"),
        ([0, True, 0, 0], "True is not a number"),
        ([1, 2, 3], "needs 4 numbers, got 3"),
        ("1,2,3,4", "must be a list of 4 numbers"),
    ],
)
def test_bad_numbers_are_refused_with_token_dimension_and_value(values, message: str) -> None:
    with pytest.raises(VectorEditError, match=message.replace("(", r"\(").replace(")", r"\)")):
        check_vector("bank", values, dim_names=DIMS)


def test_parse_text_edits() -> None:
    assert parse_edit("Bank=1,2,0,0") == ("bank", ["1", "2", "0", "0"])
    e = Edits.parse({"embeddings": ["bank=1,2,0,0"], "queries": ["river=0,0,0,1"]})
    assert e.embeddings == {"bank": (1.0, 2.0, 0.0, 0.0)} and e.queries["river"][3] == 1.0
    assert bool(e) and not bool(Edits())
    with pytest.raises(VectorEditError, match="TOKEN=x,y,z,w"):
        parse_edit("bank 1,2,3,4")


def test_json_edits_and_their_errors() -> None:
    e = Edits.from_json({"values": {"river": [0, 0, 0, LIMIT]}})
    assert encode_edits(e)["values"] == {"river": [0.0, 0.0, 0.0, 100.0]}
    with pytest.raises(VectorEditError, match="unknown edit role 'weights'"):
        Edits.from_json({"weights": {}})
    with pytest.raises(VectorEditError, match="the query of 'bank', dimension 0 must be a JSON"):
        Edits.from_json({"queries": {"bank": ["a", 0, 0, 0]}})  # JSON's numbers are numbers
    with pytest.raises(VectorEditError, match="the query of 'bank', dimension 0: 'a' is not a"):
        Edits.from_json({"queries": {"bank": ["a", 0, 0, 0]}}, text=True)  # as parse reads them
    with pytest.raises(VectorEditError, match=r"edits must be an object of roles such as .*a list"):
        Edits.from_json([{"role": "x", "value": float("nan")}])


def test_edited_word_must_be_in_the_sentence() -> None:
    with pytest.raises(VectorEditError, match="'money': it is not in the sentence"):
        Edits.parse({"embeddings": ["money=1,0,0,0"]}).check_tokens(("by", "the"))


def test_each_role_names_its_own_parameter() -> None:
    for role, field in (("embeddings", "set"), ("queries", "set_q"), ("values", "set_v")):
        with pytest.raises(VectorEditError) as info:
            Edits.parse({role: ["bank=1,2,3"]})
        assert info.value.field == field
    with pytest.raises(VectorEditError) as info:
        Edits.parse({"keys": ["bank"]})
    assert info.value.field == "set_k" and "TOKEN=x,y,z,w" in str(info.value)
