"""The JS tests' fixtures are what scripts/make_js_fixtures.py writes now: a key the encoders add
or a number they change makes this fail until the script is run again."""

from __future__ import annotations

import functools
import importlib.util
import json
import math
from pathlib import Path
from typing import Any

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "make_js_fixtures.py"


@functools.cache
def _script() -> Any:
    spec = importlib.util.spec_from_file_location("make_js_fixtures", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


LAST_PLACE = 1e-4
"""The fixtures' floats are rounded to 4 places (the script's PLACES). A value that sits on a
rounding boundary rounds either way under a few ulps of BLAS noise: with what a fresh install
got on 2026-12-02 (numpy 2.4.6), 15 of MiniLM's numbers differed from the file by exactly one
last place, on the code that wrote the file too. One last place is the fixtures' own
precision; anything more is a change."""


def differences(saved: Any, fresh: Any, where: str = "$") -> list[str]:
    """Where two JSON values differ (numbers within one last place, LAST_PLACE, plus rounding
    of that step itself)."""
    if isinstance(saved, dict) and isinstance(fresh, dict):
        out = [f"{where}.{k}: only in the script's" for k in fresh.keys() - saved.keys()]
        out += [f"{where}.{k}: only in the file" for k in saved.keys() - fresh.keys()]
        for k in saved.keys() & fresh.keys():
            out += differences(saved[k], fresh[k], f"{where}.{k}")
        return out
    if isinstance(saved, list) and isinstance(fresh, list):
        if len(saved) != len(fresh):
            return [f"{where}: {len(saved)} items in the file, {len(fresh)} now"]
        return [
            d
            for k, (a, b) in enumerate(zip(saved, fresh, strict=True))
            for d in differences(a, b, f"{where}[{k}]")
        ]
    numbers = (int, float)
    if isinstance(saved, numbers) and isinstance(fresh, numbers) and not isinstance(saved, bool):
        ok = math.isclose(saved, fresh, rel_tol=1e-6, abs_tol=LAST_PLACE * (1 + 1e-6))
        return [] if ok else [f"{where}: {saved} in the file, {fresh} now"]
    return [] if saved == fresh else [f"{where}: {saved!r} in the file, {fresh!r} now"]


def test_differences_sees_a_missing_key_and_a_changed_number() -> None:
    assert differences({"a": [1.0, 2.0]}, {"a": [1.0, 2.0000000001]}) == []
    assert differences({"a": 1}, {"a": 1, "b": 2}) == ["$.b: only in the script's"]
    assert differences({"a": [0.5]}, {"a": [0.6]}) == ["$.a[0]: 0.5 in the file, 0.6 now"]
    assert differences({"a": 36.1581, "b": -0.4033}, {"a": 36.158, "b": -0.4032}) == []
    assert differences({"a": 0.1236}, {"a": 0.1234}) == ["$.a: 0.1236 in the file, 0.1234 now"]
    assert 10.0 ** -_script().PLACES == LAST_PLACE  # the places the script rounds to


@pytest.mark.parametrize(
    "name", ["lessons.json", "model_trace.json", "model_compare.json", "page.json"]
)
def test_the_committed_fixture_is_what_the_script_writes(name: str) -> None:
    if name.startswith("model"):
        pytest.importorskip("safetensors")
        pytest.importorskip("tokenizers")
    make = name.removesuffix(".json")
    fresh = json.loads(json.dumps(getattr(_script(), make)(), ensure_ascii=False))
    saved = json.loads((SCRIPT.parents[1] / "tests" / "js" / name).read_text(encoding="utf-8"))
    found = differences(saved, fresh)
    assert not found, f"{name} is stale; run scripts/make_js_fixtures.py:\n" + "\n".join(found[:20])
