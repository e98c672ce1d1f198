"""`attnlab serve`: a bad port is one line and exit 2; the printed address is one a browser
opens; a host other than loopback is announced as reachable from the network."""

import pytest

from attnlab.cli.main import main
from attnlab.cli.serve import serve_url
from attnlab.web import app


@pytest.mark.parametrize("port", ["99999", "-1", "65536"])
def test_a_port_out_of_range_is_one_line_and_exit_2(capsys, port) -> None:
    """Bug: --port 99999 ended in OverflowError's traceback."""
    assert main(["serve", "--port", port]) == 2
    err = capsys.readouterr().err
    assert err == f"attnlab: --port must be between 0 and 65535, got {port}\n"


@pytest.mark.parametrize(
    ("host", "url"),
    [("::", "http://[::]:8000/"), ("::1", "http://[::1]:8000/"), ("[::1]", "http://[::1]:8000/"),
     ("0.0.0.0", "http://0.0.0.0:8000/"), ("localhost", "http://localhost:8000/")],
)  # fmt: skip
def test_the_url_brackets_an_ipv6_host(host, url) -> None:
    """Bug: --host :: printed http://:::8000/."""
    assert serve_url(host, 8000) == url


@pytest.fixture
def no_uvicorn(monkeypatch):
    import uvicorn

    runs = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, *a, **k: runs.append(self.config))
    return runs


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.5", "attnlab.lan"])
def test_a_host_beyond_loopback_warns_that_the_network_can_reach_it(capsys, no_uvicorn, host):
    assert main(["serve", "--host", host, "--port", "8123"]) == 0
    out = capsys.readouterr().out
    assert "warning" in out and "anyone on your network" in out
    assert serve_url(host, 8123) in out and (host != "::" or "http://[::]:8123/" in out)
    config = no_uvicorn[0]
    assert config.host == host and config.port == 8123
    assert config.app.state.options.host == host  # the allowlist takes the host served


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "127.0.0.2"])
def test_a_loopback_host_has_no_warning(capsys, no_uvicorn, host) -> None:
    assert main(["serve", "--host", host]) == 0
    out = capsys.readouterr().out
    assert "warning" not in out and "the lesson is at" in out


def test_a_text_at_the_limit_in_any_script_reaches_the_api_message() -> None:
    """Bug: uvicorn reads 16 KB of request head by default, so a 24,000-character text of
    non-ASCII letters (216 KB percent-encoded) got a bare 'Invalid HTTP request received.' and a
    dropped connection instead of the API's message naming the limit."""
    import socket
    import threading
    import time
    import urllib.parse

    import uvicorn

    from attnlab.web.requests_model import MAX_TEXT_CHARS

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(app.uvicorn_config(app.create_app()))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        text = urllib.parse.quote("银" * (MAX_TEXT_CHARS + 1))  # 3 UTF-8 bytes, 9 characters each
        request = f"GET /api/model/info?model={text} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        with socket.create_connection(sock.getsockname()) as c:
            c.sendall((request + "Connection: close\r\n\r\n").encode())
            answer = b""
            while chunk := c.recv(65536):
                answer += chunk
    finally:
        server.should_exit = True
        thread.join(30)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400"), head[:80]
    assert b'"field":"model"' in body and b"Invalid HTTP request" not in body


def test_serve_atlas_serves_each_atlas_and_names_a_file_that_is_not_one(
    capsys, no_uvicorn, tmp_path
) -> None:
    pytest.importorskip("pyarrow")
    good = tmp_path / "mine.parquet"
    text = tmp_path / "c.txt"
    text.write_text("a b c a b c\n\nthe cat sat\n", encoding="utf-8")
    assert main(["atlas", str(text), "--model", "patterns", "-o", str(good),
                 "--scheduler", "none"]) == 0  # fmt: skip
    bad = tmp_path / "notes.parquet"
    bad.write_text("no")
    capsys.readouterr()
    assert main(["serve", "--atlas", str(good), "--atlas", str(bad)]) == 0
    said = capsys.readouterr()
    assert f"serving the atlas {str(good)!r} in the Head atlas tab" in said.out
    assert f"not serving the atlas {str(bad)!r}" in said.err and "not a Parquet file" in said.err
    app = no_uvicorn[0].app
    assert list(app.state.atlases) == ["mine"]


def _tiny_gpt2(folder) -> None:
    """A tiny GPT-2 saved by transformers, with a WordLevel tokenizer.json."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from tokenizers import Tokenizer, models, pre_tokenizers

    torch.manual_seed(0)
    config = transformers.GPT2Config(vocab_size=32, n_embd=16, n_layer=1, n_head=2, n_positions=16)
    transformers.GPT2LMHeadModel(config).save_pretrained(folder)
    tok = Tokenizer(models.WordLevel({f"t{i}": i for i in range(32)}, unk_token="t0"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.save(str(folder / "tokenizer.json"))


@pytest.mark.torch
def test_every_model_folder_given_is_served(tmp_path, capsys, no_uvicorn) -> None:
    """Bug: `serve --model A --model B --model C` kept the last folder only, the others dropped
    without a word; a bad folder among them is named and the good ones served all the same."""
    from attnlab.models.kept import SERVED

    folders = [tmp_path / name for name in ("tiny-a", "tiny-b", "tiny-c")]
    for folder in folders:
        _tiny_gpt2(folder)
    missing = tmp_path / "not-there"
    args = ["serve", "--port", "0"]
    for f in [*folders, missing]:
        args += ["--model", str(f)]
    assert main(args) == 0
    out, err = capsys.readouterr()
    for f in folders:
        assert f"serving the model at {str(f)!r} as {f.name!r}" in out
        assert SERVED[f.name] == str(f)
    assert f"not serving the model at {str(missing)!r}" in err
    executors = no_uvicorn[0].app.state.executors
    assert executors.models.folders == tuple(str(f) for f in folders)  # its worker loads each


def test_serve_help_says_model_can_be_repeated(capsys) -> None:
    assert main(["serve", "--help"]) == 0
    assert "repeatable: --model A --model B serves both" in " ".join(
        capsys.readouterr().out.split()
    )


def test_a_port_in_use_is_refused_before_the_address_is_printed(capsys, no_uvicorn) -> None:
    """Bug: on a busy port `serve` printed "the lesson is at http://127.0.0.1:PORT/" and then
    uvicorn's "[Errno 98] address already in use"."""
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    out, err = capsys.readouterr()
    assert "the lesson is at" not in out and not no_uvicorn
    assert f"port {port} on 127.0.0.1 is already in use" in err and "--port" in err
