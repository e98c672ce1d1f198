"""GPT-2: learned absolute positions (wpe) added to the token embeddings (wte), LayerNorm with
its bias, biases on every projection, a GELU MLP (gelu_new: the tanh form), multi-head
attention, the logits reusing wte. Its Conv1D layers store (in, out): x @ W as stored.

Names: h.i.{ln_1, attn.c_attn, attn.c_proj, ln_2, mlp.c_fc, mlp.c_proj}, ln_f, with the
"transformer." prefix GPT2LMHeadModel saves (hub checkpoints saved from GPT2Model lack it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from attnlab.errors import UnsupportedError
from attnlab.models.config_checks import config_eps, config_int
from attnlab.models.decoder import DecoderWeights, LayerWeights
from attnlab.models.decoder_pieces import Mlp, Norm
from attnlab.models.readers.common import Tensors, refuse_activation
from attnlab.models.spec import DecoderSpec
from attnlab.types import FloatArray

GELUS = {"gelu_new": "tanh", "gelu_pytorch_tanh": "tanh", "gelu": "exact"}


def spec_of(c: Mapping[str, Any]) -> DecoderSpec:
    """The spec of a GPT-2 config.json."""
    if c.get("scale_attn_by_inverse_layer_idx"):
        raise UnsupportedError(
            "config.json: scale_attn_by_inverse_layer_idx true is not supported; supported: "
            "false (the scores divided by √d_k alone)"
        )
    d, h = config_int(c, "n_embd"), config_int(c, "n_head")
    gelu = refuse_activation(c, GELUS, "activation_function")
    return DecoderSpec(
        "gpt2", n_layers=config_int(c, "n_layer"), d_model=d, n_heads=h, n_kv_heads=h,
        head_dim=d // h, d_ff=int(c.get("n_inner") or 4 * d),
        vocab_size=config_int(c, "vocab_size"),
        max_positions=config_int(c, "n_positions", default=1024), norm="layernorm",
        norm_eps=config_eps(c, "layer_norm_epsilon", default=1e-5), mlp="gelu",
        gelu="exact" if gelu == "exact" else "tanh", positions="learned", rope=None,
        qkv_bias=True, o_bias=True, mlp_bias=True, tied=True,
        query_scale=None if c.get("scale_attn_weights", True) else 1.0,
    )  # fmt: skip


def read(
    c: Mapping[str, Any], tensors: Mapping[str, FloatArray]
) -> tuple[DecoderSpec, DecoderWeights]:
    spec = spec_of(c)
    prefixed = any(name.startswith("transformer.") for name in tensors)
    t = Tensors(tensors)
    p0 = "transformer." if prefixed else ""
    d, ff, eps = spec.d_model, spec.d_ff, spec.norm_eps

    def norm(name: str) -> Norm:
        return Norm.of("layernorm", t.get(name + ".weight", (d,)), t.get(name + ".bias", (d,)), eps)

    def layer(i: int) -> LayerWeights:
        p = f"{p0}h.{i}."
        return LayerWeights(
            norm_attn=norm(p + "ln_1"),
            w_qkv=t.get(p + "attn.c_attn.weight", (d, 3 * d)),  # Conv1D: (in, out) already
            b_qkv=t.get(p + "attn.c_attn.bias", (3 * d,)),
            w_o=t.get(p + "attn.c_proj.weight", (d, d)),
            b_o=t.get(p + "attn.c_proj.bias", (d,)),
            norm_mlp=norm(p + "ln_2"),
            mlp=Mlp(
                "gelu",
                spec.gelu,
                t.get(p + "mlp.c_fc.weight", (d, ff)),
                t.get(p + "mlp.c_proj.weight", (ff, d)),
                t.get(p + "mlp.c_fc.bias", (ff,)),
                t.get(p + "mlp.c_proj.bias", (d,)),
            ),
        )

    wte = t.get(p0 + "wte.weight", (spec.vocab_size, d))
    return spec, DecoderWeights(
        embedding=wte,
        layers=tuple(layer(i) for i in range(spec.n_layers)),
        final_norm=norm(p0 + "ln_f"),
        unembed=wte,
        positions=t.get(p0 + "wpe.weight", (spec.max_positions, d)),
    )
