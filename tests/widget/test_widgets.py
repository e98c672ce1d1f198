"""The widgets' state in the kernel: what the views read, and traits that move both ways."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

import attnlab
from attnlab.encode.packed import UINT16_STEP, unpack
from attnlab.encode.page_json import encode_presets
from attnlab.errors import FocusError, UnknownHeadError
from attnlab.widget import LessonWidget, MapsWidget, ModelWidget
from attnlab.words.weights_only import NEEDS_QKV

pytest.importorskip("anywidget")

TOKENS = ["[CLS]", "by", "the", "river", "bank", "[SEP]"]


def test_the_module_is_one_text_that_asks_nothing_of_the_network() -> None:
    w = attnlab.show(attnlab.explain_lesson("by the river bank"))
    esm = w._esm.replace('"http://www.w3.org/2000/svg"', "")  # a namespace name, not a request
    assert not re.search(r"^\s*import\b", esm, re.M)  # nothing for a blob: URL to resolve
    assert "http://" not in esm and "https://" not in esm and "fetch(" not in esm
    assert "export default" in esm
    assert ".attnlab-nb button" in w._css and not re.search(r"^button\b", w._css, re.M)


def test_the_lesson_carries_the_seeds_numbers_and_follows_the_view() -> None:
    w = attnlab.show(attnlab.explain_lesson("by the river bank"))
    assert isinstance(w, LessonWidget)
    assert w.focus == 3 and w.lesson["focus_token"] == "bank"
    assert [round(x, 2) for x in w.lesson["weights"][3]] == [0.11, 0.07, 0.69, 0.14]
    assert w.words == {**encode_presets()["words"], **w.words}  # the page's words, and more
    heard = []
    w.observe(lambda c: heard.append(c["new"]), names="focus")
    w.focus = 2  # from Python, as the view's click sets it
    assert w.lesson["focus_token"] == "river" and heard == [2]
    w.sentence = "at the savings bank"  # a new sentence alone follows its ambiguous word
    assert w.lesson["tokens"] == ["at", "the", "savings", "bank"] and w.focus == 3
    w.sentence = "the bank"  # shorter than the old focus index: no refusal
    assert w.error is None and w.lesson["focus_token"] == "bank"
    w.sentence = "at the savings bank"
    w.mode = "uniform"
    assert w.lesson["weights"][3] == [0.25] * 4


def test_a_refused_sentence_keeps_the_lesson_and_says_why() -> None:
    w = attnlab.show(attnlab.explain_lesson("by the river bank"))
    w.sentence = "by the river zebra"
    assert w.error is not None and w.error["field"] == "sentence" and "zebra" in w.error["message"]
    assert w.sentence == "by the river bank" and w.lesson["tokens"][-1] == "bank"
    w.focus = "river"  # a preset's focus is a word; the lesson answers with its index
    assert w.focus == 2 and w.error is None


def test_weights_only_show_what_weights_give_and_say_what_they_lack() -> None:
    a = np.random.default_rng(1).random((2, 3, 6, 6))
    a /= a.sum(-1, keepdims=True)
    w = attnlab.show(a, TOKENS, source="test")
    assert isinstance(w, MapsWidget)
    assert w.focus == 4 and w.beat == 5  # the last word, on the Parallel beat
    assert w.info["weights_only"] is True  # model.js hides the panels that need a model
    assert w.info["n_layers"] == 2 and w.info["n_heads"] == 3
    assert w.trace["queries"] is None and w.trace["drawn_beats"] == ["parallel"]
    assert [b["text"] for b in w.trace["narration"][:5]] == [NEEDS_QKV] * 5
    assert np.allclose(unpack(w.trace["weights"]), a[0, 0])
    assert np.allclose(unpack(w.grid["attentions"]), a, atol=UINT16_STEP / 2)
    w.layer, w.head = 1, 2
    assert w.trace["model"]["layer"] == 1 and np.allclose(unpack(w.trace["weights"]), a[1, 2])
    w.focus = 1
    assert w.grid["focus"] == 1 and w.trace["focus_token"] == "by"
    with pytest.raises(UnknownHeadError, match="between 0 and 1"):
        w.layer = 2
    with pytest.raises(FocusError):
        w.focus = 6
    w.text = "a different text"  # the view's text box: weights cannot be re-run
    assert w.error["field"] == "text" and w.text == " ".join(TOKENS)


def _state(w: MapsWidget) -> dict[str, object]:
    return {k: getattr(w, k) for k in ("info", "trace", "grid", "layer", "head", "focus", "beat")}


def test_the_same_attention_in_every_layout_gives_the_same_widget_state() -> None:
    torch = pytest.importorskip("torch")
    a = np.random.default_rng(2).random((2, 3, 6, 6)).astype(np.float32)
    a /= a.sum(-1, keepdims=True)
    hf = tuple(torch.from_numpy(layer[None].copy()) for layer in a)  # outputs.attentions
    states = [_state(attnlab.show(x, TOKENS, layer=1, head=2)) for x in (hf, a, a.tolist())]
    assert states[0] == states[1] == states[2]


def test_a_real_models_head_is_computed_when_picked(minilm) -> None:  # type: ignore[no-untyped-def]
    mt = minilm.trace("by the river bank")
    w = attnlab.show(mt)
    assert isinstance(w, ModelWidget)
    assert w.text == "by the river bank" and w.focus == 4 and w.grid["kind"] == "full"
    assert not w.info.get("weights_only")  # model.js shows the panels that run the model
    w.layer, w.head = 3, 7
    head = mt.head(3, 7)
    # the trait holds what the page gets: arrays packed (encode/packed.py), read back here
    assert np.allclose(unpack(w.trace["weights"]), head.weights)
    assert np.allclose(unpack(w.trace["queries"]), head.queries)
    w.text = "at the savings bank"
    assert w.trace["tokens"][3] == "savings" and w.focus == 4
    assert w.compare is not None and w.compare["word"] == "bank"


def test_save_writes_the_exports_file_for_the_view_on_screen(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from attnlab.errors import ExportError
    from attnlab.export import save

    w = attnlab.show(attnlab.explain_lesson("by the river bank"))
    w.focus, w.beat = 2, 3
    written = w.save(tmp_path / "figure.html")
    expected = save(w.explanation, tmp_path / "same.html", beat=3, focus=2)
    assert written.read_text() == expected.read_text()
    assert "<script" in written.read_text() and "https://" not in written.read_text()
    assert w.save(tmp_path / "weights.csv").read_text().startswith("layer,head,query_index")
    maps = attnlab.show(np.full((1, 2, 2, 2), 0.5), ["a", "b"], head=1)
    with pytest.raises(ExportError, match=r"save them as \.csv or \.json"):
        maps.save(tmp_path / "maps.html")


def test_save_writes_weights_handed_in_from_elsewhere(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Weights from a notebook (no Q, K or V) save as their numbers: the long form, the head on
    screen's matrix, and JSON, the same files attnlab.save writes of the AttentionMaps."""
    w = np.array([[[[0.25, 0.75], [1.0, 0.0]], [[0.5, 0.5], [0.125, 0.875]]]])  # (1, 2, 2, 2)
    maps = attnlab.show(w, ["it", "ran"], head=1)
    long = maps.save(tmp_path / "w.csv").read_text()
    assert long == attnlab.save(maps.maps, tmp_path / "same.csv").read_text()
    assert long.splitlines()[-1] == "0,1,1,ran,1,ran,,,0.875"
    matrix = maps.save(tmp_path / "m.csv", table="matrix").read_text().splitlines()
    assert matrix[1:] == ["it,0.5,0.5", "ran,0.125,0.875"]  # head 1, the head on screen
    data = json.loads(maps.save(tmp_path / "w.json").read_text())
    assert data["n_heads"] == 2 and data["weights"] == w.tolist()


