"""What every request meets before a route: the server's edge, as one ASGI middleware.

In order, `Edge` refuses

    a Host header that is not a loopback name or the host served   400, field "Host"
    a body longer than ServerOptions.max_body_bytes                 413, field "body"
    a POST, PUT or PATCH whose Content-Type is not application/json 415, field "body"
    a JSON body nested deeper than max_json_depth, or unreadable    400, field "body"

and adds to every answer, refusals included, the headers that keep other sites out: a
Content-Security-Policy allowing this server's own files only (no inline script, no framing),
`X-Content-Type-Options: nosniff` and `Referrer-Policy: no-referrer`. A HEAD request is
answered as its GET without the body. No answer repeats the Host header (the app makes no
redirects), so a rebound DNS name learns nothing and can drive nothing.

Checking the Host is what stops DNS rebinding: a page on another site that makes its own name
resolve to 127.0.0.1 still sends its name as the Host. When the server listens on every
address (0.0.0.0 or ::), a Host that is an IP address or this machine's name is also served.
"""

from __future__ import annotations

import ipaddress
import json
import re
import socket
from collections.abc import Iterable

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from attnlab.web.error_replies import reply
from attnlab.web.server_options import LOOPBACK_HOSTS, ServerOptions

__all__ = ["SECURITY_HEADERS", "Edge", "allowed_hosts", "host_name", "read_body", "too_long"]

SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; "
        "frame-ancestors 'none'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}
_ENCODED = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
_WILDCARDS = ("0.0.0.0", "::", "")
_WITH_BODY = ("POST", "PUT", "PATCH")
_PORT = re.compile(r"[0-9]{1,5}")
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(rb"[\[\]{}]")


def host_name(header: str) -> str | None:
    """The name in a Host header ("[::1]:8000" -> "::1"), or None if it is malformed."""
    header = header.strip().lower()
    if header.startswith("["):
        name, bracket, rest = header[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else None if rest or not bracket else ""
    else:
        name, colon, port = header.partition(":")
        port = port if colon else ""
    if not name or port is None or (port and not _PORT.fullmatch(port)):
        return None
    return name


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def allowed_hosts(served: str) -> frozenset[str]:
    """The Host names the server answers: loopback, the host it serves, and for a wildcard
    host this machine's own name."""
    names = {*LOOPBACK_HOSTS, served.strip("[]").lower()}
    if served in _WILDCARDS:
        names.add(socket.gethostname().lower())
    return frozenset(names - {""})


def _depth(body: bytes, limit: int) -> int:
    """How deep the JSON in `body` nests, counted up to just past `limit`."""
    depth = deepest = 0
    for m in _BRACKET.finditer(_STRING.sub(b"", body)):
        depth += 1 if m.group() in (b"[", b"{") else -1
        deepest = max(deepest, depth)
        if deepest > limit:
            break
    return deepest


class Edge:
    """The checks and headers above, around the whole app."""

    def __init__(self, app: ASGIApp, options: ServerOptions) -> None:
        self.app = app
        self.options = options
        self.hosts = allowed_hosts(options.host)
        self.any_ip = options.host in _WILDCARDS

    def _host_ok(self, header: str | None) -> bool:
        name = host_name(header or "")
        return name is not None and (name in self.hosts or (self.any_ip and _is_ip(name)))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        head = scope["method"] == "HEAD"
        send = _guarded(send, head=head)
        headers = Headers(scope=scope)
        refusal = self._refusal(scope["method"], headers)
        if refusal is None and scope["method"] in _WITH_BODY:
            body, refusal = await self._body(receive)
            if refusal is None:
                receive = _replay(body, receive)
        if refusal is not None:
            await reply(*refusal)(scope, receive, send)
            return
        if head:
            scope = {**scope, "method": "GET"}
        await self.app(scope, receive, send)

    def _refusal(self, method: str, headers: Headers) -> tuple[str, str, int] | None:
        if not self._host_ok(headers.get("host")):
            host = "this server answers only requests addressed to it (the Host header)"
            return host, "Host", 400
        length = headers.get("content-length", "0")
        limit = self.options.max_body_bytes
        if not length.isascii() or not length.isdigit():
            return "the Content-Length header is not a whole number", "body", 400
        if len(length) > 12 or int(length) > limit:
            return too_long(limit), "body", 413
        if method in _WITH_BODY:
            media = headers.get("content-type", "").split(";")[0].strip().lower()
            if media != "application/json":
                shown = repr(media[:40]) if media else "none"
                return f"the body must be sent as application/json, not {shown}", "body", 415
        return None

    async def _body(self, receive: Receive) -> tuple[bytes, tuple[str, str, int] | None]:
        limit = self.options.max_body_bytes
        body = await read_body(receive, limit)
        if body is None:
            return b"", (too_long(limit), "body", 413)
        deepest = _depth(body, self.options.max_json_depth)
        if deepest > self.options.max_json_depth:
            nested = f"the body nests deeper than {self.options.max_json_depth} levels"
            return b"", (nested, "body", 400)
        try:
            json.loads(body) if body.strip() else None
        except ValueError as exc:  # also a number of more digits than Python reads
            return b"", (f"the body is not valid JSON ({str(exc)[:120]})", "body", 400)
        return body, None


async def read_body(receive: Receive, limit: int) -> bytes | None:
    """The request's whole body, or None as soon as it is longer than `limit` bytes (counted as
    it arrives: a chunked body has no Content-Length to refuse it by)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def too_long(limit: int) -> str:
    """The refusal of a body over `limit` bytes (413)."""
    return f"the body is longer than the limit of {limit} bytes"


def _replay(body: bytes, receive: Receive) -> Receive:
    """The body already read, then whatever the client sends next (its disconnect)."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replayed


def _with_security(headers: Iterable[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    names = {name for name, _ in _ENCODED}
    return [(k, v) for k, v in headers if k.lower() not in names] + _ENCODED


def _guarded(send: Send, *, head: bool) -> Send:
    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": _with_security(message.get("headers", []))}
        elif head and message["type"] == "http.response.body":
            message = {**message, "body": b""}
        await send(message)

    return wrapped
