"""Parity with transformers' BertModel on the same folder: attentions and hidden states."""

import os

import numpy as np
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

SENTENCES = (
    "by the river bank",
    "at the savings bank",
    "Bys, the cat's über-long naps didn't stop!",
    "The bank raised its interest rate; we walked along the river bank anyway. " * 6,
    "a",
)


@pytest.fixture(scope="module")
def reference(minilm):  # type: ignore[no-untyped-def]
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from transformers.utils import logging

    from attnlab.models import model_folder

    logging.set_verbosity_error()
    folder = str(model_folder("minilm")[1])
    return transformers.BertModel.from_pretrained(folder, attn_implementation="eager").eval()


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::FutureWarning")
@pytest.mark.parametrize("text", SENTENCES)
def test_attentions_and_hidden_states_agree_to_1e_4(minilm, reference, text: str) -> None:
    t = minilm.trace(text)
    with torch.no_grad():
        out = reference(
            input_ids=torch.tensor([t.token_ids]), output_attentions=True, output_hidden_states=True
        )
    attentions = torch.stack(out.attentions)[:, 0].numpy()  # (L, h, n, n)
    hidden = torch.stack(out.hidden_states)[:, 0].numpy()  # (L + 1, n, d)
    assert attentions.shape == t.attentions.shape and hidden.shape == t.hidden_states.shape
    assert np.abs(t.attentions - attentions).max() < 1e-4
    assert np.abs(t.hidden_states - hidden).max() < 1e-4
