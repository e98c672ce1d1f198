"""The BERT encoder's forward pass in NumPy, every head through the lesson's `attend`.

Follows "BERT" (Devlin et al., 2019) as Hugging Face's `BertModel` computes it (post-LayerNorm,
exact GELU), row-vector convention (x W, weights stored transposed once at load time):

    1. Embed:   x = LayerNorm(E_word[ids] + E_pos[0..n) + E_type[0])            (n, d)
                (RoBERTa's positions count from padding_idx + 1; DistilBERT's E_type is 0:
                encoder_names.py)
    then per layer:
    2. Project: q, k, v = x W_Q + b_Q, x W_K + b_K, x W_V + b_V, split into h heads  (h, n, d_k)
    3. Attend:  z = softmax(q kᵀ / √d_k) v for all heads at once (attnlab.attend)   (h, n, d_k)
                keeping each head's q, k, v and its diagnostics (layer_keep.py)
    4. Merge:   a = LayerNorm(x + concat(z) W_O + b_O)                           (n, d)
    5. FFN:     x = LayerNorm(a + GELU(a W_1 + b_1) W_2 + b_2)                    (n, d)

A single text needs no padding, so no attention mask. The weights stay float32 throughout, as
they are stored; W_Q, W_K and W_V are kept side by side as one (d, 3d) matrix so that step 2 is
one matrix product. Temporaries that the trace does not keep live in a per-model Workspace
(workspace.py), so `layer` runs under the model's lock, as `trace` calls it. The trace keeps no
n × n matrix: `ModelTrace` recomputes a head's weights from its q, k, v when they are read.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from attnlab.core.attention import merge_heads, split_heads
from attnlab.core.diagnostics import HeadStats
from attnlab.errors import ArgumentTypeError, EmptySequenceError, TooLongError
from attnlab.models.checkpoint import BertConfig, Checkpoint
from attnlab.models.default_ids import added_tokens, default_encoding, typed_count
from attnlab.models.gguf_tokenizer import byte_level, readable
from attnlab.models.layer_keep import LayerKeep, attend_layer
from attnlab.models.model_trace import ModelTrace
from attnlab.models.nn import gelu, layer_norm
from attnlab.models.summary import ModelSummary
from attnlab.models.threads import blas_by_load
from attnlab.models.workspace import Workspace
from attnlab.types import FloatArray
from attnlab.words.grammar import counted
from attnlab.words.model_help import specials_named

if TYPE_CHECKING:
    from tokenizers import Tokenizer

MAX_TOKENS = 512
"""The longest text `trace` accepts, [CLS] and [SEP] included: BERT's learned position table
has 512 rows (max_position_embeddings), so a 513th token has no position to add. MiniLM was
fine-tuned on texts of up to 128 tokens; longer ones run, with embeddings it saw less often."""


@dataclass(frozen=True)
class LayerWeights:
    """One encoder layer's parameters, transposed to (in, out) for x @ W."""

    w_qkv: FloatArray  # (d, 3d) [W_Q | W_K | W_V]
    b_qkv: FloatArray  # (3d,)
    w_o: FloatArray  # (d, d)
    b_o: FloatArray  # (d,)
    ln1: tuple[FloatArray, FloatArray]  # γ, β (d,) after attention
    w_1: FloatArray  # (d, d_ff)
    b_1: FloatArray  # (d_ff,)
    w_2: FloatArray  # (d_ff, d)
    b_2: FloatArray  # (d,)
    ln2: tuple[FloatArray, FloatArray]  # γ, β (d,) after the feed-forward block

    @classmethod
    def from_tensors(cls, t: Mapping[str, FloatArray], i: int) -> LayerWeights:
        """Layer `i` from Hugging Face names; nn.Linear stores (out, in), we keep (in, out)."""
        p = f"encoder.layer.{i}."

        def linear(name: str) -> FloatArray:
            return np.ascontiguousarray(t[p + name + ".weight"].T)  # (in, out)

        qkv = ("attention.self.query", "attention.self.key", "attention.self.value")
        return cls(
            w_qkv=np.concatenate([linear(name) for name in qkv], axis=1),  # (d, 3d)
            b_qkv=np.concatenate([t[p + name + ".bias"] for name in qkv]),  # (3d,)
            w_o=linear("attention.output.dense"),
            b_o=t[p + "attention.output.dense.bias"],
            ln1=(
                t[p + "attention.output.LayerNorm.weight"],
                t[p + "attention.output.LayerNorm.bias"],
            ),
            w_1=linear("intermediate.dense"),
            b_1=t[p + "intermediate.dense.bias"],
            w_2=linear("output.dense"),
            b_2=t[p + "output.dense.bias"],
            ln2=(t[p + "output.LayerNorm.weight"], t[p + "output.LayerNorm.bias"]),
        )


