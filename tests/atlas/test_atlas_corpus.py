"""Reading a corpus, refusing what is not one, and fitting long texts (atlas/corpus.py)."""

from pathlib import Path

import pytest

from attnlab.atlas.atlas_errors import CorpusError
from attnlab.atlas.corpus import WORDNET, fit, read_corpus
from attnlab.atlas.patterns import PatternModel


def write(tmp_path: Path, data: bytes) -> Path:
    p = tmp_path / "corpus.txt"
    p.write_bytes(data)
    return p


def test_paragraphs_or_lines(tmp_path: Path) -> None:
    p = write(tmp_path, b"one line\nand its next\n\n\n  second   text \n")
    assert read_corpus(p).texts == ("one line and its next", "second text")
    assert read_corpus(p, unit="line").texts == ("one line", "and its next", "second text")
    assert read_corpus(p).digest != read_corpus(p, unit="line").digest


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "holds no text: the corpus is empty"),
        (b" \n\n \t\n", "holds no text"),
        (b"PK\x03\x04\x00\x00binary", "binary file"),
        (b"caf\xe9 au lait", "not UTF-8 text \\(byte 3 is 0xe9\\)"),
    ],
)
def test_what_is_not_a_corpus_is_named(tmp_path: Path, data: bytes, message: str) -> None:
    with pytest.raises(CorpusError, match=message):
        read_corpus(write(tmp_path, data))


def test_a_missing_file_says_what_a_corpus_is(tmp_path: Path) -> None:
    with pytest.raises(CorpusError, match=r"no corpus file at .*'wordnet'"):
        read_corpus(tmp_path / "nope.txt")


def test_long_texts_are_split_at_spaces_or_skipped() -> None:
    model = PatternModel(max_tokens=4)
    text = "a b c d e f g h i j"  # 10 tokens over a limit of 4
    split = fit(model, text)
    assert split.split and [p for p, _ in split.pieces] == ["a b", "c d e", "f g", "h i j"]
    assert all(len(ids) <= 4 for _, ids in split.pieces)
    skipped = fit(model, text, long="skip")
    assert skipped.skipped and not skipped.pieces
    assert fit(model, "   ").skipped  # an empty text is skipped too
    assert fit(model, "a b").pieces[0][0] == "a b"


@pytest.mark.skipif(not (WORDNET / "data.noun").is_file(), reason="apt-get install wordnet-base")
def test_wordnet_glosses() -> None:
    corpus = read_corpus("wordnet")
    assert len(corpus.texts) == 117_659
    assert any(t.startswith("a large natural stream of water") for t in corpus.texts)
    assert not any("Princeton" in t and "licen" in t.lower() for t in corpus.texts[:5])
    assert corpus.head(3).texts == corpus.texts[:3]
