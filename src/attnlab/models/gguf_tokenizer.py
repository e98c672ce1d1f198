"""A `tokenizers` tokenizer rebuilt from a GGUF file's vocabulary and merges (byte-level BPE).

GGUF files of GPT-2-style vocabularies (`tokenizer.ggml.model` "gpt2") carry the tokens in
GPT-2's byte alphabet (a space is "Ġ", a newline "Ċ") and the merges as "a b" strings. The
tokenizer is the one SmolLM2's own tokenizer.json describes, and llama.cpp's "smollm"
pre-tokenizer:

    pre-tokenize  every digit on its own, then GPT-2's split of words, numbers, punctuation and
                  spaces, each piece spelled in the byte alphabet (no space added in front)
    model         BPE over those pieces with the file's merges, in order
    special       the tokens the file marks as control (type 3: <|im_start|>, <|endoftext|>, …)
                  are matched whole in the text and never split

The ids agree with transformers' tokenizer built from the same file on digits, unicode, chat
markup and runs of spaces (tests/models/test_gguf_tokenizer.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from attnlab.errors import AttnlabError, WeightsError
from attnlab.models.default_ids import gguf_template
from attnlab.models.gguf_sentencepiece import GEMMA_ARCHITECTURES, gemma_tokenizer

if TYPE_CHECKING:
    from tokenizers import Tokenizer

__all__ = ["CONTROL", "byte_level", "gguf_tokenizer", "readable"]

CONTROL = 3
"""llama.cpp's token type for control tokens (special: matched whole, never merged into)."""


def gguf_tokenizer(metadata: Mapping[str, Any], *, where: str) -> Tokenizer:
    """The byte-level BPE tokenizer the metadata describes; WeightsError if it is another kind."""
    try:
        from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers
    except ImportError as exc:
        raise AttnlabError(f"tokenizing needs {exc.name}: pip install 'attnlab[models]'") from None
    kind = metadata.get("tokenizer.ggml.model")
    if kind == "llama" and metadata.get("general.architecture") in GEMMA_ARCHITECTURES:
        gemma = gemma_tokenizer(metadata, where=where)  # gguf_sentencepiece.py
        gguf_template(gemma, metadata)
        return gemma
    if kind != "gpt2":
        raise WeightsError(
            f"{where}: tokenizer.ggml.model is {kind!r}; attnlab reads byte-level BPE ('gpt2') "
            "vocabularies, as SmolLM2's, and Gemma's SentencePiece ones"
        )
    tokens: Sequence[str] = metadata.get("tokenizer.ggml.tokens") or ()
    merges: Sequence[str] = metadata.get("tokenizer.ggml.merges") or ()
    if not tokens or not merges:
        raise WeightsError(f"{where} holds no tokenizer.ggml.tokens or merges")
    vocab = {t: i for i, t in enumerate(tokens)}
    pairs = [_pair(m) for m in merges]
    bpe = models.BPE(vocab=vocab, merges=pairs, fuse_unk=False, byte_fallback=False)
    tok = Tokenizer(bpe)
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Digits(individual_digits=True),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True),
        ]
    )
    tok.decoder = decoders.ByteLevel()
    types: Sequence[int] = metadata.get("tokenizer.ggml.token_type") or ()
    control = [t for t, kind in zip(tokens, types, strict=False) if kind == CONTROL]
    tok.add_special_tokens([AddedToken(t, normalized=False, special=True) for t in control])
    gguf_template(tok, metadata)  # BOS / EOS where transformers adds them (default_ids.py)
    return tok


def _pair(merge: str) -> tuple[str, str]:
    a, _, b = merge.partition(" ")
    return a, b


def byte_level(tokenizer: Tokenizer) -> bool:
    """Whether the tokenizer writes its pieces in GPT-2's byte alphabet (RoBERTa's "Ġbank" for
    " bank"): those need `readable` to show a person the text they stand for."""
    return type(tokenizer.decoder).__name__ == "ByteLevel"


def readable(tokenizer: Tokenizer, ids: Sequence[int]) -> tuple[str, ...]:
    """Each id as the text it stands for (" bank", "\\n"), part of a character as \\xe6.

    A byte-level token may hold part of a UTF-8 character (日 is three bytes, often two tokens);
    such a token shows its bytes escaped (\\xe6\\x97) rather than a replacement character.
    """
    out = []
    for i in ids:
        text = tokenizer.decode([i], skip_special_tokens=False)
        if "\ufffd" in text:
            piece = tokenizer.id_to_token(i) or ""
            raw = bytes(_BYTES.get(ch, 0x3F) for ch in piece)
            text = raw.decode("utf-8", errors="backslashreplace")
        out.append(text)
    return tuple(out)


def _byte_alphabet() -> dict[str, int]:
    """GPT-2's printable stand-in for every byte (Radford et al., 2019, `bytes_to_unicode`)."""
    keep = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1)]
    keep += list(range(ord("®"), ord("ÿ") + 1))
    chars, extra = list(keep), 0
    for b in range(256):
        if b not in keep:
            keep.append(b)
            chars.append(256 + extra)
            extra += 1
    return {chr(c): b for b, c in zip(keep, chars, strict=True)}


_BYTES = _byte_alphabet()
