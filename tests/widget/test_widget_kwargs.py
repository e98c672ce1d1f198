"""attnlab.show called as BertViz's and TransformerLens' users call their tools: their keywords
honoured or refused by name, never a raw TypeError naming one of attnlab's own functions."""

from __future__ import annotations

import numpy as np
import pytest

import attnlab
from attnlab.errors import ArgumentTypeError, AttnlabError, MapShapeError
from attnlab.words.numfmt import num

TOKENS = ["[CLS]", "the", "bank", "[SEP]", "a", "river", "[SEP]"]
B = 4  # sentence B starts at "a"


def weights(layers: int = 3, heads: int = 4, n: int = 7) -> np.ndarray:
    scores = 3 * np.random.default_rng(3).normal(size=(layers, heads, n, n))
    e = np.exp(scores - scores.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)  # (L, H, n, n) rows sum to 1


def test_bertviz_head_view_keywords_attention_and_tokens() -> None:
    w = weights()
    named = attnlab.show(attention=w, tokens=TOKENS)  # head_view(attention=..., tokens=...)
    positional = attnlab.show(w, TOKENS)
    assert named.trace == positional.trace and named.grid == positional.grid
    with pytest.raises(ArgumentTypeError, match="given twice"):
        attnlab.show(w, TOKENS, attention=w)


def test_include_layers_and_heads_show_a_subset_under_their_own_numbers() -> None:
    w = weights()
    x = attnlab.show(w, TOKENS, include_layers=[1, 2], include_heads=[3, 0], layer=2, head=0)
    assert x.info["n_layers"] == 2 and x.info["n_heads"] == 2
    assert x.info["layer_ids"] == [1, 2] and x.info["head_ids"] == [3, 0]
    assert (x.layer, x.head) == (1, 1)  # layer 2, head 0 of the model: the second of each shown
    assert x.trace["model"]["layer_ids"] == [1, 2]  # the view labels with these
    np.testing.assert_allclose(x.maps.weights[1, 1], w[2, 0])
    np.testing.assert_allclose(x.maps.weights[0, 0], w[1, 3])
    assert np.asarray(x.grid["top"]).shape == (2, 2)


def test_head_views_heads_is_include_heads_and_two_that_disagree_are_refused() -> None:
    w = weights()
    a = attnlab.show(w, TOKENS, heads=[2])
    assert a.info["head_ids"] == [2] and a.info["n_layers"] == 3
    np.testing.assert_allclose(a.maps.weights[:, 0], w[:, 2])
    with pytest.raises(MapShapeError, match="disagree"):
        attnlab.show(w, TOKENS, heads=[2], include_heads=[1])


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"include_layers": [5]}, "include_layers [5]: [5] not among the 3 layers"),
        ({"include_heads": [0, 0]}, "twice"),
        ({"include_layers": 1}, "include_layers must be a list of whole numbers"),
        ({"include_heads": []}, "empty"),
        ({"include_layers": [0], "layer": 2}, "layer 2 is not among the layers shown, 0"),
        ({"html_action": "return"}, "w.save('weights.csv')"),
        ({"html_action": "print"}, "html_action must be 'view'"),
        ({"display_mode": "light"}, "show() has no option 'display_mode'"),
        ({"prettify_tokens": "yes"}, "prettify_tokens must be True or False"),
    ],
)
def test_options_that_cannot_be_honoured_are_refused_by_name(options: dict, words: str) -> None:
    with pytest.raises(AttnlabError) as caught:
        attnlab.show(weights(), TOKENS, **options)
    assert words in str(caught.value)
    assert "attention_maps()" not in str(caught.value)


def test_html_action_view_is_what_a_widget_does() -> None:
    assert attnlab.show(weights(), TOKENS, html_action="view").trace is not None


def test_prettify_tokens_writes_bpe_marks_as_spaces() -> None:
    bpe = ["<s>", "The", "Ġriver", "Ġbank", "▁was", "wet</w>", "</s>"]
    x = attnlab.show(weights(), bpe, prettify_tokens=True)
    assert x.maps.tokens == ("<s>", "The", " river", " bank", " was", "wet", "</s>")
    assert attnlab.show(weights(), bpe).maps.tokens == tuple(bpe)  # as given, by default


