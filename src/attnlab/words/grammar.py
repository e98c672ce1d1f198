"""Small pieces of English grammar the narration and the notes share.

`possessive` puts 's on a token and quotes it where a bare 's would read as a typo ("the's");
`and_list` joins names the way a sentence does ("a, b and c").
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["GRAMMAR_WORDS", "and_list", "possessive"]

GRAMMAR_WORDS = frozenset(
    "a an the by at near on in of to my and or is it for with from as this that".split()
)
"""Words too small to take a bare 's: "the's query" reads as a typo, "“the”'s query" does not."""


def possessive(token: str) -> str:
    """`token` with 's, quoted when it is a grammar word or not a plain word ([CLS], ##s)."""
    if token.lower() in GRAMMAR_WORDS or not token.isalpha():
        return f"“{token}”'s"
    return f"{token}'s"


def and_list(names: Sequence[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
