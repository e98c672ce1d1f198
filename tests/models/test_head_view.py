"""The head view: one head of a trace for one focus, computed once, frozen, read by every host."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from test_model_trace import N, gqa_trace

from attnlab.encode.head_json import encode_head_view
from attnlab.models.decoder_trace import DecoderTrace
from attnlab.models.head_view import FULL_GRID_AT, head_view, summary_of, text_of
from attnlab.models.model_trace import ModelTrace
from attnlab.models.window import WHOLE_AT


def test_a_view_is_frozen_and_holds_the_model_the_text_and_its_spans(minilm) -> None:  # type: ignore[no-untyped-def]
    text = "The river Bank, Pneumonoultramicroscopic"
    mt = minilm.trace(text)
    v = head_view(mt, layer=1, head=3, focus="bank")
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.layer = 2  # type: ignore[misc]
    assert v.text == text and v.summary.max_tokens == 512 and not v.summary.causal
    assert v.summary.special[:2] == ("[CLS]", "[SEP]") and "MiniLM" in v.summary.description
    assert v.rows == tuple(range(mt.n)) and v.mask is None and v.rope is None
    assert v.spans is not None and len(v.spans) == mt.n
    for tok, (a, b) in zip(mt.tokens, v.spans, strict=True):
        if tok not in mt.special:  # each piece is its own characters of the text
            assert text[a:b].lower() == tok.removeprefix("##")
    assert v.grid is not None and v.grid.kind == "focus" and v.grid.attentions is None
    assert np.allclose(v.grid.rows[1, 3], mt.head(1, 3).weights[v.focus], atol=1e-6)


def test_a_decoders_view_holds_its_mask_its_groups_and_rope(smollm2) -> None:  # type: ignore[no-untyped-def]
    mt = smollm2.trace("it's 3.14 by the river bank")
    v = head_view(mt, layer=2, head=4, focus=" bank", grid="full")
    assert v.summary.causal and v.summary.max_tokens == 2048 and v.summary.n_kv_heads == 3
    assert v.text == "it's 3.14 by the river bank"
    r = len(v.rows)
    assert v.mask is not None and np.array_equal(v.mask, np.tril(np.ones((r, r), dtype=bool)))
    assert v.gqa.kv_head == 1 and v.gqa.group == (3, 4, 5) and v.gqa.identical
    assert np.array_equal(v.gqa.keys[0], v.gqa.keys[2])  # one key/value head, three readers
    assert v.rope is not None and v.rope.distance == v.focus - v.rope.key
    assert v.rope.key == int(np.argmax(mt.head(2, 4).weights[v.focus]))
    assert v.grid is not None and v.grid.attentions is not None and mt.n <= FULL_GRID_AT


def test_the_encoder_never_calls_back_into_the_model(smollm2, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    mt = smollm2.trace("by the river bank")
    v = head_view(mt, layer=0, head=1, grid="focus")

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the encoder computed")

    for name in ("rows", "head", "rope_query", "score_by_distance", "next_tokens", "logits"):
        monkeypatch.setattr(DecoderTrace, name, refuse)
    monkeypatch.setattr(ModelTrace, "attentions", property(refuse))
    answer = encode_head_view(v)
    assert answer.decoder is not None and answer.text == "by the river bank"
    assert answer.model.causal and answer.grid is not None


def test_a_long_texts_view_cuts_its_rows_and_mask_to_the_window(smollm2) -> None:  # type: ignore[no-untyped-def]
    mt = smollm2.trace(" the river bank" * 40)
    assert mt.n > WHOLE_AT
    v = head_view(mt, layer=3, head=0, focus=60)
    assert v.focus in v.rows and len(v.rows) < mt.n and list(v.rows) == sorted(v.rows)
    assert v.mask is not None and v.mask.shape == (len(v.rows), len(v.rows))
    sub = np.asarray(v.rows)
    assert np.array_equal(v.mask, sub[:, None] >= sub[None, :])  # causal over the text's places


def test_a_trace_built_by_hand_has_the_summary_its_arrays_give() -> None:
    mt, _ = gqa_trace()
    s = summary_of(mt)
    assert (s.n_layers, s.n_heads, s.n_kv_heads, s.max_tokens, s.causal) == (2, 9, 3, N, True)
    assert s.description.startswith("gqa: a decoder model") and text_of(mt) == "t0t1t2t3t4t5t6"
