"""Parity with transformers' LlamaForCausalLM read from the same GGUF: attentions and logits."""

import numpy as np
import pytest

from attnlab.models.llama import ROWS_SPLIT_FROM

torch = pytest.importorskip("torch")

LONG = (
    "The bank raised its interest rate on Monday, and by Friday the river had risen over its "
    "bank, so the savings bank on Mill Street closed early. "
)
TEXTS = (
    "The river bank was muddy after the rain.",
    "The capital of France is",
    "<|im_start|>user\nWhat is 12 + 345?<|im_end|>\n",
    "a",
    LONG * 16,  # about 480 tokens: over ROWS_SPLIT_FROM, so its layers run in row halves
)


def _reference(model, ids: tuple[int, ...]):  # type: ignore[no-untyped-def]
    with torch.no_grad():
        out = model(input_ids=torch.tensor([ids]), output_attentions=True)
    return torch.stack(out.attentions)[:, 0].numpy(), out.logits[0].numpy()  # (L,h,n,n), (n,V)


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::FutureWarning")
@pytest.mark.parametrize("text", TEXTS, ids=lambda t: f"{len(t)}chars")
def test_attentions_to_1e_4_and_logits_to_1e_3(smollm2, smollm2_reference, text: str) -> None:  # type: ignore[no-untyped-def]
    t = smollm2.trace(text)
    if text.startswith(LONG):
        assert t.n >= ROWS_SPLIT_FROM, "the long text must take the row halves' path"
    attentions, logits = _reference(smollm2_reference, t.token_ids)
    assert attentions.shape == t.attentions.shape
    assert np.abs(t.attentions - attentions).max() < 1e-4
    rows = sorted({*range(0, t.n, max(1, t.n // 12)), t.n - 1})  # a dozen positions and the last
    mine = np.stack([t.logits(i) for i in rows])  # (rows, V)
    assert np.abs(mine - logits[rows]).max() < 1e-3
