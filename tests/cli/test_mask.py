"""`attnlab mask`: one word masked or dropped in MiniLM, the focus's distances per layer."""

import json

import numpy as np
import pytest

from attnlab.cli.main import main
from attnlab.models.masking import mask_token
from attnlab.words.model_views import distance

pytestmark = pytest.mark.usefixtures("minilm")


def test_mask_prints_the_edited_text_and_one_row_per_layer(capsys, minilm) -> None:
    code = main(["mask", "--model", "minilm", "by the river bank", "--focus", "bank",
                 "--mask", "river"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    assert "edited: [CLS] by the [MASK] bank [SEP]" in out
    m = mask_token(minilm, minilm.trace("by the river bank"), focus=4, word="river")
    last = next(line for line in out.splitlines() if line.startswith("5 ")).split()
    assert last[1] == distance(float(m.tv_mean[5])) and last[-1] == distance(float(m.l2[6]))
    assert "edited text: by the [MASK] bank" in out
    assert "After replacing “river” by [MASK]" in out


def test_mask_json_and_drop(capsys) -> None:
    code = main(["mask", "a riverbank by the road", "--focus", "road", "--mask", "riverbank",
                 "--how", "drop", "--json"])  # fmt: skip
    d = json.loads(capsys.readouterr().out)
    assert code == 0 and d["edited_tokens"] == ["[CLS]", "a", "by", "the", "road", "[SEP]"]
    assert d["target"] == {"text": "riverbank", "pieces": [2, 3]} and d["edited_focus"] == 4
    assert np.all(np.array(d["tv_mean"]) > 0)


def test_masking_the_focus_is_refused_with_a_message(capsys) -> None:
    assert main(["mask", "by the river bank", "--mask", "bank"]) == 2
    assert "the focus 'bank' is the token masked" in capsys.readouterr().err


def test_a_small_vector_change_does_not_print_as_0(capsys, smollm2) -> None:
    """Bug (issue 22): 1 − cosine of 0.00016 printed 0, beside a note that 0 means nothing
    moved; it prints as the page writes it (words.model_views.distance)."""
    text = "The bank of the river flooded, so the bank downtown closed early."
    code = main(["mask", "--model", "smollm2", text, "--focus", "closed", "--mask", "river",
                 "--how", "drop"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0 and "edited text: The bank of the flooded, so the bank downtown" in out
    base = smollm2.trace(text)
    m = mask_token(smollm2, base, focus=base.focus_index("closed"), word="river", how="drop")
    first = next(line for line in out.splitlines() if line.startswith("0 ")).split()
    assert 0 < m.cosine_distance[1] < 0.005 and first[-2] == distance(float(m.cosine_distance[1]))
    assert first[-2] != "0"
