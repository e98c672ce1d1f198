"""Every decoder a reader names against transformers' eager float32 pass: a tiny random-weight
model saved by transformers (safetensors, float32), q and k scaled so rows are peaked, loaded by
attnlab's registry, attention within 1e-4 and logits within 1e-3 on the same ids."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from attnlab.models import load_model

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

pytestmark = [
    pytest.mark.torch,
    pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::FutureWarning"),
]

IDS = [5, 17, 3, 99, 42, 8, 61, 23, 77, 14, 31, 2]
SMALL = dict(vocab_size=128, hidden_size=32, intermediate_size=48, num_hidden_layers=3,
             num_attention_heads=4, num_key_value_heads=2, head_dim=8,
             max_position_embeddings=64)  # fmt: skip
CASES: dict[str, dict[str, Any]] = {
    "llama": dict(SMALL, rope_parameters={"rope_type": "llama3", "rope_theta": 500.0,
                  "factor": 4.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                  "original_max_position_embeddings": 8}, attention_bias=True),
    "mistral": dict(SMALL, sliding_window=4),
    "qwen2": dict(SMALL),
    "qwen3": dict(SMALL, rope_parameters={"rope_type": "linear", "rope_theta": 1000.0,
                  "factor": 2.0}),
    "gemma": dict(SMALL),
    "gemma2": dict(SMALL, sliding_window=4, query_pre_attn_scalar=16,
                   attn_logit_softcapping=5.0, final_logit_softcapping=3.0),
    "gemma3_text": dict(SMALL, sliding_window=4, sliding_window_pattern=2,
                        layer_types=["sliding_attention", "full_attention", "sliding_attention"]),
    "phi3": dict(SMALL, pad_token_id=0, rope_parameters={"rope_type": "default",
                 "rope_theta": 1000.0, "partial_rotary_factor": 0.5}),
    "gpt2": dict(vocab_size=128, n_embd=32, n_layer=2, n_head=4, n_positions=64),
}  # fmt: skip


def _tokenizer(folder: Path) -> None:
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = {f"t{i}": i for i in range(128)}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="t0"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.save(str(folder / "tokenizer.json"))


def _peaked(model: Any) -> None:
    """Scale q and k projections (and random norms) so that attention rows are peaked."""
    with torch.no_grad():
        for name, p in model.named_parameters():
            if any(k in name for k in ("q_proj.weight", "k_proj.weight", "qkv_proj", "c_attn")):
                p.mul_(12.0)
            elif "q_norm" in name or "k_norm" in name:  # QK-norm undoes a scale of W_Q, W_K
                p.copy_(3.0 + 0.3 * torch.randn_like(p))
            elif name.endswith("norm.weight") and p.dim() == 1:
                offset = "gemma" in type(model).__name__.lower()  # Gemma stores γ − 1
                p.copy_(0.3 * torch.randn_like(p) + (0.0 if offset else 1.0))


@pytest.mark.parametrize("arch", list(CASES))
def test_a_tiny_folder_matches_transformers(arch: str, tmp_path: Path) -> None:
    torch.manual_seed(0)
    config = transformers.AutoConfig.for_model(arch, **CASES[arch])
    model = transformers.AutoModelForCausalLM.from_config(config, attn_implementation="eager")
    model = model.float().eval()
    _peaked(model)
    model.save_pretrained(tmp_path)
    _tokenizer(tmp_path)
    ours = load_model(tmp_path)
    assert ours.config.architecture == arch
    t = ours.trace_ids(tuple(IDS))  # type: ignore[attr-defined]
    with torch.no_grad():
        out = model(input_ids=torch.tensor([IDS]), output_attentions=True)
    ref = torch.stack(out.attentions)[:, 0].numpy()  # (L, H, n, n)
    d_att = float(np.abs(t.attentions - ref).max())
    logits = np.stack([t.logits(i) for i in range(len(IDS))])
    d_logits = float(np.abs(logits - out.logits[0].numpy()).max())
    peak = float(ref.max(-1).mean())
    print(f"{arch}: attention Δ {d_att:.1e}, logits Δ {d_logits:.1e}, row max {peak:.2f}")
    assert peak > 0.5, "rows too flat for a telling check"
    assert d_att < 1e-4
    assert d_logits < 1e-3