def test_saving_weights_handed_in_or_a_widget_says_so_plainly(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # "attention weights from elsewhere (elsewhere) have no ...": the name said twice, as a bug
    from attnlab.errors import ExportError

    w = attnlab.show(np.full((1, 1, 2, 2), 0.5), ["it", "ran"])
    with pytest.raises(ExportError) as refused:
        w.save(tmp_path / "x.html")
    said = str(refused.value)
    assert "(elsewhere)" not in said and said.count("elsewhere") <= 1, said
    assert said.startswith("attention weights handed in (AttentionMaps) have no queries")
    assert w.maps.source == ""  # as handed in: the view's "elsewhere" is only its label
    # attnlab.save of the widget itself: it says how a widget saves, not a list of types
    with pytest.raises(ExportError, match=r"a notebook widget saves itself.*w\.save\(path\)"):
        attnlab.save(w, tmp_path / "w.csv")
    lesson = attnlab.show(attnlab.explain_lesson("by the river bank"))
    with pytest.raises(ExportError, match=r"w\.save\(path\)"):
        attnlab.save(lesson, tmp_path / "l.html")
    assert not (tmp_path / "w.csv").exists() and not (tmp_path / "l.html").exists()


def test_the_default_focus_of_weights_from_elsewhere_is_a_word_not_an_escaped_byte() -> None:
    """A byte-level tokenizer's pieces of ✅ read '\\xe2', '\\x9c', '\\x85' (their letters are an
    escape's), and the widget followed '\\x85' after "It works ✅"."""
    tokens = ["It", " works", " \\xe2", "\\x9c", "\\x85"]
    w = attnlab.show(np.full((1, 1, 5, 5), 0.2), tokens)
    assert w.focus == 1
