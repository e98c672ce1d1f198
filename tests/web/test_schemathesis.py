"""schemathesis against the live /openapi.json of a real server (uvicorn on 127.0.0.1:0).

Every declared operation gets up to EXAMPLES generated requests, valid and invalid, seeded
(derandomized); the run fails on any 5xx and on any answer its route does not declare: its
status, its media type, its headers or its body's schema. Bounded: EXAMPLES examples for each
operation the app declares (OPERATIONS, read from its own OpenAPI: 28 when this was written),
MODEL_EXAMPLES for the model routes.
The cost route's time budget is cut to 0.05 s a call (lesson_routes.measure, the same function
with a smaller budget) so its examples fit the run; everything else is the real app.
The model routes (/api/model/...) get MODEL_EXAMPLES examples each, with every generated text
cut to SHORT characters and the model set to minilm: the schema allows 24,000-character texts
on SmolLM2, and each such example is a 2,048-token pass (about 300 s a route). The long-text
and SmolLM2 paths have their own tests (tests/web/test_model_smollm2.py, test_decoder_routes.py).
"""

import functools
import socket
import threading
import time
from collections.abc import Iterator

import pytest

schemathesis = pytest.importorskip("schemathesis")
uvicorn = pytest.importorskip("uvicorn")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from schemathesis import GenerationMode  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from attnlab.core.cost import measure  # noqa: E402
from attnlab.web import lesson_routes  # noqa: E402
from attnlab.web.app import create_app, uvicorn_config  # noqa: E402

EXAMPLES = 20
MODEL_EXAMPLES = 8
SHORT = 200
MODEL_PATHS = ("/api/model/", "/api/export/model.html")  # a model pass each: short texts
TEXT_FIELDS = ("text", "a", "b", "word", "focus", "mask")
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


@pytest.fixture(scope="module")
def live_url(minilm) -> Iterator[str]:
    patch = pytest.MonkeyPatch()
    patch.setattr(lesson_routes, "measure", functools.partial(measure, budget_seconds=0.05))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    config = uvicorn_config(create_app())
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    server.should_exit = True
    thread.join(30)
    patch.undo()


@pytest.fixture(scope="module")
def api_schema(live_url):
    return schemathesis.openapi.from_url(f"{live_url}/openapi.json")


OPERATIONS = [(m.upper(), p) for p, ops in create_app().openapi()["paths"].items() for m in ops]


@pytest.mark.parametrize(("method", "path"), OPERATIONS)
def test_every_route_answers_as_declared(api_schema, method, path) -> None:
    operation = api_schema[path][method]
    cases = [operation.as_strategy(GenerationMode.POSITIVE)]
    if operation.query or operation.body:  # something to break
        cases.append(operation.as_strategy(GenerationMode.NEGATIVE))

    @given(case=st.one_of(cases))
    @settings(
        max_examples=MODEL_EXAMPLES if path.startswith(MODEL_PATHS) else EXAMPLES,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def holds(case) -> None:
        if path.startswith(MODEL_PATHS) and isinstance(case.query, dict):
            for key in TEXT_FIELDS:
                if isinstance(case.query.get(key), str):
                    case.query[key] = case.query[key][:SHORT]
            if "model" in case.query:
                case.query["model"] = "minilm"
        case.call_and_validate(checks=CHECKS)

    holds()
