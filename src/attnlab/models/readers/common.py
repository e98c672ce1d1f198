"""What every architecture's reader shares: a config's numbers, RoPE and mask settings in
transformers 4's and 5's layouts, tensors checked by name and shape, the Llama tensor layout.

Config layouts differ by transformers version:

    RoPE     5: rope_parameters {rope_type, rope_theta, factor, partial_rotary_factor, ...}, or
                one such object per layer type ({"full_attention": …, "sliding_attention": …})
             4: rope_theta, rope_scaling {rope_type | type, factor, ...}, partial_rotary_factor,
                and Gemma 3's rope_local_base_freq
    windows  5: layer_types ["sliding_attention" | "full_attention", …] and sliding_window
             4: sliding_window with a per-architecture rule (every layer, every other, 5 of 6)

Each refusal is a `ConfigError`, `UnsupportedError` or `WeightsError` naming the key or tensor.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias, TypedDict

import numpy as np

from attnlab.errors import ConfigError, UnsupportedError, WeightsError
from attnlab.models.config_checks import config_eps, config_int
from attnlab.models.decoder import DecoderWeights, LayerWeights
from attnlab.models.decoder_pieces import Mlp, Norm
from attnlab.models.spec import (
    ROPE_SCALINGS,
    AttentionKind,
    DecoderSpec,
    MaskSpec,
    RopeScaling,
    RopeSpec,
)
from attnlab.types import FloatArray

__all__ = [
    "Reader",
    "Tensors",
    "llama_layout",
    "mask_of",
    "refuse_experts",
    "rope_of",
    "sizes_of",
]

Reader: TypeAlias = Callable[
    [Mapping[str, Any], Mapping[str, FloatArray]], tuple[DecoderSpec, DecoderWeights]
]
"""(config.json as a dict, {Hugging Face tensor name: array}) -> (spec, common weights)."""

WHERE = "config.json"


class Sizes(TypedDict):
    """DecoderSpec's eight sizes, as `DecoderSpec(arch, **sizes, ...)` takes them."""

    n_layers: int
    d_model: int
    n_heads: int
    n_kv_heads: int
    head_dim: int
    d_ff: int
    vocab_size: int
    max_positions: int


def sizes_of(c: Mapping[str, Any], *, d_ff_key: str = "intermediate_size") -> Sizes:
    """The DecoderSpec sizes from the usual Hugging Face keys."""
    d = config_int(c, "hidden_size")
    h = config_int(c, "num_attention_heads")
    kv = config_int(
        {"num_key_value_heads": c.get("num_key_value_heads") or h}, "num_key_value_heads"
    )
    head_dim = c.get("head_dim")
    return {
        "n_layers": config_int(c, "num_hidden_layers"),
        "d_model": d,
        "n_heads": h,
        "n_kv_heads": kv,
        "head_dim": config_int(c, "head_dim") if head_dim else d // h,
        "d_ff": config_int(c, d_ff_key),
        "vocab_size": config_int(c, "vocab_size"),
        "max_positions": config_int(c, "max_position_embeddings", default=2048),
    }


def norm_eps(c: Mapping[str, Any], key: str = "rms_norm_eps", default: float = 1e-6) -> float:
    return config_eps(c, key, default=default)


def refuse_experts(c: Mapping[str, Any]) -> None:
    """A mixture of experts is refused by name: the forward pass has one MLP per layer."""
    for key in ("num_local_experts", "num_experts", "n_routed_experts", "moe_intermediate_size"):
        if c.get(key):
            raise UnsupportedError(
                f"{WHERE}: {key} is {c[key]!r}: a mixture of experts, which attnlab does not "
                "run; it runs one MLP per layer (gpt2, llama, mistral, qwen2, qwen3, gemma, "
                "gemma2, gemma3_text, phi3)"
            )


def refuse_activation(c: Mapping[str, Any], allowed: Mapping[str, str], *keys: str) -> str:
    """The config's activation (the first of `keys` present) as the spec's GELU kind or
    "silu"; UnsupportedError listing `allowed` otherwise."""
    for key in keys:
        if key in c and c[key] is not None:
            act = c[key]
            if act not in allowed:
                raise UnsupportedError(
                    f"{WHERE}: {key} {act!r} is not supported; supported: "
                    + ", ".join(repr(a) for a in allowed)
                )
            return allowed[act]
    return next(iter(allowed.values()))


