"""Attention from any library: one AttentionMaps (and one widget state) whatever the layout."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from attnlab.errors import AttentionMapError, MapShapeError, MapValueError, RowSumError
from attnlab.widget.adapter import BFLOAT16_EPS, attention_maps

TOKENS = ["[CLS]", "by", "the", "river", "bank", "[SEP]"]
SRC = str(Path(__file__).resolve().parents[2] / "src")


def weights(layers: int = 2, heads: int = 3, n: int = 6, m: int | None = None) -> np.ndarray:
    scores = np.random.default_rng(7).normal(size=(layers, heads, n, m or n))
    e = np.exp(scores - scores.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)  # (L, H, n, m) rows sum to 1


def test_a_stack_nested_lists_and_one_layers_heads_agree() -> None:
    w = weights()
    stack = attention_maps(w, TOKENS)
    assert stack.weights.shape == (2, 3, 6, 6)
    assert np.array_equal(attention_maps(w.tolist(), TOKENS).weights, stack.weights)
    hf_lists = [layer[None].tolist() for layer in w]  # [(1, H, n, n)] per layer, as lists
    assert np.array_equal(attention_maps(hf_lists, TOKENS).weights, stack.weights)
    circuits = attention_maps(w[1], TOKENS)  # CircuitsVis: (heads, n, n)
    assert circuits.weights.shape == (1, 3, 6, 6)
    assert np.array_equal(circuits.weights[0], w[1])


@pytest.mark.parametrize(
    ("bad", "error", "words"),
    [
        (np.ones(6) / 6, MapShapeError, "expected attention weights shaped"),
        (np.ones((1, 1, 1, 1, 6, 6)) / 6, MapShapeError, "got shape (1, 1, 1, 1, 6, 6)"),
        (np.ones((2, 2, 6, 6)), RowSumError, "not 1"),
        (np.full((2, 2, 6, 6), np.nan), MapValueError, "not finite"),
        (np.ones((2, 2, 5, 5)) / 5, MapShapeError, "got 6 labels for 5 query rows"),
        ([[[0.5, 0.5], [1.0]]], MapValueError, "rows all have the same length"),
        (np.ones((2, 2, 6, 6), dtype=np.int64), MapValueError, "floating point"),
    ],
)
def test_what_cannot_be_attention_is_a_named_error(bad: object, error: type, words: str) -> None:
    with pytest.raises(error) as caught:
        attention_maps(bad, TOKENS)
    assert isinstance(caught.value, AttentionMapError)
    assert words in str(caught.value)


def test_a_batch_of_several_texts_asks_which() -> None:
    two = [np.stack([layer, layer]) for layer in weights()]  # (2, H, n, n) per layer
    with pytest.raises(MapShapeError, match="batch of 2 texts"):
        attention_maps(two, TOKENS)
    assert attention_maps(two, TOKENS, batch=1).weights.shape == (2, 3, 6, 6)


def test_bertviz_encoder_decoder_and_sentence_b() -> None:
    enc, dec = ["a", "b", "c"], ["x", "y"]
    cross = weights(n=2, m=3)
    maps = attention_maps(cross_attention=cross, encoder_tokens=enc, decoder_tokens=dec)
    assert maps.tokens == ("x", "y") and maps.key_tokens == ("a", "b", "c")
    own = attention_maps(
        encoder_attention=weights(n=3), encoder_tokens=enc,
        decoder_attention=weights(n=2), decoder_tokens=dec, kind="decoder",
    )  # fmt: skip
    assert own.tokens == own.key_tokens == ("x", "y")
    with pytest.raises(MapShapeError, match="needs encoder_tokens"):
        attention_maps(encoder_attention=weights(n=3), decoder_tokens=dec)
    assert attention_maps(weights(), TOKENS, sentence_b_start=3).n == 6
    with pytest.raises(MapShapeError, match="sentence_b_start 9"):
        attention_maps(weights(), TOKENS, sentence_b_start=9)


def test_half_precision_rows_get_half_precision_tolerance() -> None:
    w16 = weights(n=64, m=64).astype(np.float16)  # rows off by ~1e-3 once rounded
    off = np.abs(w16.astype(np.float64).sum(-1) - 1).max()
    assert off > 1e-4  # float32's tolerance would refuse these rows
    maps = attention_maps(w16, [str(i) for i in range(64)])
    assert maps.weights.dtype == np.float32 and maps.eps == float(np.finfo(np.float16).eps)
    bent = weights(n=64, m=64)
    bent[..., 0] += 0.05  # scores, not weights: refused even at half precision
    with pytest.raises(RowSumError):
        attention_maps(bent.astype(np.float16), [str(i) for i in range(64)])


@pytest.mark.torch
def test_torch_tuple_float16_and_bfloat16_match_the_numpy_stack() -> None:
    torch = pytest.importorskip("torch")

    w = weights()
    as_numpy = attention_maps(w, TOKENS)
    hf = tuple(torch.tensor(layer[None], dtype=torch.float32, requires_grad=True) for layer in w)
    assert np.allclose(attention_maps(hf, TOKENS).weights, as_numpy.weights, atol=1e-7)
    for dtype, eps in ((torch.float16, float(np.finfo(np.float16).eps)),
                       (torch.bfloat16, BFLOAT16_EPS)):  # fmt: skip
        half = tuple(torch.tensor(layer[None]).to(dtype) for layer in w)
        maps = attention_maps(half, TOKENS)
        assert maps.eps == eps and maps.weights.dtype == np.float32
        assert np.abs(maps.weights - as_numpy.weights).max() < 4 * eps


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::FutureWarning")
def test_transformers_outputs_attentions_are_the_models_own(minilm) -> None:  # type: ignore[no-untyped-def]
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from transformers.utils import logging

    from attnlab.models import model_folder

    logging.set_verbosity_error()
    folder = str(model_folder("minilm")[1])
    bert = transformers.BertModel.from_pretrained(folder, attn_implementation="eager").eval()
    t = minilm.trace("by the river bank")
    with torch.no_grad():
        out = bert(input_ids=torch.tensor([t.token_ids]), output_attentions=True)
    maps = attention_maps(out.attentions, t.tokens, source="transformers")
    assert maps.weights.shape == t.attentions.shape == (6, 12, 6, 6)
    assert np.abs(maps.weights - t.attentions).max() < 1e-4


def test_the_numpy_path_never_imports_torch() -> None:
    code = textwrap.dedent(
        """
        import sys, numpy as np
        import attnlab
        w = np.full((2, 3, 4, 4), 0.25)
        widget = attnlab.show(w, ["a", "b", "c", "d"])
        widget.layer, widget.head, widget.focus = 1, 2, 0
        widget = attnlab.show(w.tolist(), ["a", "b", "c", "d"])
        print("torch" in sys.modules, "transformers" in sys.modules, type(widget).__name__)
        """
    )
    env = {**os.environ, "PYTHONPATH": SRC}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         check=True)  # fmt: skip
    assert out.stdout.split() == ["False", "False", "MapsWidget"]


def test_batch_on_one_numpy_stack_is_refused_not_read_another_way() -> None:
    """Bug: one NumPy (2, H, n, n) array was two layers without batch= and a batch of two texts
    with batch=1: the same array read two ways, the second without a word."""
    stack = np.stack(weights())  # (L, H, n, n): a NumPy array has no batch axis by name
    assert attention_maps(stack, TOKENS).weights.shape == stack.shape  # layers, as documented
    for b in (0, 1):
        with pytest.raises(MapShapeError, match="no batch axis") as caught:
            attention_maps(stack, TOKENS, batch=b)
        assert caught.value.field == "batch"
