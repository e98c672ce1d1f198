"""The kinds of parameter (request_fields.py), as the routes read them: blank means the default,
text is stripped and limited, whole numbers are bounded, and an unknown name is refused."""

import pytest

from attnlab.web.request_fields import MAX_CHARS


def test_blank_values_mean_the_defaults(client) -> None:
    params = {"mode": "", "axis": " ", "temperature": "", "causal": "", "heads": "", "focus": ""}
    d = client.get("/api/lesson", params=params).json()
    assert (d["mode"], d["axis"], d["temperature"], d["causal"]) == ("scaled", "keys", None, False)
    assert len(d["heads"]) == 1 and d["focus"] == 3


def test_text_is_stripped_and_choices_too(client) -> None:
    d = client.get("/api/lesson", params={"sentence": "  by the river bank ", "mode": " uniform "})
    assert d.status_code == 200 and d.json()["mode"] == "uniform"
    assert d.json()["tokens"] == ["by", "the", "river", "bank"]


def test_positions_and_model_names_in_any_case(client, minilm) -> None:
    assert (
        client.get("/api/lesson", params={"positions": "RoPE"}).json()["positions"]["kind"]
        == "rope"
    )
    assert client.get("/api/model/info", params={"model": " MiniLM "}).json()["model"] == "minilm"


@pytest.mark.parametrize(
    ("params", "field", "message"),
    [
        (
            {"sentence": "x" * (MAX_CHARS + 1)},
            "sentence",
            f"is {MAX_CHARS + 1} characters long; the limit is {MAX_CHARS}",
        ),
        ({"heads": "0"}, "heads", "heads must be between 1 and 2, got 0"),
        ({"heads": "1.5"}, "heads", "heads must be a whole number, got '1.5'"),
        ({"heads": "9" * 5000}, "heads", "heads must be a whole number, got '999"),
        ({"shuffle": str(2**32)}, "shuffle", "shuffle must be between 0 and 4294967295"),
        ({"causal": "maybe"}, "causal", "causal must be true or false (1 or 0), got 'maybe'"),
        ({"axis": "diagonal"}, "axis", "unknown axis 'diagonal': expected 'keys' or 'queries'"),
    ],
)
def test_each_kind_refuses_in_words(client, params, field, message) -> None:
    r = client.get("/api/lesson", params=params)
    assert r.status_code == 400 and r.json()["field"] == field
    assert message in r.json()["error"]
    assert len(r.json()["error"]) < 200  # a long value is quoted cut short


def test_words_hold_no_pydantic_jargon(client) -> None:
    cases = [{"heads": "x"}, {"temperature": "hot"}, {"mode": "x"}, {"causal": "x"}, {"zz": "1"}]
    for params in cases:
        message = client.get("/api/lesson", params=params).json()["error"]
        for jargon in (
            "Input should",
            "loc",
            "input_value",
            "pydantic",
            "type=",
            "errors.pydantic.dev",
        ):
            assert jargon not in message, (params, message)
