"""A run cut into chunks (catalog.begin / advance), each chunk's state pickled as it is when it
crosses to a worker process, gives the generator's Steps bit for bit."""

import pickle

import numpy as np
import pytest

from attnlab.train.catalog import MAX_CHUNK, TrainError, advance, begin, start


def _same(a, b) -> None:
    assert [s.step for s in a] == [s.step for s in b]
    for x, y in zip(a, b, strict=True):
        assert x.values == y.values  # floats compared exactly: bit for bit
        assert (x.checkpoint is None) == (y.checkpoint is None)
        if x.checkpoint is not None:
            assert x.checkpoint.scores == y.checkpoint.scores
            for m, n in zip(x.checkpoint.maps, y.checkpoint.maps, strict=True):
                assert m.name == n.name and np.array_equal(m.weights, n.weights)


def _chunked(name: str, steps: int, seed: int, sizes: list[int]):
    run, out, i = begin(name, steps=steps, seed=seed), [], 0
    while not run.done:
        run = pickle.loads(pickle.dumps(run))  # as it crosses to the worker and back
        run, more = advance(run, sizes[i % len(sizes)])
        out.extend(more)
        i += 1
    return run, out


@pytest.mark.parametrize(
    ("name", "steps", "sizes"),
    [("lookup", 40, [1, 7, 3]), ("sqrt-dk", 25, [4, 1]), ("induction", 14, [5, 2])],
)
def test_chunks_give_the_same_steps_as_one_go(name, steps, sizes) -> None:
    whole = list(start(name, steps=steps, seed=5))
    run, cut = _chunked(name, steps, 5, sizes)
    _same(whole, cut)
    assert run.next_step == steps + 1 and len(cut) == steps + 1


def test_a_different_seed_gives_a_different_curve() -> None:
    _, a = _chunked("lookup", 5, 1, [3])
    _, b = _chunked("lookup", 5, 2, [3])
    assert a[0].values["scaled.loss"] != b[0].values["scaled.loss"]


def test_a_finished_run_yields_nothing_more() -> None:
    run, _ = advance(begin("lookup", steps=2), 10)
    assert run.done and advance(run, 5)[1] == []


@pytest.mark.parametrize("count", [0, -1, MAX_CHUNK + 1, 2.5, True])
def test_a_chunk_size_out_of_range_is_refused(count) -> None:
    with pytest.raises(TrainError, match="chunk") as e:
        advance(begin("lookup", steps=2), count)
    assert e.value.field == "count"


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [({"steps": 0}, "steps"), ({"steps": 10**6}, "steps"), ({"seed": -1}, "seed"),
     ({"seed": "3"}, "seed")],
)  # fmt: skip
def test_begin_checks_as_start_does(kwargs, field) -> None:
    with pytest.raises(TrainError) as e:
        begin("lookup", **kwargs)
    assert e.value.field == field
    with pytest.raises(TrainError, match="unknown experiment"):
        begin("lookups")
