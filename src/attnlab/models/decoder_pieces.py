"""A decoder layer's pieces besides attention, picked by the spec: the norm, the MLP, the caps.

    norm   LayerNorm  (x − mean) / √(var + ε) · γ + β          (GPT-2; nn.layer_norm)
           RMSNorm    x / √(mean(x²) + ε) · γ                  (Llama; nn_decoder.rms_norm)
           Gemma's    x / √(mean(x²) + ε) · (1 + γ)            the 1 + γ is added once at load
    mlp    gelu       GELU(x W₁ + b₁) W₂ + b₂                   (GPT-2)
           swiglu     (SiLU(x W_gate) ⊙ x W_up) W_down         (Llama; Shazeer, 2020)
           geglu      (GELU(x W_gate) ⊙ x W_up) W_down         (Gemma)
    GELU exact (erf, nn.gelu) or its tanh form ½x(1 + tanh(√(2/π)(x + 0.044715x³))), which
    GPT-2 (gelu_new) and Gemma (gelu_pytorch_tanh) use.
    soft-cap  c · tanh(z / c)                                   (Gemma 2's logits)

Everything in the input's float dtype, as transformers computes float32 weights.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attnlab.models.nn import gelu, layer_norm
from attnlab.models.nn_decoder import rms_norm, swiglu
from attnlab.models.spec import GeluKind, MlpKind, NormKind
from attnlab.types import FloatArray

__all__ = ["Mlp", "Norm", "gelu_tanh", "soft_cap"]


@dataclass(frozen=True)
class Norm:
    """One norm's parameters as the forward pass uses them: γ (already 1 + γ for Gemma's) and
    β for LayerNorm."""

    gamma: FloatArray  # (d,)
    beta: FloatArray | None = None  # (d,) LayerNorm's shift
    eps: float = 1e-5

    @classmethod
    def of(cls, kind: NormKind, weight: FloatArray, bias: FloatArray | None, eps: float) -> Norm:
        """From the checkpoint's tensors: Gemma stores γ − 1, so 1 + γ is computed here once."""
        if kind == "rmsnorm_offset":
            weight = (1 + weight.astype(np.float32)).astype(weight.dtype)
        if kind == "layernorm" and bias is None:
            bias = np.zeros_like(weight)
        return cls(weight, bias if kind == "layernorm" else None, eps)

    def __call__(self, x: FloatArray) -> FloatArray:
        """(..., d) -> (..., d)."""
        if self.beta is not None:
            return layer_norm(x, self.gamma, self.beta, eps=self.eps)
        return rms_norm(x, self.gamma, eps=self.eps)


def gelu_tanh(x: FloatArray) -> FloatArray:
    """½x(1 + tanh(√(2/π)(x + 0.044715x³))), elementwise in x's dtype."""
    t = x.dtype.type
    inner = x * x  # (...) x²
    inner *= t(0.044715)
    inner += t(1)
    inner *= x  # x + 0.044715x³
    inner *= t(math.sqrt(2 / math.pi))
    np.tanh(inner, out=inner)
    inner += t(1)
    inner *= x
    inner *= t(0.5)
    return inner


def _gelu(x: FloatArray, kind: GeluKind) -> FloatArray:
    return gelu_tanh(x) if kind == "tanh" else gelu(x)


@dataclass(frozen=True)
class Mlp:
    """One layer's MLP: w_in (d, 2 d_ff) [W_gate | W_up] for gated kinds, (d, d_ff) for gelu;
    w_out (d_ff, d); biases (GPT-2's) or None."""

    kind: MlpKind
    gelu: GeluKind
    w_in: FloatArray
    w_out: FloatArray
    b_in: FloatArray | None = None
    b_out: FloatArray | None = None

    def __call__(self, x: FloatArray) -> FloatArray:
        """(n, d) -> (n, d)."""
        if self.kind == "swiglu" and self.b_in is None and self.b_out is None:
            return swiglu(x, self.w_in, self.w_out)
        h = x @ self.w_in  # (n, d_ff) or (n, 2 d_ff)
        if self.b_in is not None:
            h += self.b_in
        if self.kind == "gelu":
            a = _gelu(h, self.gelu)  # (n, d_ff)
        else:
            d_ff = self.w_out.shape[0]
            gate, up = h[:, :d_ff], h[:, d_ff:]  # (n, d_ff) views
            act = _gelu(np.ascontiguousarray(gate), self.gelu) if self.kind == "geglu" else (
                gate / (1 + np.exp(-gate))
            )  # fmt: skip
            a = act * up  # (n, d_ff)
        out: FloatArray = a @ self.w_out  # (n, d)
        if self.b_out is not None:
            out += self.b_out
        return out


def soft_cap(z: FloatArray, cap: float | None) -> FloatArray:
    """c · tanh(z / c), or z itself when there is no cap."""
    if cap is None:
        return z
    c = z.dtype.type(cap)
    out: FloatArray = np.tanh(z / c) * c
    return out
