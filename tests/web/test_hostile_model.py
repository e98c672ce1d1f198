"""`attnlab serve --model PATH` of a hostile folder names the problem and serves on (issue 23):
the page and the known models stay up, the folder is not served."""

import json
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from attnlab.cli.main import main

pytest.importorskip("uvicorn")

_direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # no proxy for loopback


def hostile(root: Path) -> Path:
    """A folder whose shard index points at /etc/passwd."""
    folder = root / "evil"
    folder.mkdir()
    config = {"model_type": "llama", "vocab_size": 8, "hidden_size": 8, "num_hidden_layers": 1,
              "num_attention_heads": 2, "intermediate_size": 16}  # fmt: skip
    (folder / "config.json").write_text(json.dumps(config))
    (folder / "tokenizer.json").write_text("{}")
    index = {"weight_map": {"model.embed_tokens.weight": "../../../../../../etc/passwd"}}
    (folder / "model.safetensors.index.json").write_text(json.dumps(index))
    return folder


def test_serve_names_the_refusal_and_runs_without_the_folder(tmp_path, capsys, monkeypatch):  # type: ignore[no-untyped-def]
    import uvicorn

    runs = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, *a, **k: runs.append(self.config))
    assert main(["serve", "--port", "8124", "--model", str(hostile(tmp_path))]) == 0
    err = capsys.readouterr().err
    assert "not serving the model at" in err and "'../../../../../../etc/passwd'" in err
    assert "outside the folder" in err and "serving the lesson and the known models" in err
    assert len(runs) == 1 and runs[0].app.state.executors.models.folders == ()


def _get(url: str) -> tuple[int, bytes]:
    try:
        with _direct.open(url, timeout=30) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def test_the_real_server_keeps_serving_after_refusing_a_folder(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "attnlab", "serve", "--port", str(port),
           "--model", str(hostile(tmp_path))]  # fmt: skip
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    status, _ = _get(f"{url}/api/presets")
                    break
                except OSError:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        log.seek(0)
                        pytest.fail(f"serve did not start: {log.read().decode()[-2000:]}")
                    time.sleep(0.1)
            assert status == 200
            page, _ = _get(f"{url}/")
            assert page == 200
            status, body = _get(f"{url}/api/model/info?model=evil")
            assert status in (400, 404, 422) and b'"field":"model"' in body
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        log.seek(0)
        said = log.read().decode(errors="replace")
    assert "not serving the model at" in said and "outside the folder" in said
