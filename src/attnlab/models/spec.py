"""What a decoder is, as numbers and names: the frozen spec one forward pass reads.

nanoGPT's `GPTConfig` grown to the decoders people bring. A reader (models/readers/<arch>.py)
turns a checkpoint's config into a `DecoderSpec` and its tensors into common layer weights;
the forward pass (decoder.py) never asks which architecture it runs, only what the spec says:

    norm      LayerNorm (GPT-2), RMSNorm (Llama), RMSNorm with (1 + γ) (Gemma)
    sandwich  a second norm after attention and after the MLP, before the residual (Gemma 2, 3)
    mlp       GELU (GPT-2), SwiGLU (Llama), GeGLU (Gemma); the GELU exact or tanh-approximated
    positions learned absolute (GPT-2) or RoPE, with its `default`, `linear` and `llama3`
              scalings, a partial rotary fraction (Phi-3) and a second base for local layers
              (Gemma 3: 10,000 on sliding layers, 1,000,000 on global ones)
    qkv_bias, qk_norm, soft-capping of attention logits and final logits (Gemma 2), an
    embedding scale (Gemma: √d), tied embeddings, h query heads over h_kv key/value heads
    (GQA, MQA when h_kv = 1), the query scale (Gemma's query_pre_attn_scalar).

`MaskSpec` says which keys a query sees, layer by layer: causal or not, a sliding window on
some layers (Mistral: every layer; Gemma 2: every other; Gemma 3: five of six) and `sinks`,
the first s keys kept whatever the window (StreamingLLM's attention sinks, Xiao et al., 2023).
The forward blocks, the head recompute, the diagnostics and the page's greyed cells all ask it.

A window of W keys means query i sees keys j with i − W < j ≤ i (transformers' convention:
itself and the W − 1 before it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

import numpy as np

from attnlab.errors import SpecError
from attnlab.types import BoolArray

__all__ = [
    "AttentionKind",
    "DecoderSpec",
    "GeluKind",
    "MaskSpec",
    "MlpKind",
    "NormKind",
    "PositionKind",
    "RopeScaling",
    "RopeScalingKind",
    "RopeSpec",
]

NormKind: TypeAlias = Literal["layernorm", "rmsnorm", "rmsnorm_offset"]
"""LayerNorm (mean, variance, γ, β), RMSNorm (x / rms(x) · γ), Gemma's x / rms(x) · (1+γ)."""
MlpKind: TypeAlias = Literal["gelu", "swiglu", "geglu"]
"""GELU(x W₁) W₂; (SiLU(x W_gate) ⊙ x W_up) W_down; (GELU(x W_gate) ⊙ x W_up) W_down."""
GeluKind: TypeAlias = Literal["exact", "tanh"]
"""GELU as x Φ(x) (erf), or its tanh approximation (GPT-2's gelu_new, Gemma's gelu_pytorch_tanh)."""
PositionKind: TypeAlias = Literal["learned", "rope"]
RopeScalingKind: TypeAlias = Literal["default", "linear", "llama3"]
AttentionKind: TypeAlias = Literal["global", "local"]
"""A layer's keys: every key the causal mask allows (global) or those in its window (local)."""

ROPE_SCALINGS: tuple[RopeScalingKind, ...] = ("default", "linear", "llama3")
NORMS: tuple[NormKind, ...] = ("layernorm", "rmsnorm", "rmsnorm_offset")
MLPS: tuple[MlpKind, ...] = ("gelu", "swiglu", "geglu")


@dataclass(frozen=True)
class RopeScaling:
    """How RoPE's frequencies are stretched for longer contexts (transformers' rope_type).

    default: θᵢ = base^(−2i/d). linear: every θᵢ / factor (positions interpolated). llama3:
    wavelengths longer than original / low_freq_factor divided by factor, shorter than
    original / high_freq_factor kept, those between blended smoothly (Llama 3.1)."""

    kind: RopeScalingKind = "default"
    factor: float = 1.0
    low_freq_factor: float = 1.0
    high_freq_factor: float = 4.0
    original_max_positions: int = 8192

    def __post_init__(self) -> None:
        if self.kind not in ROPE_SCALINGS:
            raise SpecError(
                f"RoPE scaling {self.kind!r} is not supported; supported: "
                + ", ".join(ROPE_SCALINGS)
            )
        if not (math.isfinite(self.factor) and self.factor > 0):
            raise SpecError(f"RoPE scaling factor must be positive, got {self.factor!r}")


@dataclass(frozen=True)
class RopeSpec:
    """Rotary positions (Su et al., 2021) as a layer applies them."""

    base: float = 10_000.0  # rope_theta
    fraction: float = 1.0  # partial_rotary_factor: the first fraction · d_k dims rotate
    pairing: Literal["half", "interleaved"] = "half"  # Hugging Face: (i, i + d/2)
    scaling: RopeScaling = field(default_factory=RopeScaling)

    def rotary_dims(self, d_k: int) -> int:
        """How many of a head's d_k dimensions rotate (an even number)."""
        r = int(d_k * self.fraction)
        return r - r % 2


