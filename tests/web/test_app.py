"""The JSON API: the lesson's numbers, and clear 4xx messages for bad input."""

import pytest

from attnlab.web.request_fields import MAX_CHARS as MAX_QUERY_CHARS


def test_lesson_default_is_the_river_sentence(client) -> None:
    d = client.get("/api/lesson").json()
    assert d["tokens"] == ["by", "the", "river", "bank"] and d["focus"] == 3
    assert [round(w, 2) for w in d["weights"][3]] == [0.11, 0.07, 0.69, 0.14]
    assert len(d["narration"]) == 6


def test_lesson_savings_uniform(client) -> None:
    r = client.get("/api/lesson", params={"sentence": "at the savings bank", "mode": "uniform"})
    d = r.json()
    assert r.status_code == 200 and d["divisor"] == "inf"
    assert all(w == 0.25 for row in d["weights"] for w in row)


@pytest.mark.parametrize(
    ("params", "field", "message"),
    [
        ({"sentence": "by the lake bank"}, "sentence", "unknown word 'lake'"),
        ({"sentence": ""}, "sentence", "empty"),
        ({"sentence": "the " * 13}, "sentence", "at most 12"),
        ({"sentence": "x" * (MAX_QUERY_CHARS + 1)}, "sentence", "limit"),
        ({"focus": "money"}, "focus", "'money'"),
        ({"mode": "softer"}, "mode", "unknown mode 'softer'"),
        ({"axis": "diagonal"}, "axis", "unknown axis"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(client, params, field, message) -> None:
    r = client.get("/api/lesson", params=params)
    assert r.status_code == 400
    assert r.json()["field"] == field and message in r.json()["error"]
    assert client.get("/api/lesson").status_code == 200  # still serving


def test_markup_in_a_word_comes_back_as_data(client) -> None:
    r = client.get("/api/lesson", params={"sentence": "<img src=x onerror=alert(1)>"})
    assert r.status_code == 400 and r.headers["content-type"] == "application/json"


def test_presets_and_page(client) -> None:
    d = client.get("/api/presets").json()
    assert d["presets"][0]["sentence"] == "by the river bank"
    assert d["modes"] == ["scaled", "unscaled", "uniform"]
    assert client.get("/").status_code == 200


_TRACED = """
import json
from opentelemetry import trace
from fastapi.testclient import TestClient

spans = []

class Tracer(trace.NoOpTracer):
    def start_span(self, name, *args, **kwargs):
        spans.append(name)
        return super().start_span(name, *args, **kwargs)

    def start_as_current_span(self, name, *args, **kwargs):
        spans.append(name)
        return super().start_as_current_span(name, *args, **kwargs)

class Provider(trace.TracerProvider):
    def get_tracer(self, *args, **kwargs):
        return Tracer()

trace.set_tracer_provider(Provider())
from attnlab.web.app import create_app

with TestClient(create_app(), base_url="http://127.0.0.1") as c:
    status = c.get("/api/lesson").status_code
print(json.dumps([status, spans]))
"""


def test_fastapi_records_nothing_even_where_a_tracer_is_configured() -> None:
    """attnlab sends nothing anywhere: FastAPI's own OpenTelemetry would trace every request
    to the process's tracer (and export it with FASTAPI_OTEL_AUTO_CONFIGURE=true). A fresh
    interpreter: a tracer provider is set once per process."""
    pytest.importorskip("opentelemetry.trace")
    import json
    import os
    import subprocess
    import sys

    env = {**os.environ, "FASTAPI_OTEL_AUTO_CONFIGURE": "true"}
    out = subprocess.run([sys.executable, "-c", _TRACED], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    status, spans = json.loads(out.stdout)
    assert status == 200 and spans == []


def test_the_server_runs_asyncio_s_loop_and_h11_whatever_is_installed() -> None:
    """Bug: with uvloop installed, uvicorn's "auto" loop was uvloop's, which starved while a
    2,048-token model page computed: the next browser test's page did not load in 10 s. And
    httptools, uvicorn's other parser, has no bound on a request head."""
    from attnlab.web.app import create_app, uvicorn_config

    config = uvicorn_config(create_app())
    assert (config.loop, config.http) == ("asyncio", "h11")
