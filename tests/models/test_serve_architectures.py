"""`attnlab serve --model PATH` serves every architecture (issue 23's "Done when"): one tiny
folder each, saved by transformers with the parity tests' builders, served as `serve` does
(`serve_folder` first, then the app with those folders: its models' worker loads them again),
and one head view asked of each through the model routes: a 200, the tokenizer's own token
count, every row of the head's weights summing to 1, the causal mask where the model has one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
import test_encoders_parity as encoders
import test_spec_parity as decoders

from attnlab.encode.packed import unpack
from attnlab.models.kept import NAMES, SERVED, serve_folder
from attnlab.models.registry import ARCHITECTURES

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
pytest.importorskip("fastapi")

pytestmark = [
    pytest.mark.torch,
    pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::FutureWarning"),
]

DECODERS = tuple(
    decoders.CASES
)  # gpt2, llama, mistral, qwen2, qwen3, gemma, gemma2, gemma3_text, phi3
ENCODERS = ("bert", "distilbert", "roberta")
DECODER_TEXT = "t5 t17 t3 t99 t42 t8 t61"  # one WordLevel token a word
ENCODER_FOCUS = {"bert": "bank", "distilbert": "bank", "roberta": "bank"}  # RoBERTa: " bank"


def _decoder(arch: str, folder: Path, *, seed: int = 0) -> None:
    torch.manual_seed(seed)
    config = transformers.AutoConfig.for_model(arch, **decoders.CASES[arch])
    model = transformers.AutoModelForCausalLM.from_config(config, attn_implementation="eager")
    decoders._peaked(model.float().eval())
    model.save_pretrained(folder)
    decoders._tokenizer(folder)


def _default_ids(folder: Path, text: str, *, causal: bool) -> list[int]:
    """The tokenizer's default call: the encoders' saved tokenizer classes; the decoders' folders
    hold tokenizer.json alone (AutoTokenizer would pick a class by model_type that wants files
    they lack), read by transformers' fast tokenizer over that file."""
    if causal:
        fast = transformers.PreTrainedTokenizerFast(tokenizer_file=str(folder / "tokenizer.json"))
        return list(fast(text)["input_ids"])
    return list(transformers.AutoTokenizer.from_pretrained(folder)(text)["input_ids"])


def test_every_architecture_is_one_the_builders_cover() -> None:
    """The list below is every architecture the registry reads, so none goes unserved."""
    assert set(DECODERS) | set(ENCODERS) == set(ARCHITECTURES)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[object, dict[str, Path]]]:
    from starlette.testclient import TestClient

    from attnlab.web.app import create_app

    root = tmp_path_factory.mktemp("served")
    folders = {}
    for arch in DECODERS + ENCODERS:
        folder = folders[arch] = root / arch
        if arch in ENCODERS:
            encoders.encoder(arch, folder)
        else:
            _decoder(arch, folder)
    try:
        names = [serve_folder(str(f)) for f in folders.values()]  # `serve` loads each first
        assert names == list(folders)  # each served by its folder's name
        app = create_app(None, tuple(str(f) for f in folders.values()))
        with TestClient(app, base_url="http://127.0.0.1") as client:
            yield client, folders
    finally:
        for name in folders:
            SERVED.pop(name, None)
            if name in NAMES:
                NAMES.remove(name)


