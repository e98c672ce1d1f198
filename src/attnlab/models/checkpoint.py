"""Reading a BERT checkpoint from a folder in the Hugging Face layout, checked before use.

The folder holds three files, as `transformers` writes them for `BertModel` (and for
`DistilBertModel` and `RobertaModel`, whose keys and names encoder_names.py maps to BERT's):

    config.json         the architecture: hidden_size, num_hidden_layers, num_attention_heads, ...
    model.safetensors   the tensors, by their Hugging Face names (embeddings.word_embeddings.weight,
                        encoder.layer.0.attention.self.query.weight, ...), read by
                        tensor_files.py (float32, float16 or bfloat16; or sharded, with
                        model.safetensors.index.json); a "bert." prefix (as in
                        BertForMaskedLM) is accepted
    tokenizer.json      a `tokenizers` WordPiece tokenizer; padding and truncation are turned off

Every problem is a `WeightsError` that names the file, the tensor and the expected and found
shape or dtype, so a malformed folder fails at load time with a sentence, not later with a
broadcasting error. `tokenizers` (the `models` extra) is imported here only.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from attnlab.errors import AttnlabError, WeightsError
from attnlab.models.config_checks import (
    check_divides,
    check_finite_weights,
    check_layer_count,
    check_matches_tensor,
    config_eps,
    config_int,
)
from attnlab.models.default_ids import template_tokens
from attnlab.models.encoder_names import (
    ENCODERS,
    bert_keys,
    bert_tensors,
    layer_prefix,
    own_name,
    task_prefix,
)
from attnlab.models.model_trace import SPECIAL
from attnlab.models.tensor_files import (
    INDEX,
    PICKLES,
    SINGLE,
    read_tensors,
    stored_dtypes,
    tensor_files,
)
from attnlab.types import FloatArray

if TYPE_CHECKING:
    from tokenizers import Tokenizer

FILES = ("config.json", "model.safetensors", "tokenizer.json")
_INSTALL = "pip install 'attnlab[models]'"


@dataclass(frozen=True)
class BertConfig:
    """The numbers from config.json that the forward pass needs (names as in the paper)."""

    vocab_size: int
    d_model: int  # hidden_size
    n_layers: int  # num_hidden_layers
    n_heads: int  # num_attention_heads
    d_ff: int  # intermediate_size
    max_positions: int  # max_position_embeddings
    type_vocab_size: int
    layer_norm_eps: float
    kind: str = "bert"  # config.json's model_type: bert, distilbert or roberta
    pad_id: int | None = None  # RoBERTa: positions count from pad_id + 1 (encoder_names.py)
    special: tuple[str, ...] = SPECIAL  # the tokenizer's special tokens

    @property
    def d_k(self) -> int:
        """The width of one head's queries and keys: d_model / n_heads."""
        return self.d_model // self.n_heads

    @property
    def architecture(self) -> str:
        return self.kind

    @property
    def position_offset(self) -> int:
        """The first text token's row in the position table: 0, or RoBERTa's pad_id + 1."""
        return 0 if self.pad_id is None else self.pad_id + 1

    @property
    def n_kv_heads(self) -> int:
        """Every BERT head has its own keys and values (multi-head, not grouped-query)."""
        return self.n_heads

    @property
    def causal(self) -> bool:
        """An encoder: every token sees every other."""
        return False

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, where: str = "config.json") -> BertConfig:
        """Read and check Hugging Face's config.json fields for a BERT-family encoder."""
        kind = data.get("model_type", "bert")
        if kind not in ENCODERS:
            raise WeightsError(
                f"{where}: model_type is {kind!r}; expected one of {', '.join(ENCODERS)}"
            )
        keys = bert_keys(kind)
        act = data.get(keys["act"], "gelu")
        if act != "gelu":
            raise WeightsError(f"{where}: {keys['act']} {act!r} is not supported; expected 'gelu'")
        pos = data.get("position_embedding_type", "absolute")
        if pos != "absolute":
            raise WeightsError(f"{where}: position_embedding_type {pos!r}; expected 'absolute'")

        def size(ours: str) -> int:
            return config_int(data, keys[ours], where=where)

        types = size("type_vocab_size") if kind != "distilbert" else 1
        eps = config_eps(data, keys["eps"], where=where, default=1e-12) if "eps" in keys else 1e-12
        pad = None
        if kind == "roberta":
            pad = data.get("pad_token_id", 1)
            if (
                isinstance(pad, bool)
                or not isinstance(pad, int)
                or not 0 <= pad < size("max_positions")
            ):
                raise WeightsError(f"{where}: pad_token_id must be a token id, got {pad!r}")
        config = cls(
            vocab_size=size("vocab_size"), d_model=size("d_model"), n_layers=size("n_layers"),
            n_heads=size("n_heads"), d_ff=size("d_ff"), max_positions=size("max_positions"),
            type_vocab_size=types, layer_norm_eps=eps, kind=kind, pad_id=pad,
        )  # fmt: skip
        check_divides(config.d_model, config.n_heads, whole_key=keys["d_model"],
                      part_key=keys["n_heads"], where=where)  # fmt: skip
        return config

    def expected_shapes(self) -> dict[str, tuple[int, ...]]:
        """Every tensor the encoder needs, by Hugging Face name, with its (out, in) shape."""
        d, f = self.d_model, self.d_ff
        shapes: dict[str, tuple[int, ...]] = {
            "embeddings.word_embeddings.weight": (self.vocab_size, d),
            "embeddings.position_embeddings.weight": (self.max_positions, d),
            "embeddings.token_type_embeddings.weight": (self.type_vocab_size, d),
            "embeddings.LayerNorm.weight": (d,),
            "embeddings.LayerNorm.bias": (d,),
        }
        per_layer = {
            "attention.self.query.weight": (d, d), "attention.self.query.bias": (d,),
            "attention.self.key.weight": (d, d), "attention.self.key.bias": (d,),
            "attention.self.value.weight": (d, d), "attention.self.value.bias": (d,),
            "attention.output.dense.weight": (d, d), "attention.output.dense.bias": (d,),
            "attention.output.LayerNorm.weight": (d,), "attention.output.LayerNorm.bias": (d,),
            "intermediate.dense.weight": (f, d), "intermediate.dense.bias": (f,),
            "output.dense.weight": (d, f), "output.dense.bias": (d,),
            "output.LayerNorm.weight": (d,), "output.LayerNorm.bias": (d,),
        }  # fmt: skip
        for i in range(self.n_layers):
            shapes.update({f"encoder.layer.{i}.{name}": s for name, s in per_layer.items()})
        return shapes


