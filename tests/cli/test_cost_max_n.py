"""Issue 27: `attnlab cost --max-n 256` printed the key/value-cache table out to n = 2048. Both
tables stop at --max-n."""

from __future__ import annotations

import json
import re

from attnlab.cli.main import main


def _rows(block: str) -> list[int]:
    return [int(m.group(1)) for m in re.finditer(r"^(\d+)\s", block, flags=re.M)]


def test_both_tables_stop_at_max_n(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["cost", "--max-n", "256"]) == 0
    out = capsys.readouterr().out
    first, cache = out.split("\n\n", 1)
    assert max(_rows(first)) == 256
    assert _rows(cache) == [128, 256]


def test_below_the_cache_sizes_the_cache_row_is_max_n(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["cost", "--max-n", "64", "--json"]) == 0
    said = json.loads(capsys.readouterr().out)
    assert [p["n"] for p in said["kv_cache"]["points"]] == [64]
    assert max(p["n"] for p in said["points"]) == 64
