"""A served GPT-2 folder (issue 23): GPT-2 is a causal decoder with learned absolute positions,
so the page's positions section says so (no RoPE, learned positions, never "an encoder") and
shows the next-token tables the trace holds. `attnlab serve --model FOLDER` in a child process,
a tiny GPT-2 saved by transformers (a WordLevel tokenizer, one token a word)."""

import json
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.torch]

TEXT = "t5 t17 t3 t99 t42 t8 t61"


def gpt2_folder(folder: Path) -> None:
    """A tiny GPT-2 and its tokenizer.json, as tests/models/test_spec_parity.py builds one."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from tokenizers import Tokenizer, models, pre_tokenizers

    torch.manual_seed(0)
    config = transformers.GPT2Config(vocab_size=128, n_embd=32, n_layer=2, n_head=4, n_positions=64)
    transformers.GPT2LMHeadModel(config).save_pretrained(folder)
    tok = Tokenizer(models.WordLevel({f"t{i}": i for i in range(128)}, unk_token="t0"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.save(str(folder / "tokenizer.json"))


@pytest.fixture(scope="module")
def served(tmp_path_factory, serve_folder) -> Iterator[Any]:  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("models") / "tiny-gpt2"
    gpt2_folder(folder)
    with serve_folder(folder) as served:
        yield served


def test_gpt2_is_a_decoder_with_learned_positions(served, browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    name = served.name
    trace = served.api("/api/model/trace", model=name, text=TEXT, grid="none")
    dec = trace["decoder"]
    assert trace["model"]["causal"] and dec["positions"] == "learned"
    assert dec["query_before"] is None and dec["scores"] is None  # no rotation to show
    first = dec["next_after_last"][0]
    context, page, errors = served.new_page(browser)
    try:
        q = urllib.parse.urlencode({"view": "model", "model.name": name, "model.text": TEXT})
        page.goto(f"/?{q}")
        expect(page.get_by_role("table", name="Real attention weights")).to_be_visible(
            timeout=30_000
        )
        section = page.locator(".rm-decoder")
        expect(section.locator("h2")).to_have_text("Learned positions and what the model predicts")
        expect(section).to_contain_text("learned position vector")
        expect(section).not_to_contain_text("encoder")
        expect(section.locator(".rm-rope-plot")).to_be_hidden()
        table = section.locator(".rm-next-table").first
        expect(table).to_be_visible()
        cell = table.locator("tbody tr").first
        expect(cell.locator("th")).to_have_text(json.dumps(first["token"]))
        expect(cell.locator("td")).to_have_text(f"{round(first['probability'] * 100)}%")
        section.screenshot(path=str(artifacts / "gpt2-learned-positions-1280.png"))
        page.set_viewport_size({"width": 390, "height": 844})
        expect(table).to_be_visible()
        section.screenshot(path=str(artifacts / "gpt2-learned-positions-390.png"))
        assert not errors, errors
    finally:
        context.close()


def test_the_specials_menu_names_none_for_a_tokenizer_that_adds_none(
    served, browser, artifacts: Path
) -> None:  # type: ignore[no-untyped-def]
    """Bug: after hiding MiniLM's [CLS] and [SEP], a switch to a decoder whose tokenizer adds no
    special token (GPT-2, Qwen2, SmolLM2) kept the menu labelled "[CLS] and [SEP]" and the note
    saying "[CLS] and [SEP] are hidden"."""
    from playwright.sync_api import expect

    from attnlab.words.model_help import HELP_WORDS

    name = served.name
    m = served.api("/api/model/matrix", model=name, text=TEXT, specials="hide")
    assert m["specials_named"] is None and m["shown"] == len(TEXT.split())  # nothing hidden
    context, page, errors = served.new_page(browser)
    try:
        q = urllib.parse.urlencode({"view": "model", "model.name": "minilm", "model.text": TEXT})
        page.goto(f"/?{q}")
        menu = page.get_by_label("[CLS] and [SEP]", exact=True)
        expect(menu).to_be_visible(timeout=60_000)
        menu.select_option("hide")
        expect(page.locator(".rm-matrix-note")).to_contain_text("[CLS] and [SEP] are hidden")
        page.get_by_label("Model", exact=True).select_option(name)
        expect(page.locator(".rm-decoder h2")).to_have_text(
            "Learned positions and what the model predicts", timeout=60_000
        )
        none = page.get_by_label(HELP_WORDS["model.matrix.specials_none"], exact=True)
        expect(none).to_be_visible()
        expect(none).to_be_disabled()
        note = page.locator(".rm-matrix-note")
        expect(note).to_contain_text(HELP_WORDS["model.matrix.specials_absent"])
        expect(note).not_to_contain_text("[CLS]")
        expect(page.locator(".rm-matrix")).not_to_contain_text("[CLS]")
        page.locator(".rm-matrix").screenshot(path=str(artifacts / "gpt2-no-specials-1280.png"))
        assert not errors, errors
    finally:
        context.close()