def _scaling(params: Mapping[str, Any]) -> RopeScaling:
    """A RopeScaling from a rope_parameters / rope_scaling object."""
    kind = params.get("rope_type", params.get("type", "default")) or "default"
    if kind not in ROPE_SCALINGS:
        raise UnsupportedError(
            f"{WHERE}: RoPE type {kind!r} is not supported; supported: {', '.join(ROPE_SCALINGS)}"
        )
    if kind == "default":
        return RopeScaling()
    try:
        factor = float(params["factor"])
        if kind == "linear":
            return RopeScaling("linear", factor)
        return RopeScaling(
            "llama3", factor, float(params["low_freq_factor"]),
            float(params["high_freq_factor"]), int(params["original_max_position_embeddings"]),
        )  # fmt: skip
    except KeyError as exc:
        raise ConfigError(f"{WHERE}: RoPE type {kind!r} lacks {exc.args[0]!r}") from None
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{WHERE}: RoPE type {kind!r} holds a bad number: {exc}") from None


def rope_of(c: Mapping[str, Any], *, layer_type: str = "full_attention") -> RopeSpec:
    """The RoPE of layers of `layer_type`, from either layout (module docstring)."""
    params = c.get("rope_parameters")
    if isinstance(params, Mapping) and layer_type in params:  # 5: one object per layer type
        params = params[layer_type]
    if not isinstance(params, Mapping):  # 4: top-level keys and rope_scaling
        params = {**(c.get("rope_scaling") or {}), "rope_theta": c.get("rope_theta", 10_000.0)}
        if "partial_rotary_factor" in c:
            params["partial_rotary_factor"] = c["partial_rotary_factor"]
    try:
        base = float(params.get("rope_theta", c.get("rope_theta", 10_000.0)))
        fraction = float(params.get("partial_rotary_factor", c.get("partial_rotary_factor", 1.0)))
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{WHERE}: rope_theta must be a number: {exc}") from None
    if not (np.isfinite(base) and base > 1):
        raise ConfigError(f"{WHERE}: rope_theta {base!r} must be a number above 1")
    if not 0 < fraction <= 1:
        raise ConfigError(f"{WHERE}: partial_rotary_factor {fraction!r} must be in (0, 1]")
    return RopeSpec(base=base, fraction=fraction, scaling=_scaling(params))


def mask_of(
    c: Mapping[str, Any], n_layers: int, *, local: Callable[[int], bool] | None = None
) -> MaskSpec:
    """The causal mask with the config's sliding window on the layers that slide: those
    `layer_types` names "sliding_attention" (transformers 5), else those `local(i)` picks
    (transformers 4's rule for the architecture), else every layer when a window is set."""
    window = c.get("sliding_window")
    types = c.get("layer_types")
    if window is None:
        return MaskSpec()
    w = config_int(c, "sliding_window")
    if types is not None:
        if len(types) != n_layers:
            raise ConfigError(
                f"{WHERE}: layer_types names {len(types)} layers; num_hidden_layers is {n_layers}"
            )
        unknown = sorted(set(types) - {"sliding_attention", "full_attention"})
        if unknown:
            raise UnsupportedError(
                f"{WHERE}: layer type {unknown[0]!r} is not supported; supported: "
                "'sliding_attention', 'full_attention'"
            )
        slides = [t == "sliding_attention" for t in types]
    elif local is not None:
        slides = [local(i) for i in range(n_layers)]
    else:
        slides = [True] * n_layers
    kinds: tuple[AttentionKind, ...] = tuple("local" if s else "global" for s in slides)
    if "local" not in kinds:
        return MaskSpec()
    return MaskSpec(window=w, layers=kinds)


@dataclass(frozen=True)
class Tensors:
    """A checkpoint's tensors, each read checked against the shape the spec implies."""

    t: Mapping[str, FloatArray]
    file: str = "model.safetensors"

    def has(self, name: str) -> bool:
        return name in self.t

    def get(self, name: str, shape: tuple[int, ...]) -> FloatArray:
        """Tensor `name` in float32, once its shape is `shape`; WeightsError otherwise."""
        a = self.t.get(name)
        if a is None:
            raise WeightsError(f"{self.file} lacks the tensor {name} the decoder needs")
        if getattr(a, "dtype", np.dtype(object)).kind != "f":
            raise WeightsError(f"{self.file}: tensor {name} has dtype {a.dtype}")
        if tuple(a.shape) != shape:
            raise WeightsError(
                f"{self.file}: tensor {name} has shape {tuple(a.shape)}; config.json implies "
                f"{shape}: the config does not match the tensors"
            )
        return a.astype(np.float32, copy=False)

    def linear(self, name: str, out: int, inp: int) -> FloatArray:
        """nn.Linear's weight (out, in) as a transposed (in, out) view for x @ W."""
        return self.get(name, (out, inp)).T

    def optional(self, name: str, shape: tuple[int, ...], wanted: bool) -> FloatArray | None:
        return self.get(name, shape) if wanted else None


