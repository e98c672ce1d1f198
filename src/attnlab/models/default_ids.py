"""A text's token ids as the model's own tokenizer gives them by default, start token included.

A model's numbers are for one sequence: the one `AutoTokenizer.from_pretrained(folder)(text)
["input_ids"]` gives, which is what its users feed it. That call adds the tokens its
post-processor names (BERT's [CLS] … [SEP], Llama's <s> before the text, GPT-2's nothing), so
`default_encoding` calls `tokenizers`' `encode(text)` with its default `add_special_tokens=True`
and the same post-processor; a tokenizer that adds a start token (BOS) then gets it here too.

What decides, measured with transformers 5.25 (tests/models/test_tokenizer_bos.py): in a folder,
tokenizer.json's `post_processor` alone. tokenizer_config.json's `add_bos_token` changed nothing
in any case tried (true or false, with a template or with a null post-processor), so it is not
read here. In a GGUF (no tokenizer.json), transformers builds the template from
`tokenizer.ggml.add_bos_token` / `add_eos_token`, a missing BOS flag meaning "add" for a
SentencePiece ("llama") vocabulary and "do not" for the others; `gguf_template` does the same.

`added_tokens` names the tokens the tokenizer put in that the text did not hold (a special token
typed in the text, such as <|im_start|>, is the text's own), so a view can name them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tokenizers import Encoding, Tokenizer

__all__ = ["added_tokens", "default_encoding", "gguf_template", "template_tokens", "typed_count"]


def default_encoding(tokenizer: Tokenizer, text: str) -> Encoding:
    """`text` encoded as transformers' default call does: the post-processor's tokens added."""
    return tokenizer.encode(text)  # add_special_tokens=True, tokenizers' default and transformers'


def added_tokens(encoding: Encoding) -> tuple[str, ...]:
    """The tokens the tokenizer added around the text ([CLS], [SEP], <s>), in order."""
    return tuple(t for t, m in zip(encoding.tokens, encoding.special_tokens_mask, strict=True) if m)


def typed_count(encoding: Encoding) -> int:
    """How many tokens come from the text itself (not added by the tokenizer)."""
    return sum(1 for m in encoding.special_tokens_mask if not m)


def template_tokens(tokenizer: Tokenizer) -> tuple[str, ...]:
    """The tokens the tokenizer adds to every text (those it adds to an empty one)."""
    return tuple(dict.fromkeys(tokenizer.encode("").tokens))


def gguf_template(tokenizer: Tokenizer, metadata: Mapping[str, Any]) -> None:
    """Give a tokenizer built from GGUF metadata the start and end tokens transformers adds."""
    from tokenizers import processors

    tokens: Sequence[str] = metadata.get("tokenizer.ggml.tokens") or ()
    sentencepiece = metadata.get("tokenizer.ggml.model") == "llama"
    ends: list[tuple[str, int] | None] = []
    for which, default in (("bos", sentencepiece), ("eos", False)):
        add = metadata.get(f"tokenizer.ggml.add_{which}_token", default)
        index = metadata.get(f"tokenizer.ggml.{which}_token_id")
        if add is True and isinstance(index, int) and 0 <= index < len(tokens):
            ends.append((str(tokens[index]), index))
        else:
            ends.append(None)
    bos, eos = ends
    if bos is None and eos is None:
        return
    parts = [*([f"{bos[0]}:0"] if bos else []), "$A:0", *([f"{eos[0]}:0"] if eos else [])]
    single = " ".join(parts)
    pair = f"{single} {single.replace('$A:0', '$B:1').replace(':0', ':1')}"
    special = [end for end in (bos, eos) if end is not None]
    tokenizer.post_processor = processors.TemplateProcessing(
        single=single, pair=pair, special_tokens=list(dict.fromkeys(special))
    )
