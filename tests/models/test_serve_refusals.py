"""What attnlab cannot run yet, refused through `attnlab serve --model PATH` by name, with the list
of what it can (issue 23, item 2): a mixture of experts, a RoPE scaling not listed, a model_type
no reader names. Each folder is a real one saved by transformers, its config.json then edited as
such a checkpoint's would read; `serve` prints the refusal and serves on without the folder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import test_spec_parity as decoders

from attnlab.cli.main import main

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
pytest.importorskip("uvicorn")

pytestmark = [
    pytest.mark.torch,
    pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::FutureWarning"),
]

READERS = "gpt2, llama, mistral, qwen2, qwen3, gemma, gemma2, gemma3_text, phi3"


@pytest.fixture(scope="module")
def mistral(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A tiny Mistral folder saved by transformers: its files, to copy and edit."""
    folder = tmp_path_factory.mktemp("mistral")
    config = transformers.AutoConfig.for_model("mistral", **decoders.CASES["mistral"])
    transformers.AutoModelForCausalLM.from_config(config).save_pretrained(folder)
    decoders._tokenizer(folder)
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def edited(files: dict[str, Any], root: Path, name: str, **changes: Any) -> Path:
    folder = root / name
    folder.mkdir()
    for file, data in files.items():
        (folder / file).write_bytes(data)
    config = json.loads((folder / "config.json").read_text())
    config.update(changes)
    (folder / "config.json").write_text(json.dumps(config))
    return folder


def served(folder: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    """What `attnlab serve --model folder` says on stderr; the app it starts serves no folder."""
    import uvicorn

    runs: list[Any] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, *a, **k: runs.append(self.config))
    assert main(["serve", "--port", "8125", "--model", str(folder)]) == 0
    err = capsys.readouterr().err
    assert "not serving the model at" in err and "serving the lesson and the known models" in err
    assert len(runs) == 1 and runs[0].app.state.executors.models.folders == ()
    return err


def test_the_unedited_folder_is_served(mistral, tmp_path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The control: the same files without the edit are served, so each refusal below is the
    edit's."""
    import uvicorn

    from attnlab.models.kept import NAMES, SERVED

    monkeypatch.setattr(uvicorn.Server, "run", lambda self, *a, **k: None)
    try:
        assert (
            main(["serve", "--port", "8125", "--model", str(edited(mistral, tmp_path, "ok"))]) == 0
        )
        assert "serving the model at" in capsys.readouterr().out
    finally:
        SERVED.pop("ok", None)
        if "ok" in NAMES:
            NAMES.remove("ok")


def test_a_mixture_of_experts_is_refused_by_name(mistral, tmp_path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    folder = edited(mistral, tmp_path, "moe", num_local_experts=8, num_experts_per_tok=2)
    err = served(folder, capsys, monkeypatch)
    assert "num_local_experts is 8: a mixture of experts" in err
    assert READERS in err  # what it runs instead


def test_an_unlisted_rope_scaling_is_refused_with_the_supported(
    mistral, tmp_path, capsys, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    rope = {"rope_type": "yarn", "rope_theta": 10000.0, "factor": 4.0,
            "original_max_position_embeddings": 16}  # fmt: skip
    folder = edited(mistral, tmp_path, "yarn", rope_parameters=rope, rope_scaling=rope)
    err = served(folder, capsys, monkeypatch)
    assert "RoPE type 'yarn' is not supported; supported: default, linear, llama3" in err


def test_an_unknown_model_type_is_refused_with_the_supported(
    mistral, tmp_path, capsys, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    folder = edited(mistral, tmp_path, "mixtral", model_type="mixtral", num_local_experts=8)
    err = served(folder, capsys, monkeypatch)
    assert "model_type 'mixtral', an architecture attnlab cannot run yet" in err
    for arch in [*READERS.split(", "), "bert", "distilbert", "roberta"]:
        assert repr(arch) in err


def test_a_page_asking_for_a_refused_folder_hears_why(
    mistral, tmp_path, capsys, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    """`/?view=model&model.name=moe` after `serve --model .../moe` refused it: the page said only
    "unknown model 'moe'", the reason left in the server's terminal. The API names the folder
    and the reason."""
    from fastapi.testclient import TestClient

    from attnlab.models.kept import REFUSED
    from attnlab.web.app import create_app

    folder = edited(mistral, tmp_path, "moe", num_local_experts=8, num_experts_per_tok=2)
    try:
        served(folder, capsys, monkeypatch)
        app = create_app()
        try:
            client = TestClient(app, base_url="http://127.0.0.1")
            r = client.get("/api/model/trace", params={"model": "moe", "text": "t1 t2"})
        finally:
            app.state.executors.close()
        assert r.status_code == 400
        error = r.json()["error"]
        assert f"the server refused the folder at {str(folder)!r}" in error
        assert "num_local_experts is 8: a mixture of experts" in error
    finally:
        REFUSED.pop("moe", None)
