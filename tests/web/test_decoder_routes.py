"""SmolLM2 through the API: a causal head, the 2,048-token limit, a folder served by name."""

import pytest
from contract_check import ContractClient

from attnlab.encode.packed import unpack
from attnlab.models.kept import NAMES, SERVED, serve_folder

pytestmark = pytest.mark.usefixtures("smollm2")


def test_info_and_a_causal_head(client) -> None:
    info = client.get("/api/model/info", params={"model": "smollm2"}).json()
    assert (info["n_layers"], info["n_heads"], info["d_k"], info["max_tokens"]) == (30, 9, 64, 2048)
    params = {"model": "smollm2", "text": "The river bank was muddy.", "layer": 2, "head": 4,
              "focus": "bank", "grid": "none"}  # fmt: skip
    d = client.get("/api/model/trace", params=params).json()
    assert d["tokens"][:3] == ["The", " river", " bank"] and d["focus"] == 2
    w = unpack(d["weights"])  # the answer's arrays are packed (encode/packed.py)
    assert (w[2, 3:] == 0).all()  # bank sees nothing later
    assert w[2].sum() == pytest.approx(1, abs=1e-5)


def test_an_over_long_text_is_a_400_with_the_limit(client) -> None:
    r = client.get("/api/model/trace", params={"model": "smollm2", "text": "7 " * 1100})
    assert r.status_code == 400
    assert r.json()["field"] == "text"
    assert "the limit for smollm2 is 2048 tokens" in r.json()["error"]


def test_a_served_folder_is_asked_for_by_name_and_a_path_never(client, tmp_path) -> None:  # type: ignore[no-untyped-def]
    r = client.get("/api/model/info", params={"model": str(tmp_path)})
    assert r.status_code == 400 and "unknown model" in r.json()["error"]
    from attnlab.models import model_folder

    gguf = model_folder("smollm2")[1]
    (tmp_path / "mini.gguf").symlink_to(gguf)
    try:
        name = serve_folder(str(tmp_path / "mini.gguf"))  # as `serve --model` does first
        assert name == "mini"
        served = ContractClient(folders=(str(tmp_path / "mini.gguf"),))  # its models' worker too
        info = served.get("/api/model/info", params={"model": "mini"}).json()
        assert info["model"] == "mini" and "mini" in info["known_models"]
        assert info["n_layers"] == 30
    finally:
        SERVED.pop("mini", None)
        if "mini" in NAMES:
            NAMES.remove("mini")


def test_the_page_keeps_a_texts_leading_spaces_as_the_tokenizer_and_the_cli_do(client) -> None:
    """SmolLM2 reads "    by the river" with its spaces as tokens of their own; the API stripped
    the text first, so the page's #1705 was the terminal's 1706. The API's ids are the
    tokenizer's default call on the text as typed, as `attnlab explain` and the Python API are."""
    from attnlab.models import load_model

    text = "    by the river bank"
    d = client.get(
        "/api/model/trace", params={"model": "smollm2", "text": text, "grid": "none"}
    ).json()
    mt = load_model("smollm2").trace(text)
    assert d["window"]["all_tokens"] == list(mt.tokens)
    assert (
        d["window"]["n"] == len(mt.tokens) > len(load_model("smollm2").trace(text.strip()).tokens)
    )