def llama_layout(
    spec: DecoderSpec,
    t: Tensors,
    *,
    prefix: str = "model.",
    fused: bool = False,
    post_attn_names: tuple[str, str] | None = None,
) -> DecoderWeights:
    """Weights in the Llama layout (model.layers.i.self_attn.q_proj, mlp.gate_proj, …) that
    Mistral, Qwen2/3, Gemma 1–3 and Phi-3 share. `fused`: Phi-3's qkv_proj and gate_up_proj.
    `post_attn_names`: the sandwich names (Gemma 2, 3), where post_attention_layernorm follows
    attention and pre_feedforward_layernorm precedes the MLP."""
    d, dk, ff = spec.d_model, spec.head_dim, spec.d_ff
    hq, hkv = spec.n_heads * dk, spec.n_kv_heads * dk
    kind, eps = spec.norm, spec.norm_eps
    gated = spec.mlp != "gelu"

    def norm(name: str, size: int = d) -> Norm:
        return Norm.of(kind, t.get(name + ".weight", (size,)), None, eps)

    def layer(i: int) -> LayerWeights:
        p = f"{prefix}layers.{i}."
        a = p + "self_attn."
        if fused:
            w_qkv = t.linear(a + "qkv_proj.weight", hq + 2 * hkv, d)
            w_in = t.linear(p + "mlp.gate_up_proj.weight", 2 * ff, d)
        else:
            w_qkv = np.concatenate([t.get(a + f"{x}_proj.weight", (o, d)) for x, o in
                                    (("q", hq), ("k", hkv), ("v", hkv))]).T  # fmt: skip
            w_in = (
                np.concatenate(
                    [t.get(p + f"mlp.{x}_proj.weight", (ff, d)) for x in ("gate", "up")]
                ).T
                if gated
                else t.linear(p + "mlp.up_proj.weight", ff, d)
            )
        b_qkv = (
            np.concatenate(
                [t.get(a + f"{x}_proj.bias", (o,)) for x, o in (("q", hq), ("k", hkv), ("v", hkv))]
            )
            if spec.qkv_bias
            else None
        )
        b_in = b_out = None
        if spec.mlp_bias:
            b_in = np.concatenate(
                [
                    t.get(p + f"mlp.{x}_proj.bias", (ff,))
                    for x in (("gate", "up") if gated else ("up",))
                ]
            )
            b_out = t.get(p + "mlp.down_proj.bias", (d,))
        pre_mlp, post_attn = "post_attention_layernorm", None
        if post_attn_names is not None:
            post_attn, pre_mlp = post_attn_names
        return LayerWeights(
            norm_attn=norm(p + "input_layernorm"),
            w_qkv=w_qkv,
            w_o=t.linear(a + "o_proj.weight", d, hq),
            norm_mlp=norm(p + pre_mlp),
            mlp=Mlp(
                spec.mlp, spec.gelu, w_in, t.linear(p + "mlp.down_proj.weight", d, ff), b_in, b_out
            ),
            b_qkv=b_qkv,
            b_o=t.get(a + "o_proj.bias", (d,)) if spec.o_bias else None,
            q_norm=norm(a + "q_norm", dk) if spec.qk_norm else None,
            k_norm=norm(a + "k_norm", dk) if spec.qk_norm else None,
            post_attn=norm(p + post_attn) if post_attn is not None else None,
            post_mlp=norm(p + "post_feedforward_layernorm") if post_attn is not None else None,
        )

    embedding = t.get(prefix + "embed_tokens.weight", (spec.vocab_size, d))
    unembed = embedding if spec.tied else t.get("lm_head.weight", (spec.vocab_size, d))
    return DecoderWeights(
        embedding=embedding,
        layers=tuple(layer(i) for i in range(spec.n_layers)),
        final_norm=norm(prefix + "norm"),
        unembed=unembed,
    )
