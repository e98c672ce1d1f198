"""A served Llama folder whose tokenizer adds <s> (issue 23): the page runs the sequence
transformers would (<s> first), names <s> in the matrix's switch, and hides it when asked, the
note naming it. `attnlab serve --model FOLDER` itself, in a child process."""

import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.torch]

SP = {"<unk>": 0, "<s>": 1, "</s>": 2, "▁": 3, "T": 4, "h": 5, "e": 6, "b": 7, "a": 8, "n": 9,
      "k": 10, "▁b": 11, "▁T": 12, "he": 13, "an": 14, "▁The": 15, "▁ban": 16, "▁bank": 17,
      "r": 18, "i": 19, "v": 20}  # fmt: skip
SP_MERGES = [("▁", "b"), ("▁", "T"), ("h", "e"), ("a", "n"), ("▁T", "he"), ("▁b", "an"),
             ("▁ban", "k")]  # fmt: skip
TEXT = "The bank The bank"


@pytest.fixture(scope="module")
def served(tmp_path_factory, serve_folder) -> Iterator[Any]:  # type: ignore[no-untyped-def]
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    folder = tmp_path_factory.mktemp("models") / "tiny-bos"
    transformers.LlamaTokenizer(vocab=SP, merges=SP_MERGES, add_bos_token=True).save_pretrained(
        folder
    )
    torch.manual_seed(0)
    config = transformers.LlamaConfig(
        vocab_size=len(SP), hidden_size=32, intermediate_size=48, num_hidden_layers=1,
        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
        bos_token_id=1, eos_token_id=2,
    )  # fmt: skip
    transformers.LlamaForCausalLM(config).save_pretrained(folder)
    with serve_folder(folder) as served:
        yield served


def test_the_page_names_the_start_token_it_adds(served, browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    name = served.name
    trace = served.api("/api/model/trace", model=name, text=TEXT, grid="none")
    assert trace["tokens"][0] == "<s>"  # as AutoTokenizer(folder)(TEXT) gives it
    context, page, errors = served.new_page(browser)
    try:
        q = urllib.parse.urlencode({"view": "model", "model.name": name, "model.text": TEXT})
        page.goto(f"/?{q}")
        table = page.get_by_role("table", name="Real attention weights")
        expect(table).to_be_visible(timeout=30_000)
        switch = page.get_by_label("Special tokens (<s>)")
        expect(switch).to_be_visible(timeout=30_000)
        switch.select_option("hide")
        note = page.locator(".rm-matrix-note")
        expect(note).to_contain_text("Special tokens hidden (<s>), the rows not renormalised")
        m = served.api("/api/model/matrix", model=name, text=TEXT, specials="hide")
        assert m["specials_named"] == "<s>" and m["shown"] == len(trace["tokens"]) - 1
        page.locator(".rm-matrix").screenshot(path=str(artifacts / "bos-matrix-hidden.png"))
        assert not errors, errors
    finally:
        context.close()
