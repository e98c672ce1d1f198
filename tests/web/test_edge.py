"""The edge (edge.py): Host allowlist, body limits, JSON only, security headers, HEAD."""

import json

import pytest
from contract_check import ContractClient

from attnlab.web.app import ServerOptions
from attnlab.web.edge import SECURITY_HEADERS, allowed_hosts, host_name

JSON = {"content-type": "application/json"}


@pytest.mark.parametrize(
    ("header", "name"),
    [("127.0.0.1:8000", "127.0.0.1"), ("localhost", "localhost"), ("[::1]:9", "::1"),
     ("LocalHost:1", "localhost"), ("[::1", None), ("localhost:abc", None), ("", None),
     (":80", None), ("a:1:2", None)],
)  # fmt: skip
def test_host_name(header, name) -> None:
    assert host_name(header) == name


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost", "localhost:1", "[::1]:8000"])
def test_loopback_hosts_are_served(client, host) -> None:
    assert client.get("/api/presets", headers={"host": host}).status_code == 200


@pytest.mark.parametrize(
    "host", ["evil.example", "127.0.0.1.evil.example", "localhost.evil.example:80", "10.0.0.5"]
)
def test_other_hosts_are_refused_without_repeating_them(client, host) -> None:
    """DNS rebinding: a page whose own name resolves to 127.0.0.1 still sends that name."""
    for path in ("/", "/api/presets", "/api/lesson/", "/static/app.js", "/openapi.json"):
        r = client.http.get(path, headers={"host": host}, follow_redirects=False)
        assert r.status_code == 400, (path, r.status_code)
        assert r.json() == {
            "error": "this server answers only requests addressed to it (the Host header)",
            "field": "Host",
        }
        assert host.split(":")[0] not in r.text + str(r.headers)


def test_the_served_host_is_allowed_and_a_wildcard_allows_ip_addresses() -> None:
    named = ContractClient(ServerOptions(host="attnlab.lan"))
    assert named.get("/api/lab", headers={"host": "attnlab.lan:8000"}).status_code == 200
    assert named.get("/api/lab", headers={"host": "10.0.0.5"}).status_code == 400
    every = ContractClient(ServerOptions(host="0.0.0.0"))
    assert every.get("/api/lab", headers={"host": "10.0.0.5:8000"}).status_code == 200
    assert every.get("/api/lab", headers={"host": "[fe80::1]:8000"}).status_code == 200
    assert every.get("/api/lab", headers={"host": "evil.example"}).status_code == 400
    assert {"127.0.0.1", "localhost", "::1"} <= allowed_hosts("::")


def test_no_redirect_reflects_the_host(client) -> None:
    """Bug: /api/lesson/ answered 307 with Location: http://<the Host header>/api/lesson."""
    r = client.get("/api/lesson/", follow_redirects=False)
    assert r.status_code == 404 and "location" not in r.headers


@pytest.mark.parametrize(
    ("method", "path", "kwargs", "status"),
    [("get", "/", {}, 200), ("get", "/static/app.js", {}, 200), ("get", "/api/presets", {}, 200),
     ("get", "/api/lesson", {"params": {"mode": "x"}}, 400), ("get", "/nowhere", {}, 404),
     ("post", "/api/presets", {"json": {}}, 405), ("post", "/api/lesson", {"content": "{}"}, 415),
     ("get", "/openapi.json", {}, 200)],
)  # fmt: skip
def test_every_answer_carries_the_security_headers(client, method, path, kwargs, status) -> None:
    r = getattr(client.http, method)(path, **kwargs)
    assert r.status_code == status
    for name, value in SECURITY_HEADERS.items():
        assert r.headers[name] == value
    csp = r.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp


def test_the_page_has_no_inline_script_or_style(client) -> None:
    page = client.get("/").text
    assert "<script>" not in page and "<style" not in page and " style=" not in page
    assert page.count("<script") == page.count('<script type="module" src="/static/')


