"""words/grammar.py: possessives and the names of repeated tokens."""

from attnlab.words.grammar import counted, possessive, token_names


def test_possessives_read_as_english() -> None:
    assert possessive("bank") == "bank's"
    assert possessive("farmers") == "farmers'"  # not farmers's
    assert possessive("glass") == "glass's"
    assert possessive("bus") == "bus's"
    assert possessive("the") == "“the”'s"
    assert possessive("[CLS]") == "[CLS] token's"  # not “[CLS]”'s
    assert possessive("##s") == "##s token's"
    assert possessive("b₂") == "b₂'s"


def test_a_repeated_token_is_named_by_its_place() -> None:
    assert token_names(["by", "the", "river", "bank"]) == ("by", "the", "river", "bank")
    assert token_names(["a", "b", "b"]) == ("a", "b₁", "b₂")
    assert token_names(["the", "bank", "by", "the", "bank"]) == (
        "the₁",
        "bank₁",
        "by",
        "the₂",
        "bank₂",
    )


def test_a_count_agrees_with_its_noun() -> None:
    assert counted(1, "token") == "1 token"  # not "1 tokens" (shorten it by 1 token)
    assert counted(2, "token") == "2 tokens"
    assert counted(0, "token") == "0 tokens"
    assert counted(1600, "head") == "1600 heads"