@pytest.mark.parametrize("arch", DECODERS + ENCODERS)
def test_serve_answers_a_head_view_of_each_architecture(served, arch: str) -> None:  # type: ignore[no-untyped-def]
    client, folders = served
    info = client.get("/api/model/info", params={"model": arch})
    assert info.status_code == 200, info.text
    info = info.json()
    assert arch in info["known_models"]
    layer, head = info["n_layers"] - 1, info["n_heads"] - 1  # the last: every index is read
    causal = arch in DECODERS
    if causal:
        text, focus = DECODER_TEXT, "t99"
    else:
        text, focus = encoders.TEXTS[arch], ENCODER_FOCUS[arch]
    expected = _default_ids(folders[arch], text, causal=causal)
    params = {"model": arch, "text": text, "layer": layer, "head": head, "focus": focus,
              "grid": "none"}  # fmt: skip
    r = client.get("/api/model/trace", params=params)
    assert r.status_code == 200, r.text
    d = r.json()
    n = len(expected)
    assert len(d["tokens"]) == n
    assert d["tokens"][d["focus"]].strip() == focus
    w = unpack(d["weights"])  # (n, n)
    assert w.shape == (n, n)
    np.testing.assert_allclose(w.sum(axis=-1), 1.0, atol=1e-5)
    if causal:
        assert (np.triu(w, 1) == 0).all()  # no token sees a later one
    else:
        assert (np.triu(w, 1) > 0).any()  # an encoder's rows read later tokens too


def test_a_roberta_folders_widget_names_its_own_start_and_end_tokens(served) -> None:  # type: ignore[no-untyped-def]
    """RoBERTa's text help (the widget's, and the offline file's through the same words) names
    <s> and </s>, never BERT's [CLS] and [SEP] (it was the page's BERT sentence)."""
    import attnlab

    pytest.importorskip("anywidget")
    _, folders = served
    model = attnlab.load_model(folders["roberta"])
    w = attnlab.show(model.trace(encoders.TEXTS["roberta"]))
    words = (w.words["model.text_help"], w.words["model.matrix.specials"])
    assert all("[CLS]" not in s and "[SEP]" not in s for s in words), words
    assert "<s> and </s>" in w.words["model.text_help"]


def test_two_folders_of_one_name_are_both_served(tmp_path: Path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    """Bug: `serve --model a/tiny --model b/tiny` (two copies of a folder, or two tiny folders of
    one architecture) registered both as "tiny", the second over the first, in the Model menu and
    the registry. Each now gets a name of its own, said at start-up, and each answers through the
    API with its own folder's numbers."""
    import uvicorn
    from starlette.testclient import TestClient

    from attnlab.cli.main import main
    from attnlab.models.registry import load_model

    first, second = tmp_path / "a" / "tiny", tmp_path / "b" / "tiny"
    _decoder("llama", first, seed=0)
    _decoder("llama", second, seed=1)  # one architecture, one config, other weights
    runs: list[uvicorn.Config] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, *a, **k: runs.append(self.config))
    try:
        assert main(["serve", "--port", "0", "--model", str(first), "--model", str(second)]) == 0
        out = capsys.readouterr().out
        assert f"serving the model at {str(first)!r} as 'tiny'" in out
        assert f"serving the model at {str(second)!r} as 'tiny-2'" in out
        assert "'tiny' is taken" in out, out  # the user is told why the name has a number
        assert SERVED["tiny"] == str(first) and SERVED["tiny-2"] == str(second)
        with TestClient(runs[0].app, base_url="http://127.0.0.1") as client:  # its own worker
            info = client.get("/api/model/info", params={"model": "tiny-2"})
            assert info.status_code == 200, info.text
            assert {"tiny", "tiny-2"} <= set(info.json()["known_models"])
            weights = {}
            for name, folder in (("tiny", first), ("tiny-2", second)):
                params = {"model": name, "text": DECODER_TEXT, "layer": 0, "head": 0,
                          "focus": "t99", "grid": "none"}  # fmt: skip
                r = client.get("/api/model/trace", params=params)
                assert r.status_code == 200, r.text
                weights[name] = unpack(r.json()["weights"])  # (n, n)
                own = load_model(str(folder)).trace(DECODER_TEXT).head(0, 0).weights
                np.testing.assert_allclose(weights[name], own, atol=1e-6)  # its own folder's
        assert np.abs(weights["tiny"] - weights["tiny-2"]).max() > 1e-3  # two models, not one
        assert serve_folder(f"{first}/.") == "tiny" and "tiny-3" not in SERVED  # one path, once
    finally:
        for name in ("tiny", "tiny-2"):
            SERVED.pop(name, None)
            if name in NAMES:
                NAMES.remove(name)