class BertEncoder:
    """A loaded BERT encoder (a `Model`, protocol.py): `trace(text)` runs the forward pass."""

    def __init__(self, checkpoint: Checkpoint, *, name: str | None = None) -> None:
        t, c = checkpoint.tensors, checkpoint.config
        self.name = name or checkpoint.folder.name
        self.config: BertConfig = c
        self.tokenizer: Tokenizer = checkpoint.tokenizer
        self.e_word = t["embeddings.word_embeddings.weight"]  # (vocab, d)
        self.e_pos = t["embeddings.position_embeddings.weight"]  # (max_positions, d)
        self.e_type = t["embeddings.token_type_embeddings.weight"]  # (type_vocab, d)
        self.ln0 = (t["embeddings.LayerNorm.weight"], t["embeddings.LayerNorm.bias"])
        self.layers = tuple(LayerWeights.from_tensors(t, i) for i in range(c.n_layers))
        self.max_tokens = min(MAX_TOKENS, c.max_positions - c.position_offset)
        self._work = Workspace(self.max_tokens, self.e_word.dtype)
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        c = self.config
        return (
            f"BertEncoder({self.name!r}: {c.n_layers} layers, {c.n_heads} heads, "
            f"d_model {c.d_model}, d_k {c.d_k})"
        )

    @property
    def summary(self) -> ModelSummary:
        """The model's name, sizes, limits and special tokens, as its traces carry them."""
        return ModelSummary.of(self, special=self.config.special)

    def tokenize(self, text: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """The tokens and ids of `text` as the tokenizer writes them, [CLS] … [SEP] (<s> … </s>
        for RoBERTa): its default call (default_ids.py)."""
        if not isinstance(text, str):
            raise ArgumentTypeError(f"a text to trace is a str, got {text!r}"[:120], field="text")
        enc = default_encoding(self.tokenizer, text)
        if typed_count(enc) == 0:
            raise EmptySequenceError(
                "the text is empty: type a few words, e.g. 'by the river bank'"
            )
        n = len(enc.ids)
        if n > self.max_tokens:
            added = added_tokens(enc)
            counting = f" with {specials_named(added)}" if added else ""
            raise TooLongError(
                f"the text is {n} tokens long{counting}; the limit is "
                f"{self.max_tokens}: shorten it by {counted(n - self.max_tokens, 'token')}"
            )
        return self.labels(enc.ids), tuple(enc.ids)

    def labels(self, ids: Sequence[int]) -> tuple[str, ...]:
        """Each id as a person reads it: WordPiece's own pieces ("##s"), a byte-level BPE's
        (RoBERTa's) as the text they stand for (" bank", not "Ġbank")."""
        if byte_level(self.tokenizer):
            return readable(self.tokenizer, ids)
        return tuple(str(self.tokenizer.id_to_token(i)) for i in ids)

    def trace(self, text: str) -> ModelTrace:
        """Tokenize `text`, run every layer, keep every head's q, k, v and diagnostics."""
        tokens, ids = self.tokenize(text)
        enc = default_encoding(self.tokenizer, text)
        spans = tuple((int(a), int(b)) for a, b in enc.offsets)
        return replace(self.trace_ids(ids, tokens), text=text, spans=spans)

    @property
    def mask_token(self) -> tuple[str, int] | None:
        """The tokenizer's mask token and its id ("[MASK]", 103; RoBERTa's "<mask>"), masking.py's
        replacement."""
        for token in ("[MASK]", "<mask>"):
            i = self.tokenizer.token_to_id(token)
            if i is not None:
                return token, int(i)
        return None

    def trace_ids(self, ids: tuple[int, ...], tokens: tuple[str, ...] | None = None) -> ModelTrace:
        """The forward pass over token ids (masking.py edits them); labels default to the
        tokenizer's own."""
        if tokens is None:
            tokens = self.labels(ids)
        if len(ids) > self.max_tokens:
            raise TooLongError(f"{len(ids)} tokens is over the limit of {self.max_tokens}")
        with self._lock, blas_by_load():  # one pass at a time
            x = self.embed(np.asarray(ids))  # (n, d)
            hidden, kept, stats = [x], [], []
            for w in self.layers:
                x, keep, s = self.layer(x, w, tokens)  # (n, d)
                hidden.append(x)
                kept.append(keep)
                stats.append(s)
        return ModelTrace(
            model=self.name,
            tokens=tokens,
            token_ids=ids,
            hidden_states=np.stack(hidden),  # (L + 1, n, d)
            layers=tuple(kept),
            stats=HeadStats.stack(stats),  # (L, h)
            special=self.config.special,
            summary=self.summary,
        )

    def embed(self, ids: np.ndarray) -> FloatArray:
        """1. Word, position and segment embeddings summed, then LayerNorm."""
        n, pad = ids.shape[0], self.config.pad_id
        if pad is None:
            x = self.e_word[ids] + self.e_pos[:n] + self.e_type[0]  # (n, d)
        else:  # RoBERTa: create_position_ids_from_input_ids
            real = ids != pad  # (n,)
            positions = np.cumsum(real) * real + pad  # (n,) pad + 1, pad + 2, …; a pad at pad
            x = self.e_word[ids] + self.e_pos[positions] + self.e_type[0]  # (n, d)
        return layer_norm(x, *self.ln0, eps=self.config.layer_norm_eps)

    def layer(
        self, x: FloatArray, w: LayerWeights, tokens: tuple[str, ...]
    ) -> tuple[FloatArray, LayerKeep, HeadStats]:
        """2–5. One encoder layer: the new hidden states, what it keeps, its heads' diagnostics."""
        c, eps, ws, n = self.config, self.config.layer_norm_eps, self._work, x.shape[0]
        qkv = np.matmul(x, w.w_qkv, out=ws.take("qkv", n, 3 * c.d_model))  # (n, 3d)
        qkv += w.b_qkv
        q, k, v = (
            split_heads(part, c.n_heads) for part in np.split(qkv, 3, axis=-1)
        )  # (h, n, d_k) views into the workspace: the kept arrays are attend's own copies
        z, keep, stats = attend_layer(q, k, v, tokens=tokens)  # z (h, n, d_k)
        a = np.matmul(merge_heads(z), w.w_o, out=ws.take("a", n, c.d_model))  # (n, d)
        a += w.b_o
        a += x  # residual
        a = layer_norm(a, *w.ln1, eps=eps)  # (n, d)
        f = np.matmul(a, w.w_1, out=ws.take("ffn", n, c.d_ff))  # (n, d_ff)
        f += w.b_1
        work = (ws.take("z", n, c.d_ff), ws.take("phi", n, c.d_ff),
                ws.take("z2", n, c.d_ff), ws.take("q", n, c.d_ff))  # fmt: skip
        f = gelu(f, out=f, work=work)  # (n, d_ff)
        out = np.matmul(f, w.w_2, out=ws.take("out", n, c.d_model))  # (n, d)
        out += w.b_2
        out += a  # residual
        return layer_norm(out, *w.ln2, eps=eps), keep, stats
