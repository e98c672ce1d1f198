"""The words a host shows for one model, chosen by what the model is: a decoder's or an
encoder's intro and text help, and the special tokens it really has.

The page's words (page.py) hold both the encoder's sentences ("model.intro", "model.text_help":
"[CLS] and [SEP]", "pieces such as ##s") and the decoder's ("model.intro_decoder",
"model.text_help_decoder"), and weights_only.py the words for weights handed in alone. A host
that shows one model (the notebook widget, the offline file) puts `model_words` under the keys
every view reads, so no view can show MiniLM's help over SmolLM2, "[CLS] and [SEP]" options for
a text that has neither, or "head 2 of elsewhere" for weights that came with no name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["HELP_WORDS", "model_words", "specials_named"]

HELP_WORDS: Mapping[str, str] = {
    "model.matrix.specials_of": "Special tokens ({tokens})",
    "model.matrix.specials_none": "Special tokens (none in this text)",
    "model.matrix.specials_absent": (
        "This model's tokenizer added no special token to this text, so there is none to hide: "
        "every row is shown as the model gave it."
    ),
    "model.matrix.hidden_of": (
        "Special tokens hidden ({tokens}), the rows not renormalised: the words' weights as the "
        "model gave them (a row gave {hidden} of its weight to the hidden tokens, on average)."
    ),
    "model.matrix.renormalised_of": (
        "Special tokens hidden ({tokens}), every row renormalised to sum to 1 over the words "
        "shown (the hidden tokens held {hidden} of a row's weight, on average)."
    ),
    "model.text_help_of": (
        "Any text, up to {max_tokens} tokens counting {tokens}, which the tokenizer adds around "
        "it (it splits rare words into pieces). Each head works with {d_k}-number queries, keys "
        "and values."
    ),
    "model.text_help_plain": (
        "Any text, up to {max_tokens} tokens (the tokenizer splits rare words into pieces). Each "
        "head works with {d_k}-number queries, keys and values."
    ),
    "maps.intro_unnamed": (
        "Attention weights handed in: {n_layers} layers × {n_heads} heads, read as they were "
        "given. They came without queries, keys and values, so the steps that need those say "
        "so; the heads grid, the Parallel step and the table use the weights."
    ),
    "maps.which_unnamed": "Layer {layer}, head {head}: {n} query tokens, weights only.",
}
"""The sentences page.py and weights_only.py do not have: the special tokens named (in the
matrix's switch and an encoder's text help), and weights with no source."""

_BERT = ("[CLS]", "[SEP]")


def specials_named(tokens: Sequence[str]) -> str:
    """The special tokens as a phrase: "[CLS] and [SEP]", "<|im_start|>, <|im_end|> and …"."""
    shown = list(dict.fromkeys(tokens))
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"


def model_words(
    words: Mapping[str, str], *, causal: bool, special: Sequence[str], tokens: Sequence[str],
    source: str | None = None, weights_only: bool = False,
) -> dict[str, str]:  # fmt: skip
    """`words` (the page's) with the help and intro of this model under the keys the views
    read: a decoder's for a causal model; the special tokens of `special` that `tokens` holds
    named in the matrix's switch; weights with no `source` not named after one."""
    out = dict(words)
    if causal:
        out["model.intro"] = words["model.intro_decoder"]
        out["model.text_help"] = words["model.text_help_decoder"]
    present = [t for t in dict.fromkeys(tokens) if t in special or t in _BERT]
    if present != list(_BERT):  # page.py's sentences name exactly [CLS] and [SEP]
        named = specials_named(present) if present else ""
        out["model.matrix.specials"] = (
            HELP_WORDS["model.matrix.specials_of"].replace("{tokens}", named)
            if present else HELP_WORDS["model.matrix.specials_none"]
        )  # fmt: skip
        for key in ("hidden", "renormalised"):
            text = HELP_WORDS[f"model.matrix.{key}_of"].replace("{tokens}", named or "none")
            out[f"model.matrix.{key}"] = text[0].upper() + text[1:]
        if not causal:  # an encoder's frame, RoBERTa's <s> … </s>: page.py's help is BERT's
            out["model.text_help"] = (
                HELP_WORDS["model.text_help_of"].replace("{tokens}", named)
                if present else HELP_WORDS["model.text_help_plain"]
            )  # fmt: skip
    if weights_only and not source:
        out["maps.intro"] = HELP_WORDS["maps.intro_unnamed"]
        out["maps.which"] = HELP_WORDS["maps.which_unnamed"]
    return out
