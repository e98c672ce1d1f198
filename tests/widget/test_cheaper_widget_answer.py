"""The kernel answers the lab's ask("cheaper") with /api/cheaper's numbers."""

from __future__ import annotations

from typing import Any

from attnlab.encode.cheaper_json import encode_cheaper
from attnlab.lesson.cheaper_lab import cheaper_lab
from attnlab.lesson.options import LessonOptions
from attnlab.widget.lab_answers import answer


def ask(params: dict[str, Any]) -> dict[str, Any]:
    got: list[dict[str, Any]] = []
    assert answer({"ask": "cheaper", "id": 7, "params": params}, got.append)
    assert got[0]["answer"] == 7
    return got[0]


def test_the_kernels_answer_is_the_sections() -> None:
    out = ask({"sentence": "at the savings bank", "focus": "bank", "tile": 1, "causal": True})
    want = cheaper_lab("at the savings bank", LessonOptions(causal=True), focus="bank", tile=1)
    assert out["ok"] and out["body"] == encode_cheaper(want).model_dump(mode="json")


def test_a_bad_tile_is_refused_with_its_field() -> None:
    out = ask({"tile": 9})
    assert not out["ok"] and out["error"]["field"] == "tile"


def test_the_kernel_answers_the_real_model_card_as_the_route_does() -> None:
    """The notebook's ask("models") is /api/cheaper/models's answer, from the same function."""
    from attnlab.encode.cheaper_models_json import encode_model_caches
    from attnlab.models.real_caches import real_caches
    from attnlab.widget.cheaper_answer import models_answer

    assert models_answer() == encode_model_caches(real_caches()).model_dump(mode="json")


def test_the_kernel_passes_the_lessons_axis() -> None:
    from attnlab import lesson
    from attnlab.widget.cheaper_answer import cheaper_answer

    got = cheaper_answer({"sentence": "by the river bank", "axis": "queries"}, lesson.Edits())
    assert got["online"]["badge"]["kind"] == "unchecked"
