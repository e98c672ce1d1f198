"""attnlab.widget.train: the widget's payload carries the run the core computes (every curve
point, every checkpoint's maps) and the catalog the page's view reads, in the notebook module."""

from __future__ import annotations

import json

import pytest

from attnlab.train.catalog import TrainError, start

pytest.importorskip("anywidget")

from attnlab.widget import TrainWidget, train


def test_the_payload_carries_the_curve_and_the_checkpoints() -> None:
    w = train("lookup", steps=40, seed=3)
    assert isinstance(w, TrainWidget) and w.view == "train"
    core = list(start("lookup", steps=40, seed=3))
    run = w.train_run
    assert [p["step"] for p in run["points"]] == list(range(41)) and run["done"] is True
    assert [p["values"]["scaled.loss"] for p in run["points"]] == [
        s.values["scaled.loss"] for s in core
    ]
    saved = [s for s in core if s.checkpoint is not None]
    assert [c["step"] for c in run["checkpoints"]] == [s.step for s in saved]
    assert (
        run["checkpoints"][0]["maps"][0]["weights"] == saved[0].checkpoint.maps[0].weights.tolist()
    )
    assert run["summary"][0].startswith("Scaled: bank's weight on river went from")
    assert [e["name"] for e in w.train_catalog["experiments"]] == ["lookup", "sqrt-dk", "induction"]
    json.dumps(run)  # it crosses to the browser as JSON


def test_the_notebook_module_holds_the_train_view_and_its_styles() -> None:
    w = train("sqrt-dk", steps=3)
    assert "replayTrainer" in w._esm and "train-curves" in w._esm
    assert ".attnlab-nb .train-controls" in w._css


def test_bad_input_is_refused_by_name() -> None:
    with pytest.raises(TrainError) as e:
        train("lookup", steps=0)
    assert e.value.field == "steps"
