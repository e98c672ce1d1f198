"""words/page.py: the page's fixed words, once; every key the static files look up exists."""

import re
from importlib.resources import files

from attnlab.words.page import PAGE_WORDS, TEMPLATE_VALUES, placeholders

STATIC = files("attnlab") / "static"


def test_every_word_is_a_plain_sentence_under_a_dotted_key() -> None:
    for key, text in PAGE_WORDS.items():
        assert re.fullmatch(r"[a-z_]+(\.[a-z0-9_]+)+", key), key  # model.name.smollm2
        assert text.strip() == text and text, key
        assert "<" not in text, f"{key}: words are text, not markup"


def test_every_placeholder_is_documented() -> None:
    for key in PAGE_WORDS:
        for name in placeholders(key):
            assert name in TEMPLATE_VALUES, f"{key}: {{{name}}} is not in TEMPLATE_VALUES"
    assert placeholders("steps.title") == ("number", "count", "title")


def test_the_keys_the_page_looks_up_exist() -> None:
    used: set[str] = set()
    for path in STATIC.iterdir():
        if path.name.endswith(".js"):
            text = path.read_text(encoding="utf-8")
            used |= set(re.findall(r'"((?:canvas|steps|table|lesson|lab|model)\.[a-z_.]+)"', text))
    assert used, "the static files look words up by key"
    missing = sorted(k for k in used if k not in PAGE_WORDS)
    assert not missing, f"keys the page uses but page.py lacks: {missing}"


def test_the_words_moved_out_of_the_views() -> None:
    """The help texts and intros live here, not in the JS files."""
    for name in (
        "lab.js",
        "lab_edit.js",
        "lab_temperature.js",
        "lab_cost.js",
        "lesson.js",
        "model.js",
    ):
        text = (STATIC / name).read_text(encoding="utf-8")
        for key in ("lab.axis.help", "lab.edit.help", "lab.temperature.help", "lab.cost.help",
                    "lab.intro", "model.intro", "table.caption"):  # fmt: skip
            assert PAGE_WORDS[key][:40] not in text, f"{name} repeats {key}"


def test_a_decoders_intro_and_text_help_name_no_bert_tokens() -> None:
    # SmolLM2's tokenizer has no [CLS] or [SEP]: the Real model page picks these for a decoder
    for key in ("model.intro_decoder", "model.text_help_decoder"):
        assert "[CLS]" not in PAGE_WORDS[key] and "[SEP]" not in PAGE_WORDS[key]
    assert "[CLS]" in PAGE_WORDS["model.text_help"]  # MiniLM's help still names them
    # the settings panel writes the text's help, the notes panel the intro (model.js's panels)
    settings = (STATIC / "model_settings.js").read_text()
    assert 'info.causal ? "model.text_help_decoder" : "model.text_help"' in settings
    notes = (STATIC / "model_notes.js").read_text()
    assert 'info.causal ? "model.intro_decoder" : "model.intro"' in notes
