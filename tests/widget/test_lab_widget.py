"""The lesson's lab in the notebook widget: its options as traits, and its questions answered by
the kernel (widget/lab_answers.py) with the numbers the API's routes answer."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

import attnlab
from attnlab.errors import ArgumentTypeError, AttnlabError
from attnlab.widget import LessonWidget
from attnlab.widget.lab_answers import edits_of

pytest.importorskip("anywidget")

EDITS = {"set": {"bank": [1, 0, 0, 1]}, "set_q": {"river": ["2", "0", "0", "0"]}}
SWEEP = {"sentence": "by the river bank", "focus": 3, "positions": "rope", "causal": True,
         "edits": EDITS}  # fmt: skip
SWEEP_QUERY = (
    "sentence=by+the+river+bank&focus=3&positions=rope&causal=1"
    "&set=bank=1,0,0,1&set_q=river=2,0,0,0"
)


@pytest.fixture(scope="module")
def api() -> Iterator[TestClient]:
    from attnlab.web.app import create_app  # the API the page asks, to compare with

    with TestClient(create_app(), base_url="http://127.0.0.1") as http:
        yield http


def _asked(w: LessonWidget, content: dict[str, Any], *, answers: int = 1) -> list[Any]:
    """Send `content` to the widget as the view's custom message; the kernel's answers."""
    sent: list[Any] = []
    got = threading.Event()

    def send(msg: Any, buffers: Any = None) -> None:
        sent.append(msg)
        if len(sent) >= answers:
            got.set()

    w.send = send  # type: ignore[method-assign]
    w._handle_custom_msg(content, [])
    assert got.wait(120), f"no answer to {content}"
    return sent


def test_show_with_lab_is_the_lesson_with_its_lab_view() -> None:
    w = attnlab.show(attnlab.explain_lesson("by the river bank"), lab=True)
    assert isinstance(w, LessonWidget) and w.view == "lab"
    assert attnlab.show(attnlab.explain_lesson("by the river bank")).view == "lesson"
    assert w.lab["temperature"]["sqrt_d_k"] == pytest.approx(2.0)  # the lab's limits, as /api/lab
    with pytest.raises(ArgumentTypeError, match="lab must be True or False, got 'yes'"):
        attnlab.show(attnlab.explain_lesson("by the river bank"), lab="yes")


def test_the_labs_intro_in_a_notebook_names_no_address_bar(api: TestClient) -> None:
    w = attnlab.show(attnlab.explain_lesson("by the river bank"), lab=True)
    page = api.get("/api/presets").json()["words"]["lab.intro"]
    assert "address bar" in page  # the page's own sentence is left as it is
    said = w.words["lab.intro"]
    assert "address bar" not in said and "w.save(path)" in said
    assert said.startswith(page.split("; the link")[0])  # the rest as the page says it


def test_the_labs_traits_recompute_the_lesson_as_the_api_does(api: TestClient) -> None:
    w = attnlab.show(attnlab.explain_lesson("by the river bank"), lab=True)
    w.causal = True
    w.positions = "rope"
    w.edits = {"set": {"bank": [1, 0, 0, 1]}}
    w.temperature = 0.5
    page = api.get("/api/lesson?sentence=by+the+river+bank&focus=3&causal=1&positions=rope"
                   "&set=bank=1,0,0,1&temperature=0.5").json()  # fmt: skip
    assert w.error is None
    assert w.lesson == page
    w.mode = "uniform"  # a temperature only goes with Scaled
    assert w.error is None and w.lesson["weights"][3] == [0.25] * 4


def test_a_refused_lab_option_keeps_the_lesson_and_names_its_field() -> None:
    w = attnlab.show(attnlab.explain_lesson("by the river bank"), lab=True)
    before = w.lesson
    w.edits = {"set": {"bank": [1, 0, 0]}}  # three numbers for a 4-dim vector
    assert w.error is not None and w.error["field"] == "set"
    assert "bank" in w.error["message"]
    assert w.edits == {} and w.lesson == before


def test_a_sweep_asked_of_the_kernel_is_the_apis_sweep(api: TestClient) -> None:
    w = attnlab.show(attnlab.explain_lesson("by the river bank"), lab=True)
    [answer] = _asked(w, {"ask": "sweep", "id": 7, "params": SWEEP})
    page = api.get(f"/api/sweep?{SWEEP_QUERY}")
    assert page.status_code == 200
    assert answer == {"answer": 7, "ok": True, "body": page.json()}
    assert answer["body"]["tokens"][answer["body"]["focus"]] == "bank"


@pytest.mark.parametrize("sentence", ["by the river bank", "at the savings bank"])
def test_the_one_projection_asked_of_the_kernel_is_the_lessons(
    api: TestClient, sentence: str
) -> None:
    w = attnlab.show(attnlab.explain_lesson("by the river bank"), lab=True)
    [answer] = _asked(w, {"ask": "one_projection", "id": 5, "params": {"sentence": sentence}})
    page = api.get("/api/lesson", params={"sentence": sentence}).json()["one_projection"]
    assert answer == {"answer": 5, "ok": True, "body": {"one_projection": page}}


def test_a_cost_asked_of_the_kernel_is_measured_apart_and_shaped_as_the_apis(
    api: TestClient,
) -> None:
    w = attnlab.show(attnlab.explain_lesson("by the river bank"), lab=True)
    [answer] = _asked(w, {"ask": "cost", "id": 1, "params": {"max_n": 16, "kv_cache": True}})
    page = api.get("/api/cost?max_n=16&kv_cache=true").json()
    assert answer["answer"] == 1 and answer["ok"] is True
    body = answer["body"]
    assert set(body) == set(page) and set(body["kv_cache"]) == set(page["kv_cache"])
    # the same sizes measured: the times are the machine's, the n are the request's
    assert [p["n"] for p in body["points"]] == [p["n"] for p in page["points"]]
    assert body["d"] == page["d"] and all(p["seconds"] > 0 for p in body["points"])


def test_a_refused_question_is_answered_with_its_field() -> None:
    w = attnlab.show(attnlab.explain_lesson("by the river bank"), lab=True)
    [bad_n] = _asked(w, {"ask": "cost", "id": 2, "params": {"max_n": 100000}})
    assert bad_n["ok"] is False and bad_n["error"]["field"] == "max_n"
    assert "100000" in bad_n["error"]["message"]
    [word] = _asked(w, {"ask": "sweep", "id": 3, "params": {**SWEEP, "sentence": "by the zebra"}})
    assert word["answer"] == 3 and word["ok"] is False and "zebra" in word["error"]["message"]
    [route] = _asked(w, {"ask": "weights", "id": 4, "params": {}})
    assert route["error"] == {"message": "unknown lab question 'weights': expected one of sweep, "
                                         "cost, cheaper, price, one_projection, models, kv",
                              "field": "route"}  # fmt: skip


def test_edits_read_as_the_apis_set_parameters() -> None:
    e = edits_of({"set": {"bank": ["1", "0", "0", "1"]}, "set_v": {"river": [0, 1, 0, 0]}})
    assert list(e.embeddings["bank"]) == [1, 0, 0, 1] and list(e.values["river"]) == [0, 1, 0, 0]
    with pytest.raises(AttnlabError, match="set_q must be an object of tokens"):
        edits_of({"set_q": [1, 2]})
