"""The mask panel's words (words/model_views.py): a distance written as the page writes it, and
the refusal of a word the text does not hold."""

from attnlab.words.model_views import SHOWN_CHOICES, distance, unknown_mask_word


def test_a_distance_reads_0_only_when_it_is_0() -> None:
    """The same table tests/js/mask_layout.test.mjs checks of distanceText: the note and the
    table write a distance alike."""
    xs = [0, 0.00015897, 0.0046043, 0.12, 0.5, 0.93, 19.669, 1e-5, 0.0178]
    want = ["0", "0.00016", "0.0046", "0.12", "0.5", "0.93", "19.67", "<0.0001", "0.018"]
    assert [distance(x) for x in xs] == want


def test_an_unknown_word_lists_the_words_in_plain_words() -> None:
    said = unknown_mask_word("zebra", ["by", "the", "river", "bank"])
    assert said == "“zebra” is not a word of the text: type one of its words: by, the, river, bank"
    many = unknown_mask_word("zebra", [f"w{i}" for i in range(SHOWN_CHOICES + 3)])
    assert many.endswith(f"w{SHOWN_CHOICES - 1} and 3 more") and "[" not in many
