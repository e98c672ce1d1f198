"""The models and traces one process keeps: each key computed once, the last few kept."""

import threading
import time

import pytest

from attnlab.errors import UnknownModelError
from attnlab.models.kept import Kept, known_name, model_names


def test_two_callers_of_one_key_share_one_computation() -> None:
    kept: Kept[str, int] = Kept(2)
    calls = []

    def slow() -> int:
        calls.append(1)
        time.sleep(0.2)
        return 7

    got: list[int] = []
    threads = [threading.Thread(target=lambda: got.append(kept.get("a", slow))) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == [7, 7, 7] and len(calls) == 1


def test_other_keys_are_computed_side_by_side() -> None:
    kept: Kept[str, str] = Kept(4)
    inside = threading.Barrier(2, timeout=5)  # broken unless both computations run at once

    def both_at_once(key: str) -> str:
        inside.wait()
        return key

    threads = [
        threading.Thread(target=kept.get, args=(k, lambda k=k: both_at_once(k))) for k in "ab"
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not inside.broken


def test_the_least_recently_used_key_goes_first() -> None:
    kept: Kept[str, str] = Kept(2)
    kept.get("a", lambda: "a")
    kept.get("b", lambda: "b")
    kept.get("a", lambda: "again")  # a is used, so b is now the oldest
    kept.get("c", lambda: "c")
    assert kept.get("a", lambda: "again") == "a"
    assert kept.get("b", lambda: "recomputed") == "recomputed"


def test_a_failed_computation_is_not_kept_and_runs_again() -> None:
    kept: Kept[str, int] = Kept(2)

    def fail() -> int:
        raise ValueError("no")

    with pytest.raises(ValueError):
        kept.get("a", fail)
    assert kept.get("a", lambda: 3) == 3


def test_a_name_is_a_known_model_or_a_served_folder_never_a_path(tmp_path) -> None:  # type: ignore[no-untyped-def]
    assert known_name("MiniLM") == "minilm"
    with pytest.raises(UnknownModelError, match="expected one of minilm"):
        known_name(str(tmp_path))
    assert model_names()[:2] == ("minilm", "smollm2")
