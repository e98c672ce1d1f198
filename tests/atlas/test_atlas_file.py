"""The atlas file: Parquet rows per head and statistic, read back exactly (atlas/file.py)."""

from pathlib import Path

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from attnlab.atlas.atlas_errors import AtlasFileError  # noqa: E402
from attnlab.atlas.corpus import Corpus  # noqa: E402
from attnlab.atlas.file import Provenance, read_atlas, write_atlas  # noqa: E402
from attnlab.atlas.ranking import ranking, render_ranking  # noqa: E402
from attnlab.atlas.run import AtlasOptions, run_atlas  # noqa: E402
from attnlab.atlas.stats import STATISTICS, HeadSums  # noqa: E402


def atlas(tmp_path: Path) -> tuple[Path, Provenance, HeadSums]:
    c = Corpus(("a b a b c d a b", "the cat and the hat sat on a mat", "x y z x y z"), "three")
    sums = run_atlas(
        c, AtlasOptions(model="patterns", scheduler="none", probes=2, probe_length=6)
    ).sums
    prov = Provenance(
        model="patterns",
        corpus=c.source,
        corpus_sha256=c.digest,
        texts=sums.texts_read,
        pieces=sums.pieces,
        tokens=sums.tokens,
        split=sums.split,
        skipped=sums.skipped,
        epsilon=0.3,
        top_k=3,
        probes=2,
        version=1,
        attnlab="0.1.0",
    )
    path = tmp_path / "a.parquet"
    write_atlas(path, sums, prov)
    return path, prov, sums


def test_one_row_per_head_and_statistic_and_an_exact_round_trip(tmp_path: Path) -> None:
    path, prov, original = atlas(tmp_path)
    table = pq.read_table(path)
    assert table.num_rows == 2 * 3 * len(STATISTICS)
    assert table.column_names == [
        "layer",
        "head",
        "statistic",
        "mean",
        "total",
        "count",
        "histogram",
        "exemplars",
    ]
    sums, back = read_atlas(path)
    assert back == prov and sums == original and sums.texts_read == 3
    rows = table.to_pylist()
    prev = next(r for r in rows if (r["statistic"], r["layer"], r["head"]) == ("previous", 0, 0))
    assert prev["mean"] == 1 and prev["exemplars"][0]["text"] in {
        "a b a b c d a b",
        "the cat and the hat sat on a mat",
    }  # "x y z x y z" is too short to be an exemplar
    top = ranking(sums, "induction")[0]
    assert (top.layer, top.head) == (1, 0)
    text = render_ranking(sums, prov)
    assert "Previous-token weight" in text and "L0 H0 1.000" in text


def test_files_that_are_not_an_atlas_are_refused(tmp_path: Path) -> None:
    with pytest.raises(AtlasFileError, match="no atlas file at"):
        read_atlas(tmp_path / "none.parquet")
    junk = tmp_path / "junk.parquet"
    junk.write_text("hello")
    with pytest.raises(AtlasFileError, match="is not a Parquet file"):
        read_atlas(junk)
    plain = tmp_path / "plain.parquet"
    pq.write_table(pa.table({"x": [1]}), plain)
    with pytest.raises(AtlasFileError, match="Parquet but not an atlas"):
        read_atlas(plain)
