"""The web tests' client: every answer it receives is checked against the live /openapi.json.

`ContractClient` wraps Starlette's TestClient over the real app. Each response is matched to its
route and status in the app's own OpenAPI document (an exact status, else its range such as
"4XX"), its media type must be one the route declares, and a JSON body is validated by a real
JSON Schema validator (Draft 2020-12, the dialect of OpenAPI 3.1) against that response's
schema, with the document's components to resolve references. A path that is no route must
answer the declared error shape. Every test in tests/web asks through the `client` fixture.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
from jsonschema import Draft202012Validator
from starlette.testclient import TestClient

from attnlab.web.app import ServerOptions, create_app


def _operation(doc: dict[str, Any], method: str, path: str) -> dict[str, Any] | None:
    for template, ops in doc["paths"].items():
        pattern = re.sub(r"\\\{[^}]+\\\}", ".+", re.escape(template))
        if re.fullmatch(pattern, path) and method in ops:
            return ops[method]
    return None


def _declared(responses: dict[str, Any], status: int) -> dict[str, Any]:
    for key in (str(status), f"{status // 100}XX", "default"):
        if key in responses:
            return responses[key]
    raise AssertionError(f"status {status} is not declared (declared: {sorted(responses)})")


def check_response(doc: dict[str, Any], response: httpx.Response) -> None:
    """Fail unless `response` is what `doc` declares for its route and status."""
    method, path = response.request.method.lower(), response.request.url.path
    media = response.headers.get("content-type", "").split(";")[0].strip()
    op = _operation(doc, method, path)
    if op is None:  # no such route: the error shape, like every refusal
        assert response.status_code in (404, 405), (path, response.status_code)
        schema: dict[str, Any] = {"$ref": "#/components/schemas/ErrorAnswer"}
    else:
        content = _declared(op["responses"], response.status_code).get("content", {})
        assert media in content, f"{method} {path}: {media} not in {sorted(content)}"
        schema = content[media].get("schema", {})
    if media == "application/json":
        validator = Draft202012Validator({**schema, "components": doc["components"]})
        errors = sorted(validator.iter_errors(response.json()), key=lambda e: list(e.path))
        assert not errors, f"{method} {path} {response.status_code}: " + "; ".join(
            f"{list(e.path)[:6]}: {e.message[:200]}" for e in errors[:5]
        )


class ContractClient:
    """TestClient's get and post, each answer checked against the app's /openapi.json."""

    def __init__(
        self,
        server: ServerOptions | None = None,
        folders: tuple[str, ...] = (),
        atlases: tuple[str, ...] = (),
        **options: Any,
    ) -> None:
        options.setdefault("base_url", "http://127.0.0.1")
        self.app = create_app(server, folders, atlases)
        self.http = TestClient(self.app, **options)
        self.doc: dict[str, Any] = self.http.get("/openapi.json").json()
        self.checked = 0

    def _checked(self, response: httpx.Response) -> httpx.Response:
        check_response(self.doc, response)
        self.checked += 1
        return response

    def get(self, url: str, **kwargs: Any) -> httpx.Response:
        return self._checked(self.http.get(url, **kwargs))

    def post(self, url: str, **kwargs: Any) -> httpx.Response:
        return self._checked(self.http.post(url, **kwargs))

    def request(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        return self._checked(self.http.request(method, url, **kwargs))
