"""The Real model's extra routes: a layer's heads, token masking, a word's pieces in the trace
answer, Compare contexts' occurrences and shared keys; every number equals the core's."""

import numpy as np
import pytest

from attnlab.encode.packed import unpack
from attnlab.models.compare import compare
from attnlab.models.layer_heads import TOP_KEYS
from attnlab.models.masking import mask_token

pytestmark = pytest.mark.usefixtures("minilm")


def dense(series: dict, n: int) -> np.ndarray:
    """A TopKeys answer back as (..., n, n) weights, 0 where a key was not kept."""
    keys, weights = unpack(series["keys"]).astype(int), unpack(series["weights"])
    out = np.zeros((*keys.shape[:-1], n))
    np.put_along_axis(out, keys, weights, axis=-1)
    return out


def test_heads_are_the_layers_matrices_and_their_means(client, minilm) -> None:
    d = client.get("/api/model/heads", params={"text": "by the river bank", "layer": 2}).json()
    a = minilm.trace("by the river bank").attentions
    assert d["tokens"] == ["[CLS]", "by", "the", "river", "bank", "[SEP]"]
    assert (d["layer"], d["n_layers"], d["n_heads"], d["source"]) == (2, 6, 12, "model")
    assert (d["top"], d["floor"], d["note"]) == (6, 0.0, "")  # 6 tokens: every key, whole
    assert np.allclose(dense(d["heads"], 6), a[2], atol=1e-5)
    assert np.allclose(dense(d["mean_heads"], 6), a[2].mean(0), atol=1e-5)
    assert np.allclose(dense(d["mean_layers"], 6), a.mean((0, 1)), atol=1e-5)
    assert np.allclose(d["heads"]["share"], 1.0)
    w = unpack(d["heads"]["weights"])
    assert (np.diff(w, axis=-1) <= 0).all()  # strongest first


def test_a_long_texts_heads_are_each_rows_strongest_keys_in_a_small_answer(client, minilm) -> None:
    """Bug: at 2,048 SmolLM2 tokens the answer held every head's n × n weights as JSON lists,
    198 MB in 53 s; at 452 MiniLM tokens 12 × 452² rounded numbers, 18.1 MB."""
    text = " ".join(["the old river bank by the mill was quiet"] * 50)
    r = client.get("/api/model/heads", params={"text": text, "layer": 3})
    d = r.json()
    n, h = len(d["tokens"]), d["n_heads"]
    assert n > 400
    assert len(r.content) < 1.4 * (h + 2) * n * TOP_KEYS * 4  # base64 of uint16 pairs, + 40%
    assert len(r.content) < 800_000, len(r.content)
    assert d["top"] == TOP_KEYS
    mt = minilm.trace(text)
    for head in (0, 7):
        w = mt.head(3, head).weights  # (n, n)
        got = dense(d["heads"], n)[head]
        kept = got > 0
        assert np.allclose(got[kept], w[kept], atol=1e-5)
        assert (w[~kept] <= d["floor"] + 1e-6).all()  # every weight of at least 1/16 is drawn
    assert f"Each query row draws only its 16 strongest of {n} keys" in d["note"]
    assert d["mean_layers_max"] == 512 and d["mean_layers"] is not None  # 452 tokens: offered


def test_mask_answers_the_cores_distances(client, minilm) -> None:
    q = {"text": "by the river bank", "focus": "bank", "mask": "river", "how": "mask"}
    d = client.get("/api/model/mask", params=q).json()
    m = mask_token(minilm, minilm.trace(q["text"]), focus=4, word="river", how="mask")
    assert d["edited_tokens"][3] == "[MASK]" and d["target"] == {"text": "river", "pieces": [3]}
    assert np.allclose(d["tv"], m.tv, atol=5e-5) and np.allclose(d["l2"], m.l2, atol=5e-5)
    assert np.allclose(d["cosine_distance"], m.cosine_distance, atol=5e-5)
    assert d["labels"] == ["in", "0", "1", "2", "3", "4", "5"]
    assert "replacing “river” by [MASK]" in d["note"]
    none = client.get("/api/model/mask", params={**q, "how": "none"}).json()
    assert none["target"] is None and set(none["tv_mean"]) == {0} and set(none["l2"]) == {0}


