"""The number cases that tests/js/format.test.mjs checks against format.js are Python's own."""

import json
from pathlib import Path

from attnlab.words.numfmt import num, percent

CASES = json.loads((Path(__file__).parent / "numfmt_cases.json").read_text())


def test_the_js_cases_are_what_numfmt_writes() -> None:
    for case in CASES["num"]:
        assert num(case["x"], places=case["places"]) == case["text"], case
    for case in CASES["percent"]:
        assert percent(case["w"]) == case["text"], case
