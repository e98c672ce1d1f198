"""`attnlab serve`: a bad port is one line and exit 2; the printed address is one a browser
opens; a host other than loopback is announced as reachable from the network."""

import pytest

from attnlab.cli.main import main
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
    assert app.serve_url(host, 8000) == url


@pytest.fixture
def no_uvicorn(monkeypatch):
    import uvicorn

    runs = []
    monkeypatch.setattr(uvicorn, "run", lambda asgi, **kw: runs.append((asgi, kw)))
    return runs


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.5", "attnlab.lan"])
def test_a_host_beyond_loopback_warns_that_the_network_can_reach_it(capsys, no_uvicorn, host):
    assert main(["serve", "--host", host, "--port", "8123"]) == 0
    out = capsys.readouterr().out
    assert "warning" in out and "anyone on your network" in out
    assert app.serve_url(host, 8123) in out and (host != "::" or "http://[::]:8123/" in out)
    asgi, kw = no_uvicorn[0]
    assert kw["host"] == host and kw["port"] == 8123
    assert asgi.state.options.host == host  # the allowlist takes the host served


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "127.0.0.2"])
def test_a_loopback_host_has_no_warning(capsys, no_uvicorn, host) -> None:
    assert main(["serve", "--host", host]) == 0
    out = capsys.readouterr().out
    assert "warning" not in out and "the lesson is at" in out