def test_no_page_script_writes_a_style_attribute() -> None:
    """Bug: the grouped-query labels of the SmolLM2 grid were built with h(..., {style: ...}); the
    CSP (no 'unsafe-inline') blocked it, so the labels lost their span and the console filled with
    errors. Styles set through the CSSOM (el.style.x = ...) are allowed and are the way."""
    import re
    from importlib import resources

    static = resources.files("attnlab") / "static"
    pattern = re.compile(r"""\bstyle:\s*[`'"]|setAttribute\(\s*["']style|\sstyle=["']""")
    found = [
        f"{entry.name}: {m.group(0)}"
        for entry in static.iterdir()
        if entry.name.endswith((".js", ".mjs", ".html"))
        for m in pattern.finditer(entry.read_text())
    ]
    assert found == []


@pytest.mark.parametrize("size", [64 * 1024 + 1, 10 * 1024 * 1024])
def test_a_body_over_the_limit_is_413(client, size) -> None:
    """Bug: a 50 MB body was read whole (+256 MB RSS)."""
    body = b'{"sentence": "' + b"a" * size + b'"}'
    r = client.post("/api/lesson", content=body, headers=JSON)
    assert r.status_code == 413
    assert r.json() == {
        "error": "the body is longer than the limit of 65536 bytes",
        "field": "body",
    }


def test_a_streamed_body_over_the_limit_is_413(client) -> None:
    """No Content-Length: the edge counts the chunks as they come."""
    chunks = (b" " * 4096 for _ in range(20))
    r = client.post("/api/lesson", content=chunks, headers=JSON)
    assert r.status_code == 413 and r.json()["field"] == "body"


def test_a_body_under_the_limit_is_served(client) -> None:
    body = json.dumps({"sentence": "by the river bank", "mode": "uniform"}) + " " * 60_000
    assert client.post("/api/lesson", content=body, headers=JSON).status_code == 200


@pytest.mark.parametrize(
    ("headers", "shown"),
    [({"content-type": "text/plain"}, "'text/plain'"),
     ({"content-type": "application/x-www-form-urlencoded"}, "'application/x-www-form-urlencoded'"),
     ({"content-type": "multipart/form-data; boundary=x"}, "'multipart/form-data'"), ({}, "none")],
)  # fmt: skip
def test_a_post_that_is_not_json_is_415(client, headers, shown) -> None:
    """Bug: a text/plain POST (a cross-site form, no CORS preflight) was parsed as JSON."""
    r = client.post("/api/lesson", content=b'{"sentence": "by the river bank"}', headers=headers)
    assert r.status_code == 415
    assert r.json() == {
        "error": f"the body must be sent as application/json, not {shown}",
        "field": "body",
    }


def test_json_with_a_charset_is_json(client) -> None:
    headers = {"content-type": "application/json; charset=utf-8"}
    assert client.post("/api/lesson", content=b"{}", headers=headers).status_code == 200


@pytest.mark.parametrize("body", ["[" * 1000 + "]" * 1000, '{"a":' * 1000 + "1" + "}" * 1000,
                                  '{"edits": ' + "[" * 33 + "]" * 33 + "}"])  # fmt: skip
def test_json_nested_too_deep_is_400(client, body) -> None:
    """Bug: 1,000 levels raised RecursionError past the guard."""
    r = client.post("/api/lesson", content=body, headers=JSON)
    assert r.status_code == 400
    assert r.json() == {"error": "the body nests deeper than 32 levels", "field": "body"}


def test_brackets_inside_strings_do_not_count(client) -> None:
    body = json.dumps({"sentence": "[" * 500, "mode": "uniform"})
    r = client.post("/api/lesson", content=body, headers=JSON)
    assert r.status_code == 400 and r.json()["field"] == "sentence"  # refused for its words


def test_head_is_get_without_the_body(client) -> None:
    get, head = client.http.get("/api/presets"), client.http.head("/api/presets")
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-length"] == get.headers["content-length"]
    assert client.http.head("/").status_code == 200
    assert client.http.head("/api/lesson", params={"mode": "x"}).status_code == 400
