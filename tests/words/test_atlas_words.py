"""The atlas's lines: a count agrees with its noun, 1 text and 2 texts (words/atlas_words.py)."""

import pytest

from attnlab.words.atlas_words import COUNTED, atlas_line, counts


def test_counts_agree_with_their_noun_and_group_thousands() -> None:
    assert counts(1, "text") == "1 text"
    assert counts(0, "text") == "0 texts"
    assert counts(117659, "text") == "117,659 texts"


@pytest.mark.parametrize("n", [1, 2])
def test_no_line_says_1_texts(n: int) -> None:
    """Every line that carries a count: filled with 1 and with 2 of everything."""
    fields = dict.fromkeys(COUNTED, n) | {
        "done": n,
        "read": n,
        "tps": 1.5,
        "tokps": 2.5,
        "link": "http://x",
        "loaded": n,
        "store": "s",
        "todo": 0,
        "path": "a.parquet",
        "size": 10,
        "computed": n,
        "seconds": 1.0,
        "split": n,
        "skipped": 0,
        "model": "m",
        "corpus": "c",
        "epsilon": 0.3,
    }
    for key in ("progress", "resumed", "wrote", "long", "ranking_title", "sinks_title"):
        line = atlas_line(key, **fields)
        for noun in set(COUNTED.values()):
            assert f"1 {noun}s " not in line + " " and f"1 {noun}s," not in line
    assert atlas_line("wrote", **fields).count(f"{n} text" + ("" if n == 1 else "s")) == 1
