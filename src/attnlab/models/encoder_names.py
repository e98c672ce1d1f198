"""DistilBERT and RoBERTa folders read as BERT: their config keys and tensor names mapped.

Both are BERT's encoder (post-LayerNorm, exact GELU, learned absolute positions), so one
forward pass serves all three (bert.py); what differs is where the numbers are written:

    RoBERTa (Liu et al., 2019)  BERT's keys and tensor names (a "roberta." prefix in
        RobertaForMaskedLM); one segment type; positions counted from padding_idx + 1, as
        transformers' create_position_ids_from_input_ids does: a token's position is
        padding_idx + (its index among the non-padding tokens, from 1), a padding token's is
        padding_idx, so a 514-row table holds 512 tokens.
    DistilBERT (Sanh et al., 2019)  its own keys (dim, n_layers, n_heads, hidden_dim,
        activation) and names (transformer.layer.{i}.attention.q_lin, sa_layer_norm, ffn.lin1,
        output_layer_norm; a "distilbert." prefix in DistilBertForMaskedLM); no segment
        embeddings, so a zero row stands in for BERT's E_type[0]; LayerNorm ε 1e-12 fixed.

`bert_keys` names each BertConfig field's config.json key for an architecture, so a refusal names
the key the file really has ("config.json lacks dim"); `bert_tensors` renames a folder's tensors
into BERT's names and `own_name` names one back as the file has it, so a refusal names the
tensor the user can find ("lacks transformer.layer.1.ffn.lin2.weight").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from attnlab.types import FloatArray

__all__ = ["ENCODERS", "bert_keys", "bert_tensors", "layer_prefix", "own_name", "task_prefix"]

ENCODERS = ("bert", "distilbert", "roberta")
"""config.json model_types the BERT forward pass runs."""

_BERT_KEYS = {
    "vocab_size": "vocab_size", "d_model": "hidden_size", "n_layers": "num_hidden_layers",
    "n_heads": "num_attention_heads", "d_ff": "intermediate_size",
    "max_positions": "max_position_embeddings", "type_vocab_size": "type_vocab_size",
    "act": "hidden_act", "eps": "layer_norm_eps",
}  # fmt: skip
_DISTIL_KEYS = {
    "vocab_size": "vocab_size", "d_model": "dim", "n_layers": "n_layers", "n_heads": "n_heads",
    "d_ff": "hidden_dim", "max_positions": "max_position_embeddings", "act": "activation",
}  # fmt: skip
_DISTIL_LAYER = {  # DistilBERT's per-layer names -> BERT's
    "attention.q_lin": "attention.self.query",
    "attention.k_lin": "attention.self.key",
    "attention.v_lin": "attention.self.value",
    "attention.out_lin": "attention.output.dense",
    "sa_layer_norm": "attention.output.LayerNorm",
    "ffn.lin1": "intermediate.dense",
    "ffn.lin2": "output.dense",
    "output_layer_norm": "output.LayerNorm",
}
PREFIXES = {"bert": "bert.", "distilbert": "distilbert.", "roberta": "roberta."}
"""The prefix a task head's checkpoint (…ForMaskedLM) puts before the encoder's names."""


def bert_keys(kind: str) -> Mapping[str, str]:
    """BertConfig's fields -> this architecture's config.json keys (absent: not in its config)."""
    return _DISTIL_KEYS if kind == "distilbert" else _BERT_KEYS


_BERT_LAYER = {bert: distil for distil, bert in _DISTIL_LAYER.items()}


def task_prefix(names: Iterable[str], kind: str) -> str:
    """The prefix a task head's checkpoint puts before the encoder's names ("distilbert."), or
    "" for a bare encoder's."""
    prefix = PREFIXES[kind]
    return prefix if any(name.startswith(prefix) for name in names) else ""


def layer_prefix(kind: str) -> str:
    """Where the file names its layers: "transformer.layer." (DistilBERT), "encoder.layer."."""
    return "transformer.layer." if kind == "distilbert" else "encoder.layer."


def own_name(name: str, kind: str, prefix: str = "") -> str:
    """BERT's name of a tensor as the folder's own file writes it, `prefix` (task_prefix)
    first: DistilBERT's encoder.layer.1.output.dense.weight is transformer.layer.1.ffn.lin2
    .weight."""
    parts = name.split(".")
    if kind == "distilbert" and parts[:2] == ["encoder", "layer"] and len(parts) > 3:
        inner, leaf = ".".join(parts[3:-1]), parts[-1]
        name = f"transformer.layer.{parts[2]}.{_BERT_LAYER.get(inner, inner)}.{leaf}"
    return prefix + name


def bert_tensors(raw: Mapping[str, FloatArray], kind: str) -> dict[str, FloatArray]:
    """The folder's tensors under BERT's names (a task head's prefix removed)."""
    prefix = PREFIXES[kind]
    if any(name.startswith(prefix) for name in raw):
        raw = {name.removeprefix(prefix): a for name, a in raw.items() if name.startswith(prefix)}
    if kind != "distilbert":
        return dict(raw)
    out: dict[str, FloatArray] = {}
    for name, a in raw.items():
        parts = name.split(".")
        if parts[:2] == ["transformer", "layer"] and len(parts) > 3:
            inner, leaf = ".".join(parts[3:-1]), parts[-1]
            name = f"encoder.layer.{parts[2]}.{_DISTIL_LAYER.get(inner, inner)}.{leaf}"
        out[name] = a
    word = out.get("embeddings.word_embeddings.weight")
    if word is not None:  # no segments: E_type[0] = 0 adds nothing
        out["embeddings.token_type_embeddings.weight"] = np.zeros((1, word.shape[1]), word.dtype)
    return out
