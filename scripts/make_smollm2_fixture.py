"""Write tests/fixtures/smollm2_reference.npz: transformers' own numbers for SmolLM2-135M.

The parity test (tests/models/test_llama_parity.py) compares attnlab's NumPy decoder with
transformers' `LlamaForCausalLM` read from the same GGUF (eager attention, float32) where torch
is installed; this fixture keeps a slice of that reference so a check runs without torch: for
each text, the token ids, the attentions of the first and last layer, and the 50 largest
next-token logits after the last token with their ids, as float32. Run it again (with torch,
transformers and accelerate installed) after changing the texts:

    .venv/bin/python scripts/make_smollm2_fixture.py
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # never reach the network: the file is local

TEXTS = (
    "The river bank was muddy after the rain.",
    "<|im_start|>user\nWhat is the capital of France?<|im_end|>\n<|im_start|>assistant\n",
)
TOP = 50
OUT = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "smollm2_reference.npz"


def main() -> None:
    import torch
    from transformers import LlamaForCausalLM
    from transformers.utils import logging

    from attnlab.models import load_model, model_folder

    logging.set_verbosity_error()
    path = model_folder("smollm2")[1]
    reference = LlamaForCausalLM.from_pretrained(
        str(path.parent), gguf_file=path.name, attn_implementation="eager", dtype=torch.float32
    ).eval()
    tokenizer = load_model("smollm2").tokenizer
    arrays: dict[str, np.ndarray] = {"texts": np.array(TEXTS)}
    for i, text in enumerate(TEXTS):
        ids = tokenizer.encode(text, add_special_tokens=False).ids
        with torch.no_grad():
            out = reference(input_ids=torch.tensor([ids]), output_attentions=True)
        logits = out.logits[0, -1].numpy()
        top = np.argsort(-logits)[:TOP]
        arrays[f"ids_{i}"] = np.array(ids, dtype=np.int32)
        arrays[f"attention_first_{i}"] = out.attentions[0][0].numpy().astype(np.float32)
        arrays[f"attention_last_{i}"] = out.attentions[-1][0].numpy().astype(np.float32)
        arrays[f"top_ids_{i}"] = top.astype(np.int32)
        arrays[f"top_logits_{i}"] = logits[top].astype(np.float32)
    np.savez_compressed(OUT, **arrays)  # type: ignore[arg-type]
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes, {len(TEXTS)} texts)")


if __name__ == "__main__":
    main()
