"""The real-model API: one head's beats with a grid, two contexts compared, clear 400s."""

import pytest

from attnlab.encode.packed import unpack
from attnlab.models.kept import loaded_model
from attnlab.web.requests_model import MAX_TEXT_CHARS

pytestmark = pytest.mark.usefixtures("minilm")


def test_info_gives_sizes_and_limits(client) -> None:
    d = client.get("/api/model/info").json()
    assert (d["n_layers"], d["n_heads"], d["d_model"], d["d_k"]) == (6, 12, 384, 32)
    assert d["max_tokens"] == 512 and d["known_models"] == ["minilm", "smollm2", "gemma3"]
    assert d["n_kv_heads"] == 12 and d["causal"] is False


def test_trace_is_the_toys_schema_plus_model_and_focus_grid(client) -> None:
    r = client.get("/api/model/trace", params={"text": "by the river bank", "layer": 0,
                                               "head": 2, "focus": "bank"})  # fmt: skip
    d = r.json()
    assert r.status_code == 200
    assert d["tokens"] == ["[CLS]", "by", "the", "river", "bank", "[SEP]"]
    assert d["focus"] == 4 and d["d_k"] == 32 and len(d["narration"]) == 6
    assert d["model"]["layer"] == 0 and d["model"]["head"] == 2
    g = d["grid"]
    rows = unpack(g["rows"])  # (L, H, n)
    assert g["kind"] == "focus" and rows.shape == (6, 12, 6)
    assert rows[0, 2] == pytest.approx(unpack(d["weights"])[4], abs=1e-5)
    assert g["top"][0][2] == 3  # layer 0 head 2: bank looks at river
    assert rows.sum(axis=-1) == pytest.approx(1, abs=1e-3)


def test_trace_full_grid_and_no_grid(client) -> None:
    full = client.get("/api/model/trace", params={"text": "at the savings bank", "grid": "full"})
    assert full.json()["grid"]["attentions"]["shape"] == [6, 12, 6, 6]
    none = client.get("/api/model/trace", params={"text": "at the savings bank", "grid": "none"})
    assert none.json()["grid"] is None


def test_the_model_is_loaded_once(client) -> None:
    client.get("/api/model/trace", params={"text": "one"})
    loads = loaded_model.cache_info().misses  # other tests may have loaded other models
    client.get("/api/model/trace", params={"text": "two"})
    client.get("/api/model/trace", params={"text": "three"})
    assert loaded_model.cache_info().misses == loads  # minilm's weights were not read again


def test_compare_defaults_to_bank_in_river_and_savings(client) -> None:
    d = client.get("/api/model/compare").json()
    assert d["word"] == "bank" and d["a"]["index"] == 4 and d["b"]["index"] == 4
    assert len(d["a"]["rows"]) == 6 and len(d["a"]["rows"][0]) == 12
    assert len(d["a"]["rows"][0][0]) == 6
    cos = d["cosine"]
    assert len(cos) == 7 and cos[0] == pytest.approx(1) and cos[-1] < 0.99
    assert d["cosine_labels"][0] == "embeddings" and "bank" in d["note"]


def test_compare_other_texts(client) -> None:
    params = {"word": "current", "a": "the river current", "b": "the current account is empty"}
    d = client.get("/api/model/compare", params=params).json()
    assert d["a"]["index"] == 3 and d["b"]["index"] == 2


@pytest.mark.parametrize(
    ("path", "params", "field", "message"),
    [
        ("/api/model/trace", {"text": ""}, "text", "the text is empty"),
        ("/api/model/trace", {"text": "bank " * 511}, "text", "513 tokens long"),
        ("/api/model/trace", {"text": "x" * (MAX_TEXT_CHARS + 1)}, "text", "limit"),
        ("/api/model/trace", {"model": "gpt5"}, "model", "unknown model 'gpt5'"),
        ("/api/model/trace", {"model": "/etc"}, "model", "unknown model '/etc'"),
        ("/api/model/trace", {"layer": "6"}, "layer", "layer must be between 0 and 5, got 6"),
        ("/api/model/trace", {"head": "two"}, "head", "head must be a whole number"),
        ("/api/model/trace", {"focus": "money"}, "focus", "'money' is not a token"),
        ("/api/model/trace", {"grid": "huge"}, "grid", "unknown grid 'huge'"),
        ("/api/model/trace", {"mode": "softer"}, "mode", "unknown mode 'softer'"),
        ("/api/model/compare", {"word": "fish"}, "word", "'fish' is not a token of text a"),
        ("/api/model/compare", {"b": "  "}, "b", "the text is empty"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(client, path, params, field, message) -> None:
    r = client.get(path, params=params)
    assert r.status_code == 400, r.text
    assert r.json()["field"] == field and message in r.json()["error"]
    assert client.get("/api/model/trace").status_code == 200  # and the server keeps serving