@dataclass(frozen=True)
class MaskSpec:
    """Which keys each query sees, layer by layer."""

    causal: bool = True
    window: int | None = None  # sliding window W: keys i − W < j ≤ i, on the local layers
    layers: tuple[AttentionKind, ...] = ()  # per layer; () = every layer local iff window set
    sinks: int = 0  # the first s keys always kept (attention sinks)

    def __post_init__(self) -> None:
        if self.window is not None and self.window < 1:
            raise SpecError(f"a sliding window holds at least 1 key, got {self.window!r}")
        if self.sinks < 0:
            raise SpecError(f"sinks counts keys kept, at least 0, got {self.sinks!r}")
        if "local" in self.layers and self.window is None:
            raise SpecError("local layers need a window: set MaskSpec.window")

    def kind_at(self, layer: int) -> AttentionKind:
        """Layer `layer` (0-based) is local (a window) or global."""
        if self.layers:
            return self.layers[layer]
        return "local" if self.window is not None else "global"

    def window_at(self, layer: int) -> int | None:
        """The window of layer `layer`, or None where it sees every earlier key."""
        return self.window if self.kind_at(layer) == "local" else None

    def is_plain(self, layer: int) -> bool:
        """True when the layer's mask is the plain causal one (or none at all)."""
        return self.window_at(layer) is None

    def allowed(self, layer: int, n: int, rows: slice | None = None) -> BoolArray | None:
        """(rows, n) True where query i may see key j, or None when every key is seen."""
        w = self.window_at(layer)
        if not self.causal and w is None:
            return None
        i = np.arange(n)[rows if rows is not None else slice(None)][:, None]  # (r, 1)
        j = np.arange(n)[None, :]  # (1, n)
        ok: BoolArray = (j <= i) if self.causal else np.ones((i.shape[0], n), bool)
        if w is not None:
            near = (j > i - w) if self.causal else (np.abs(j - i) < w)
            if self.sinks:
                near = near | (j < self.sinks)
            ok = ok & near
        return ok


@dataclass(frozen=True)
class DecoderSpec:
    """Everything the decoder forward pass (decoder.py) needs to know about an architecture."""

    architecture: str  # the config's model_type: "llama", "gemma3_text", ...
    n_layers: int
    d_model: int
    n_heads: int  # h query heads
    n_kv_heads: int  # h_kv key/value heads (GQA; MQA when 1)
    head_dim: int  # d_k
    d_ff: int
    vocab_size: int
    max_positions: int
    norm: NormKind = "rmsnorm"
    norm_eps: float = 1e-5
    sandwich: bool = False  # norms after attention and after the MLP too
    mlp: MlpKind = "swiglu"
    gelu: GeluKind = "tanh"
    positions: PositionKind = "rope"
    rope: RopeSpec | None = field(default_factory=RopeSpec)  # global layers' (or every layer's)
    rope_local: RopeSpec | None = None  # local layers' RoPE when it differs (Gemma 3)
    qkv_bias: bool = False  # biases on W_Q, W_K, W_V (Qwen2, GPT-2)
    o_bias: bool = False  # a bias on W_O (GPT-2; Llama's attention_bias)
    mlp_bias: bool = False  # biases on the MLP's matrices (GPT-2; Llama's mlp_bias)
    qk_norm: bool = False  # each head's q and k normed before RoPE (Qwen3, Gemma 3)
    attn_softcap: float | None = None  # scores → c · tanh(scores / c) (Gemma 2)
    final_softcap: float | None = None  # logits → c · tanh(logits / c) (Gemma 2)
    embed_scale: float = 1.0  # x = E[ids] · scale (Gemma: √d_model)
    tied: bool = True  # the logits reuse the embedding matrix
    query_scale: float | None = None  # scores = q·k · scale; None: 1 / √d_k
    mask: MaskSpec = field(default_factory=MaskSpec)

    def __post_init__(self) -> None:
        for name in ("n_layers", "d_model", "n_heads", "n_kv_heads", "head_dim", "d_ff",
                     "vocab_size", "max_positions"):  # fmt: skip
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise SpecError(f"{name} must be a positive whole number, got {value!r}")
        if self.n_heads % self.n_kv_heads:
            raise SpecError(
                f"{self.n_heads} query heads cannot share {self.n_kv_heads} key/value heads "
                "evenly: n_kv_heads must divide n_heads"
            )
        if self.norm not in NORMS:
            raise SpecError(f"norm {self.norm!r} is not supported; supported: {', '.join(NORMS)}")
        if self.mlp not in MLPS:
            raise SpecError(f"mlp {self.mlp!r} is not supported; supported: {', '.join(MLPS)}")
        if self.positions == "rope" and self.rope is None:
            raise SpecError("positions 'rope' need a RopeSpec")
        if self.mask.layers and len(self.mask.layers) != self.n_layers:
            raise SpecError(
                f"the mask names {len(self.mask.layers)} layers' kinds for {self.n_layers} layers"
            )

    @property
    def d_k(self) -> int:
        """The head width (protocol.ArchConfig's name for head_dim)."""
        return self.head_dim

    @property
    def causal(self) -> bool:
        """A decoder: each token sees itself and (some of) the tokens before it."""
        return self.mask.causal

    @property
    def scale(self) -> float:
        """What q·k is multiplied by: 1 / √d_k unless the architecture sets its own."""
        return self.query_scale if self.query_scale is not None else 1 / math.sqrt(self.head_dim)

    def rope_at(self, layer: int) -> RopeSpec | None:
        """The RoPE layer `layer` applies (None for learned positions)."""
        if self.positions != "rope":
            return None
        if self.rope_local is not None and self.mask.kind_at(layer) == "local":
            return self.rope_local
        return self.rope