@dataclass(frozen=True)
class Checkpoint:
    """A checked BERT checkpoint: its config, its float32 tensors by name, its tokenizer."""

    folder: Path
    config: BertConfig
    tensors: Mapping[str, FloatArray]
    tokenizer: Tokenizer


def read_checkpoint(folder: str | Path) -> Checkpoint:
    """Read and check `folder`'s config.json, model.safetensors and tokenizer.json."""
    root = check_folder(folder)
    config = BertConfig.from_json(read_json(root / "config.json"))
    tensors = _read_tensors(root, config)
    tokenizer = _read_tokenizer(root / "tokenizer.json", config)
    if config.kind != "bert":  # BERT's own stay SPECIAL, as the page has always named them
        added = [str(t.content) for t in tokenizer.get_added_tokens_decoder().values() if t.special]
        config = replace(
            config, special=tuple(dict.fromkeys([*template_tokens(tokenizer), *added]))
        )
    return Checkpoint(folder=root, config=config, tensors=tensors, tokenizer=tokenizer)


def check_folder(folder: str | os.PathLike[str], files: tuple[str, ...] = FILES) -> Path:
    """`folder` as a Path once it is a folder holding `files`; WeightsError naming what lacks."""
    if not isinstance(folder, str | os.PathLike):
        raise WeightsError(
            f"a weights folder is a path, got {type(folder).__name__} {folder!r}"[:120]
        )
    root = Path(folder)
    if not root.is_dir():
        raise WeightsError(f"no weights folder at {str(root)!r}")
    absent = [name for name in files if not (root / name).is_file()]
    if SINGLE in absent and (root / INDEX).is_file():  # sharded: the index names the files
        absent.remove(SINGLE)
    if SINGLE in absent and any((root / name).exists() for name in PICKLES):
        next(tensor_files(root))  # a pickle-only folder is named for what it is
    if absent:
        raise WeightsError(
            f"the weights folder {str(root)!r} lacks {', '.join(absent)}: "
            f"expected {', '.join(files)} (the Hugging Face layout)"
        )
    return root


