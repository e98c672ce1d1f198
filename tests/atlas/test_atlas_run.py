"""The in-process run: 1, 3 and 7 shards identical; a stopped job resumed computes only the rest."""

from pathlib import Path

import pytest

from attnlab.atlas.corpus import Corpus
from attnlab.atlas.run import AtlasOptions, Progress, run_atlas
from attnlab.atlas.stats import STATISTICS
from attnlab.errors import AttnlabError

WORDS = "the river bank rose and the bank of the river fell as water ran to the sea".split()


def corpus(count: int = 30) -> Corpus:
    texts = [" ".join(WORDS[i % 7 : i % 7 + 5 + i % 9]) for i in range(count)]
    texts.append(" ".join(WORDS * 6))  # 102 words: split for the limit of 64
    return Corpus(tuple(texts), "test")


OPTIONS = AtlasOptions(model="patterns", scheduler="none", probes=2, probe_length=8)


def test_one_three_and_seven_shards_give_identical_sums() -> None:
    from dataclasses import replace

    one = run_atlas(corpus(), replace(OPTIONS, shards=1)).sums
    for shards in (3, 7):
        assert run_atlas(corpus(), replace(OPTIONS, shards=shards)).sums == one
    assert one.texts_read == 31 and one.split == 1 and one.pieces == 32
    assert one.means()[STATISTICS.index("previous"), 0, 0] == 1  # the previous-token head


class Stop(Exception):
    pass


def test_a_stopped_job_resumes_and_gives_the_same_atlas(tmp_path: Path) -> None:
    from dataclasses import replace

    options = replace(OPTIONS, shards=5)
    whole = run_atlas(corpus(), options).sums
    seen: list[Progress] = []

    def stop_after_two(p: Progress) -> None:
        seen.append(p)
        if p.shards_done == 2:
            raise Stop

    with pytest.raises(Stop):
        run_atlas(corpus(), options, store=tmp_path, progress=stop_after_two)
    assert len(list(tmp_path.glob("*/shard-*.npz"))) == 2
    resumed = run_atlas(corpus(), options, store=tmp_path)
    assert (resumed.loaded, resumed.computed) == (2, 3)  # nothing computed twice
    assert resumed.sums == whole  # nothing lost
    again = run_atlas(corpus(), options, store=tmp_path)
    assert (again.loaded, again.computed) == (5, 0) and again.sums == whole


def test_another_corpus_or_option_does_not_reuse_the_store(tmp_path: Path) -> None:
    from dataclasses import replace

    run_atlas(corpus(), replace(OPTIONS, shards=2), store=tmp_path)
    other = run_atlas(corpus(12), replace(OPTIONS, shards=2), store=tmp_path)
    assert other.computed == 2
    k = run_atlas(corpus(), replace(OPTIONS, shards=2, top_k=1), store=tmp_path)
    assert k.computed == 2


def test_bad_options_are_named() -> None:
    with pytest.raises(AttnlabError, match="--shards must be 1 or more, got 0"):
        AtlasOptions(shards=0)
    with pytest.raises(AttnlabError, match="ε must be between 0 and 1"):
        AtlasOptions(epsilon=1.5)
