"""The Llama-family decoder as it was first loaded: `LlamaDecoder`, now a thin name for the
one spec-driven `Decoder` (decoder.py) read from a `LlamaCheckpoint` (a GGUF file such as
SmolLM2's, or a Hugging Face folder: llama_checkpoint.py).

For SmolLM2-135M the spec says: 30 layers, d_model 576, 9 query heads sharing 3 key/value heads
(grouped-query attention, Ainslie et al., 2023), d_k 64, RMSNorm, SwiGLU width 1,536, RoPE base
100,000 with the half pairing (i, i + d_k/2), the logits reusing the embedding matrix. Its
`config` stays the `LlamaConfig` the checkpoint holds (rope_base, rms_eps, tied, special).

A text is tokenized without a beginning-of-text token, as SmolLM2's tokenizer does.
"""

from __future__ import annotations

from attnlab.models.decoder import MAX_TOKENS, ROWS_SPLIT_FROM, Decoder, row_parts
from attnlab.models.llama_checkpoint import LlamaCheckpoint, LlamaConfig
from attnlab.models.readers.common import Tensors, llama_layout
from attnlab.models.spec import DecoderSpec, RopeSpec

__all__ = ["MAX_TOKENS", "ROWS_SPLIT_FROM", "LlamaDecoder", "llama_spec", "row_parts"]


def llama_spec(c: LlamaConfig) -> DecoderSpec:
    """The DecoderSpec of a checked LlamaConfig: RMSNorm, SwiGLU, unscaled half-split RoPE."""
    return DecoderSpec(
        "llama", n_layers=c.n_layers, d_model=c.d_model, n_heads=c.n_heads,
        n_kv_heads=c.n_kv_heads, head_dim=c.d_k, d_ff=c.d_ff, vocab_size=c.vocab_size,
        max_positions=c.max_positions, norm="rmsnorm", norm_eps=c.rms_eps, mlp="swiglu",
        rope=RopeSpec(base=c.rope_base), tied=c.tied,
    )  # fmt: skip


class LlamaDecoder(Decoder):
    """A loaded Llama-family decoder (a `Model`, protocol.py): `trace(text)` runs the pass."""

    def __init__(self, checkpoint: LlamaCheckpoint, *, name: str | None = None) -> None:
        c = checkpoint.config
        spec = llama_spec(c)
        weights = llama_layout(spec, Tensors(checkpoint.tensors, file=checkpoint.source.name))
        super().__init__(spec, weights, checkpoint.tokenizer,
                         name=name or checkpoint.source.stem, special=c.special)  # fmt: skip
        self.llama_config = c

    @property
    def config(self) -> LlamaConfig:  # type: ignore[override]
        """The checkpoint's LlamaConfig (rope_base, rms_eps, tied, special), an ArchConfig."""
        return self.llama_config

    def __repr__(self) -> str:
        c = self.llama_config
        return (
            f"LlamaDecoder({self.name!r}: {c.n_layers} layers, {c.n_heads} query heads over "
            f"{c.n_kv_heads} key/value heads, d_model {c.d_model}, d_k {c.d_k})"
        )