def read_json(path: Path) -> dict[str, Any]:
    """A JSON object from `path`; WeightsError naming the file if it is not one."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise WeightsError(f"{path.name} is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise WeightsError(f"{path.name} must hold a JSON object, got {type(data).__name__}")
    return data


def _read_tensors(root: Path, config: BertConfig) -> dict[str, FloatArray]:
    file = SINGLE
    stored = read_tensors(root)
    raw = bert_tensors(stored, config.kind)
    prefix = task_prefix(stored, config.kind)

    def own(name: str) -> str:  # the file's own name of a tensor read under BERT's
        return own_name(name, config.kind, prefix)

    _check_config_against(stored, raw, config, file, own)
    expected = config.expected_shapes()
    missing = [name for name in expected if name not in raw]
    if missing:
        not_float = {k: v for k, v in stored_dtypes(root).items() if k not in stored}
        for name in missing:
            for stored_name, dtype in not_float.items():
                if stored_name.endswith(own_name(name, config.kind)):
                    raise WeightsError(
                        f"{file}: tensor {stored_name} has dtype {dtype}; expected floating "
                        "point (F32, F16 or BF16)"
                    )
        shown = ", ".join(own(m) for m in missing[:5]) + (
            f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        )
        raise WeightsError(f"{file} lacks {len(missing)} tensor(s) the encoder needs: {shown}")
    tensors: dict[str, FloatArray] = {}
    for name, shape in expected.items():
        a = raw[name]
        if a.shape != shape:
            raise WeightsError(
                f"{file}: tensor {own(name)} has shape {a.shape}; expected {shape} from config.json"
            )
        check_finite_weights(own(name), a, file=file)
        tensors[name] = a
    return tensors


def _check_config_against(
    stored: Mapping[str, np.ndarray], raw: Mapping[str, np.ndarray], c: BertConfig, file: str,
    own: Callable[[str], str],
) -> None:  # fmt: skip
    """config.json's sizes against the stored tensors, each refusal naming the file's own key
    and tensor (`own`: BERT's tensor name as the file writes it)."""
    keys = bert_keys(c.kind)
    check_layer_count(stored, c.n_layers, prefix=task_prefix(stored, c.kind) + layer_prefix(c.kind),
                      key=keys["n_layers"], file=file)  # fmt: skip
    sizes = (  # (field, value, tensor, axis, what the axis counts)
        ("vocab_size", c.vocab_size, "embeddings.word_embeddings.weight", 0, "rows (tokens)"),
        ("d_model", c.d_model, "embeddings.word_embeddings.weight", 1, "columns (d_model)"),
        ("max_positions", c.max_positions, "embeddings.position_embeddings.weight", 0,
         "rows (positions)"),
        ("type_vocab_size", c.type_vocab_size, "embeddings.token_type_embeddings.weight", 0,
         "rows (segments)"),
        ("d_ff", c.d_ff, "encoder.layer.0.intermediate.dense.weight", 0, "rows (d_ff)"),
    )  # fmt: skip
    for field, value, tensor, axis, what in sizes:
        if tensor in raw and field in keys:  # an absent tensor: the missing-tensor check's
            check_matches_tensor(value, key=keys[field], tensor=own(tensor),
                                 shape=raw[tensor].shape, axis=axis, what=what,
                                 file=file)  # fmt: skip


def _read_tokenizer(path: Path, config: BertConfig) -> Tokenizer:
    try:
        from tokenizers import Tokenizer
    except ImportError as exc:
        raise AttnlabError(f"tokenizing needs {exc.name}: {_INSTALL}") from None
    try:
        tokenizer = Tokenizer.from_file(str(path))
    except Exception as exc:  # tokenizers raises a bare Exception for a malformed file
        raise WeightsError(f"{path.name} cannot be read as a tokenizer: {exc}") from None
    tokenizer.no_padding()  # all-MiniLM-L6-v2's file pads every text to 128 tokens
    tokenizer.no_truncation()  # a long text is refused with a message, not silently cut
    size = tokenizer.get_vocab_size()
    if size > config.vocab_size:
        raise WeightsError(
            f"{path.name} has {size} tokens but config.json's vocab_size is {config.vocab_size}: "
            "the tokenizer belongs to another model"
        )
    return tokenizer
