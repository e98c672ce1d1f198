"""`attnlab mask`: one word masked or dropped in MiniLM, the focus's distances per layer."""

import json

import numpy as np
import pytest

from attnlab.cli.main import main
from attnlab.models.masking import mask_token
from attnlab.words.numfmt import num

pytestmark = pytest.mark.usefixtures("minilm")


def test_mask_prints_the_edited_text_and_one_row_per_layer(capsys, minilm) -> None:
    code = main(["mask", "--model", "minilm", "by the river bank", "--focus", "bank",
                 "--mask", "river"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    assert "edited: [CLS] by the [MASK] bank [SEP]" in out
    m = mask_token(minilm, minilm.trace("by the river bank"), focus=4, word="river")
    last = next(line for line in out.splitlines() if line.startswith("5 ")).split()
    assert last[1] == num(float(m.tv_mean[5])) and last[-1] == num(float(m.l2[6]))
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
