"""The notebook's page payloads are what the web page's routes answer, key for key."""

from __future__ import annotations

import pytest

from attnlab.encode.page_json import encode_lab, encode_presets

pytest.importorskip("fastapi")


def test_presets_and_lab_are_the_routes_answers() -> None:
    from fastapi.testclient import TestClient

    from attnlab.web.app import create_app

    client = TestClient(create_app(), base_url="http://127.0.0.1")  # a Host the edge answers
    assert client.get("/api/presets").json() == encode_presets()
    assert client.get("/api/lab").json() == encode_lab()
