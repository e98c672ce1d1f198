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