def test_sentence_b_start_is_drawn_and_summarised_from_the_weights() -> None:
    w = weights()
    x = attnlab.show(w, TOKENS, sentence_b_start=B, focus=2)
    assert x.info["sentence_b_start"] == B and x.trace["model"]["sentence_b_start"] == B
    a_to_b = w[:, :, :B, B:].sum(-1).mean()
    b_to_a = w[:, :, B:, :B].sum(-1).mean()
    intro = x.words["maps.intro"]
    assert "B starts at token 4 (“a”)" in intro and "12 heads" in intro
    assert f"sentence A gives {num(a_to_b)} of its attention to sentence B" in intro
    assert f"a token of B gives {num(b_to_a)} to sentence A" in intro
    parallel = x.trace["narration"][5]["text"]
    other = w[0, 0, 2, B:].sum()  # "bank" (A) in layer 0, head 0, on sentence B
    assert f"“bank” is in sentence A: this head gives {num(other)} of its weight" in parallel
    with pytest.raises(MapShapeError, match=r"expected 1\.\.6"):
        attnlab.show(w, TOKENS, sentence_b_start=7)


def test_batch_for_weights_of_one_text_is_refused_not_ignored() -> None:
    per_layer = [layer for layer in weights()]  # (H, n, n) a layer: no batch axis
    with pytest.raises(MapShapeError, match="hold one text"):
        attnlab.show(per_layer, TOKENS, batch=1)


def test_an_empty_tuple_says_what_was_passed_and_what_was_expected() -> None:
    with pytest.raises(MapShapeError) as caught:
        attnlab.show((), TOKENS)  # BertViz's README: head_view(outputs[-1], tokens)
    said = str(caught.value)
    assert "empty tuple" in said and "outputs.attentions" in said and "(0,)" not in said


@pytest.fixture(scope="module")
def tiny_bert():  # type: ignore[no-untyped-def]
    """A 3-layer, 4-head random BERT built here, eager attention (BertViz's own setup)."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    cfg = transformers.BertConfig(
        vocab_size=50, hidden_size=32, num_hidden_layers=3, num_attention_heads=4,
        intermediate_size=64, attn_implementation="eager",
    )  # fmt: skip
    torch.manual_seed(0)
    model = transformers.BertModel(cfg).eval()
    with torch.inference_mode():
        ids = torch.tensor([[2, 11, 12, 3, 13, 14, 3], [2, 15, 16, 3, 17, 18, 3]])
        return model(ids, output_attentions=True)


@pytest.mark.torch
def test_bertviz_readme_lines_with_transformers_5(tiny_bert) -> None:  # type: ignore[no-untyped-def]
    outputs = tiny_bert
    assert outputs[-1] == ()  # transformers 5: the cross-attention, empty for an encoder
    with pytest.raises(MapShapeError, match=r"empty tuple.*outputs\.attentions"):
        attnlab.show(outputs[-1], TOKENS)
    x = attnlab.show(attention=outputs.attentions, tokens=TOKENS, batch=1, sentence_b_start=B,
                     include_layers=[2])  # fmt: skip
    assert x.info["layer_ids"] == [2]
    np.testing.assert_allclose(x.maps.weights[0], outputs.attentions[2][1].numpy(), atol=0)


@pytest.mark.torch
def test_a_transformerlens_pattern_with_a_batch_asks_which_row(tiny_bert) -> None:  # type: ignore[no-untyped-def]
    pattern = tiny_bert.attentions[1]  # cache["pattern", 1]: (batch 2, H, n, n), one tensor
    with pytest.raises(MapShapeError) as caught:
        attnlab.show(pattern, TOKENS)
    said = str(caught.value)
    assert "batch of 2 texts" in said and "batch=0..1" in said and caught.value.field == "batch"
    x = attnlab.show(pattern, TOKENS, batch=1)
    assert x.info["n_layers"] == 1
    np.testing.assert_allclose(x.maps.weights[0], pattern[1].numpy(), atol=0)
    one = attnlab.show(pattern[:1], TOKENS)  # a batch of one text: nothing to ask
    np.testing.assert_allclose(one.maps.weights[0], pattern[0].numpy(), atol=0)
    with pytest.raises(MapShapeError, match=r"outside 0\.\.1"):
        attnlab.show(pattern, TOKENS, batch=2)