def test_mask_refusals_name_the_field(client) -> None:
    r = client.get("/api/model/mask", params={"text": "by the river bank", "mask": "bank"})
    assert r.status_code == 400 and r.json()["field"] == "mask"
    assert "is the token masked" in r.json()["error"]
    r = client.get("/api/model/mask", params={"text": "by the river bank", "focus": "sea"})
    assert r.status_code == 400 and r.json()["field"] == "focus"


def test_the_trace_answer_says_how_a_word_of_pieces_is_followed(client) -> None:
    q = {"text": "by the riverbank", "focus": "riverbank", "grid": "none"}
    d = client.get("/api/model/trace", params=q).json()
    assert d["focus"] == 4 and d["word"]["pieces"] == [3, 4] and d["word"]["token"] == 4
    assert "follows its last piece, “##bank”" in d["word"]["note"]
    plain = client.get("/api/model/trace", params={**q, "focus": "the"}).json()
    assert plain["word"] is None


def test_compare_takes_an_occurrence_and_sends_a_minus_b(client, minilm) -> None:
    q = {"word": "bank", "a": "the bank by the bank", "b": "at the savings bank"}
    d = client.get("/api/model/compare", params={**q, "occurrence_a": 2}).json()
    assert d["a"]["index"] == 5 and d["a"]["occurrences"] == [2, 5] and d["b"]["pieces"] == [4]
    c = compare(minilm.trace(q["a"]), minilm.trace(q["b"]), "bank", occurrence_a=2)
    s = d["shared"]
    assert s["tokens"] == ["[CLS]", "the", "bank", "[SEP]"] and s["a"] == [0, 1, 2, 6]
    assert np.allclose(s["difference"], c.difference, atol=1e-4)
    r = client.get("/api/model/compare", params={**q, "occurrence_b": 2})
    assert r.status_code == 400 and r.json()["field"] == "occurrence_b"


@pytest.mark.parametrize("field", ["mask", "focus"])
def test_a_position_of_thousands_of_digits_is_a_400_naming_its_field(client, field) -> None:
    """Bug: mask=<24,000 digits> answered 500, "Exceeds the limit (4300 digits) for integer
    string conversion": the parameter was read as a number before any bound was checked."""
    q = {"text": "by the river bank", "focus": "bank", "mask": "river", field: "7" * 24_000}
    r = client.get("/api/model/mask", params=q)
    assert r.status_code == 400, r.text[:200]
    assert r.json()["field"] == field and "far outside any text" in r.json()["error"]


def test_the_mask_answer_sends_the_edited_text_and_small_distances_unrounded(
    client, minilm
) -> None:
    """Bug (issue 22): the distances crossed rounded to 4 places (a vector change of 0.00016
    became 0.0002, a smaller one 0) under a panel that says 0 means nothing moved."""
    q = {"text": "A riverbank by the road.", "focus": "road", "mask": "riverbank", "how": "mask"}
    d = client.get("/api/model/mask", params=q).json()
    assert d["edited_text"] == "A [MASK][MASK] by the road."
    base = minilm.trace(q["text"])
    m = mask_token(minilm, base, focus=base.focus_index("road"), word="riverbank", how="mask")
    pairs = [
        (d["cosine_distance"], m.cosine_distance, 1e-10),
        (d["l2"], m.l2, 1e-6),
        (d["tv"], m.tv, 1e-6),
        (d["target_weight"], m.target_weight, 1e-6),
    ]
    for sent, core, noise in pairs:
        assert np.allclose(sent, core, rtol=1e-5, atol=noise)  # 4 places: 0.00016 sent as 0.0002
        assert ((np.asarray(sent) > 0) == (np.asarray(core) >= noise)).all()  # non-zero stays


def test_compares_a_minus_b_is_the_difference_of_the_rows_as_sent(client) -> None:
    """Bug (issue 22): "light 0.02 0.02 -0.01": A − B was the exact difference rounded, so it
    disagreed with the A and B beside it; now it is A − B of the rows as sent, to the digit."""
    a_text, b_text = "Turn on the light in the kitchen", "The box was light enough to carry"
    q = {"word": "light", "a": a_text, "b": b_text}
    d = client.get("/api/model/compare", params=q).json()
    s = d["shared"]
    a = np.asarray(d["a"]["rows"])[..., s["a"]]  # (L, H, S)
    b = np.asarray(d["b"]["rows"])[..., s["b"]]
    assert np.array_equal(np.asarray(s["difference"]), np.round(a - b, 4))
