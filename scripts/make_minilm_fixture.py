"""Write tests/fixtures/minilm_reference.npz: Hugging Face transformers' own numbers for MiniLM.

The parity test compares attnlab's NumPy forward pass with transformers' `BertModel` (eager
attention, output_attentions=True, output_hidden_states=True) where torch is installed; this
fixture keeps a small slice of that reference so the check also runs without torch: for each
sentence, the token ids, the attentions of the first and last layer and the last hidden state,
as float32. Run it again (with torch and transformers installed) after changing the sentences:

    .venv/bin/python scripts/make_minilm_fixture.py
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # never reach the network: the folder is local

SENTENCES = (
    "by the river bank",
    "at the savings bank",
    "Bys, the cat's über-long naps didn't stop!",
)
OUT = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "minilm_reference.npz"


def main() -> None:
    import torch
    from transformers import BertModel
    from transformers.utils import logging

    from attnlab.models import load_model, model_folder

    logging.set_verbosity_error()
    folder = model_folder("minilm")[1]
    reference = BertModel.from_pretrained(str(folder), attn_implementation="eager").eval()
    tokenizer = load_model("minilm").tokenizer
    arrays: dict[str, np.ndarray] = {"sentences": np.array(SENTENCES)}
    for i, text in enumerate(SENTENCES):
        ids = tokenizer.encode(text).ids
        with torch.no_grad():
            out = reference(
                input_ids=torch.tensor([ids]), output_attentions=True, output_hidden_states=True
            )
        last = len(out.attentions) - 1
        arrays[f"ids_{i}"] = np.array(ids, dtype=np.int32)
        arrays[f"attention_first_{i}"] = out.attentions[0][0].numpy().astype(np.float32)
        arrays[f"attention_last_{i}"] = out.attentions[last][0].numpy().astype(np.float32)
        arrays[f"hidden_last_{i}"] = out.last_hidden_state[0].numpy().astype(np.float32)
    np.savez_compressed(OUT, **arrays)  # type: ignore[arg-type]
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes, {len(SENTENCES)} sentences)")


if __name__ == "__main__":
    main()
