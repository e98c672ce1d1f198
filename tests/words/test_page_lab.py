"""words/page_lab.py: the lab's words, and the keys the lab builds from the API's choices."""

from starlette.testclient import TestClient

from attnlab.web.app import create_app
from attnlab.words.page import PAGE_WORDS
from attnlab.words.page_lab import LAB_WORDS


def test_the_lab_words_are_page_words_under_lab() -> None:
    assert LAB_WORDS
    for key, text in LAB_WORDS.items():
        assert key.startswith("lab."), key
        assert PAGE_WORDS[key] == text


def test_every_choice_the_api_offers_the_lab_has_words_for() -> None:
    """lab.js and lab_edit.js name an option by a key built from the API's value."""
    client = TestClient(create_app(), base_url="http://127.0.0.1")
    lab = client.get("/api/lab").json()
    choices = client.get("/api/presets").json()["choices"]
    keys = [
        f"lab.edit.{part}.{role}"
        for role in lab["edit_params"].values()
        for part in ("role", "noun")
    ]
    keys += [f"lab.axis.{axis}" for axis in choices["axes"]]
    keys += [f"lab.positions.{kind}" for kind in lab["positions"]]
    keys += [f"lab.temperature.{k}" for k in ("uniform", "unscaled", "sqrt", "sharper", "flatter")]
    assert [k for k in keys if k not in LAB_WORDS] == []


def test_the_help_texts_quote_the_limits_the_api_serves() -> None:
    """words/ may not import the lesson (it runs the other way), so the numbers in two help
    texts are written out; this keeps them equal to what /api/lab serves."""
    lab = TestClient(create_app(), base_url="http://127.0.0.1").get("/api/lab").json()
    limit = f"{lab['edit_limit']:g}"
    assert f"between −{limit} and {limit}." in LAB_WORDS["lab.edit.help"]
    assert f"to {lab['cost']['default_max_n']};" in LAB_WORDS["lab.cost.help"]
