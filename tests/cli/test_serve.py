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
