"""Small pieces of English grammar the narration and the notes share.

`possessive` puts 's on a token and quotes it where a bare 's would read as a typo ("the's");
`and_list` joins names the way a sentence does ("a, b and c"); `token_names` tells repeated
tokens apart by their place ("b₁", "b₂"), the one style for a word that occurs twice;
`spoken_names` is that name as a sentence writes it, a byte-level token quoted with its space
as the page writes it (“ bank”, “.”); `counted` writes a count with its noun in agreement
("1 token", "2 tokens").
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

__all__ = [
    "GRAMMAR_WORDS",
    "and_list",
    "counted",
    "possessive",
    "spoken",
    "spoken_names",
    "token_names",
]

_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")

GRAMMAR_WORDS = frozenset(
    "a an the by at near on in of to my and or is it for with from as this that".split()
)
"""Words too small to take a bare 's: "the's query" reads as a typo, "“the”'s query" does not."""


def possessive(token: str) -> str:
    """`token` with 's: a bare apostrophe after a plural in s (farmers'), quoted for a grammar
    word (“the”'s), and "[CLS] token's" for a token that is not a plain word ([CLS], ##s)."""
    plain = token.rstrip("₀₁₂₃₄₅₆₇₈₉")  # a repeated token's place (b₂) is part of its name
    if len(token) > 1 and token[0] == "“" and token[-1] == "”":  # spoken's quotes: “ bank”'s
        return f"{token}'s"
    if not plain.isalpha():
        return f"{token} token's"
    if plain.lower() in GRAMMAR_WORDS:
        return f"“{token}”'s"
    if plain.endswith("s") and not plain.endswith("ss") and len(plain) > 3 and token == plain:
        return f"{token}'"
    return f"{token}'s"


def token_names(tokens: Sequence[str]) -> tuple[str, ...]:
    """Each token's name in a sentence: itself, or, when it occurs more than once, itself with
    its occurrence as a subscript (b₁ and b₂ in "a b b"), so two places are never one name."""
    return _names(tuple(tokens))  # cached: the readings ask once per cell of an n × n matrix


@functools.lru_cache(maxsize=64)
def _names(tokens: tuple[str, ...]) -> tuple[str, ...]:
    counts: dict[str, int] = {}
    for t in tokens:
        counts[t] = counts.get(t, 0) + 1
    seen: dict[str, int] = {}
    out = []
    for t in tokens:
        if counts[t] == 1:
            out.append(t)
            continue
        seen[t] = seen.get(t, 0) + 1
        out.append(f"{t}{str(seen[t]).translate(_SUBSCRIPTS)}")
    return tuple(out)


def spoken(name: str) -> str:
    """A token's name as a sentence writes it: a plain word as it is (bank, [CLS], ##s), and
    one that carries its space or is no word at all quoted, the space kept, as the page writes
    it: “ bank”, “.”, “ ”, “'s”, a newline as “\\n” (a byte-level tokenizer's " bank" would
    otherwise read as a double space in a list, "." as the end of the sentence, and a newline
    would split the line)."""
    if _plain(name):
        return name
    return f"“{_visible(name)}”"


_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _visible(name: str) -> str:
    """`name` with its control characters written out (a newline token as \\n, as the page's
    JSON writes it), so a token never breaks the line or the table row it is named in."""
    return "".join(_ESCAPES.get(c, f"\\x{ord(c):02x}" if not c.isprintable() else c) for c in name)


def _plain(name: str) -> bool:
    """A word as it is: letters and digits (bank, bank₂), a WordPiece continuation (##s) or a
    special token ([CLS]). A piece such as 's, a space or punctuation is quoted."""
    core = name[2:] if name.startswith("##") else name
    if len(core) > 2 and core[0] == "[" and core[-1] == "]":
        core = core[1:-1]
    return bool(core) and all(c.isalnum() or c in "₀₁₂₃₄₅₆₇₈₉" for c in core)


def spoken_names(tokens: Sequence[str]) -> tuple[str, ...]:
    """`token_names` as a sentence writes each: `spoken` of each name."""
    return _spoken_names(tuple(tokens))  # cached as token_names is


@functools.lru_cache(maxsize=64)
def _spoken_names(tokens: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(spoken(n) for n in token_names(tokens))


def and_list(names: Sequence[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def counted(n: int, noun: str) -> str:
    """ "1 token", "2 tokens": a count and its regular noun, in agreement."""
    return f"{n} {noun}" + ("" if n == 1 else "s")
