"""A corpus: texts read from a text file or from WordNet's glosses, and each fitted to a model.

`read_corpus("notes.txt")` reads a UTF-8 text file, one text per paragraph (lines separated by a
blank line; `unit="line"`: one per line). `read_corpus("wordnet")` reads the glosses and example
sentences of WordNet 3.0 from Debian's `wordnet-base` (`apt-get install wordnet-base`; Princeton's
WordNet 3.0 licence: use, copy and distribute freely, keep the copyright notice): 117,659
glosses such as "a large natural stream of water (larger than a creek); "the river was
navigable for 50 miles"". An empty, missing or binary (a NUL byte, not UTF-8) corpus is a
`CorpusError`.

`fit(model, text)` gives the token ids a model runs: a text over the model's limit is cut at
spaces into halves until each piece fits (`long="split"`) or left out (`long="skip"`); the run
counts both and says so.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from attnlab.atlas.atlas_errors import CorpusError
from attnlab.atlas.probes import AtlasModel
from attnlab.errors import EmptySequenceError, TooLongError

__all__ = ["WORDNET", "Corpus", "Fitted", "LongTexts", "Unit", "fit", "read_corpus"]

Unit = Literal["paragraph", "line"]
LongTexts = Literal["split", "skip"]

WORDNET = Path("/usr/share/wordnet")
"""Where Debian's wordnet-base puts data.noun, data.verb, data.adj and data.adv."""
_WORDNET_FILES = ("data.noun", "data.verb", "data.adj", "data.adv")
_SNIFF = 8192


@dataclass(frozen=True)
class Corpus:
    """Texts in order, where they came from, and a SHA-256 of them (the run's provenance)."""

    texts: tuple[str, ...]
    source: str

    @property
    def digest(self) -> str:
        h = hashlib.sha256()
        for t in self.texts:
            h.update(t.encode())
            h.update(b"\0")
        return h.hexdigest()

    def head(self, limit: int | None) -> Corpus:
        """The first `limit` texts (all of them for None)."""
        if limit is None:
            return self
        if limit < 1:
            raise CorpusError(f"--limit must be 1 or more, got {limit}", field="limit")
        return Corpus(self.texts[:limit], f"{self.source} (first {limit:,})")


def read_corpus(source: str | Path, *, unit: Unit = "paragraph") -> Corpus:
    """The texts of a text file, or of WordNet's glosses for `source` "wordnet"."""
    if str(source) == "wordnet":
        return _wordnet()
    path = Path(source).expanduser()
    if not path.is_file():
        raise CorpusError(
            f"no corpus file at {str(path)!r}: give a UTF-8 text file, or "
            "'wordnet' (apt-get install wordnet-base)"
        )
    data = path.read_bytes()
    if b"\0" in data[:_SNIFF]:
        raise CorpusError(
            f"{str(path)!r} is a binary file (it holds NUL bytes): a corpus is UTF-8 text"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CorpusError(
            f"{str(path)!r} is not UTF-8 text (byte {exc.start} is "
            f"0x{data[exc.start]:02x}): a corpus is UTF-8 text"
        ) from None
    texts = _split(text, unit)
    if not texts:
        raise CorpusError(f"{str(path)!r} holds no text: the corpus is empty")
    return Corpus(texts, path.name)


def _split(text: str, unit: Unit) -> tuple[str, ...]:
    lines = text.splitlines()
    if unit == "line":
        return tuple(" ".join(line.split()) for line in lines if line.strip())
    paragraphs: list[str] = []
    current: list[str] = []
    for line in [*lines, ""]:
        if line.strip():
            current.append(line.strip())
        elif current:
            paragraphs.append(" ".join(" ".join(current).split()))
            current = []
    return tuple(paragraphs)


def _wordnet() -> Corpus:
    files = [WORDNET / f for f in _WORDNET_FILES]
    if not all(f.is_file() for f in files):
        raise CorpusError(
            f"WordNet's glosses are not installed in {WORDNET}: apt-get install wordnet-base"
        )
    texts = []
    for f in files:
        for line in f.read_text(encoding="utf-8").splitlines():
            if line.startswith("  ") or " | " not in line:  # the licence header
                continue
            gloss = line.split(" | ", 1)[1].strip()
            if gloss:
                texts.append(gloss)
    return Corpus(tuple(texts), "wordnet")


@dataclass(frozen=True)
class Fitted:
    """A text as the model runs it: its pieces (one unless it was split), each as token ids."""

    pieces: tuple[tuple[str, tuple[int, ...]], ...]  # (piece text, ids)
    split: bool = False
    skipped: bool = False


def fit(model: AtlasModel, text: str, *, long: LongTexts = "split") -> Fitted:
    """The pieces of `text` that fit the model's limit; an empty text is skipped."""
    try:
        return Fitted(((text, model.tokenize(text)[1]),))
    except EmptySequenceError:
        return Fitted((), skipped=True)
    except TooLongError:
        if long == "skip":
            return Fitted((), skipped=True)
    pieces = _halves(model, text)
    return Fitted(tuple(pieces), split=True) if pieces else Fitted((), skipped=True)


def _halves(model: AtlasModel, text: str) -> list[tuple[str, tuple[int, ...]]]:
    """`text` cut at the space nearest its middle, again and again, until each piece fits."""
    try:
        return [(text, model.tokenize(text)[1])]
    except EmptySequenceError:
        return []
    except TooLongError:
        words = text.split()
        if len(words) < 2:
            return []  # one word over the limit: nothing left to cut
        mid = len(words) // 2
        return _halves(model, " ".join(words[:mid])) + _halves(model, " ".join(words[mid:]))
