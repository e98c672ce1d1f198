"""attnlab.widget.atlas_view(path): the Atlas view in a notebook, its numbers the same answer
GET /api/atlas sends (widget/atlas_widget.py), its traits both ways, and an exemplar opened in
the Real model widget."""

import json
from pathlib import Path

import pytest

pytest.importorskip("anywidget")
pytest.importorskip("pyarrow")


def pattern_atlas(tmp_path: Path, model: str = "patterns") -> Path:
    from attnlab.atlas.corpus import Corpus
    from attnlab.atlas.file import Provenance, write_atlas
    from attnlab.atlas.run import VERSION, AtlasOptions, run_atlas

    corpus = Corpus(("a b c a b c", "the river bank", "one two one two"), "three")
    options = AtlasOptions(model=model, scheduler="none", probes=1, probe_length=5)
    sums = run_atlas(corpus, options).sums
    path = tmp_path / f"{model}-three.parquet"
    prov = Provenance(
        model=model, corpus=corpus.source, corpus_sha256=corpus.digest, texts=sums.texts_read,
        pieces=sums.pieces, tokens=sums.tokens, split=sums.split, skipped=sums.skipped,
        epsilon=options.epsilon, top_k=options.top_k, probes=options.probes, version=VERSION,
        attnlab="test",
    )  # fmt: skip
    write_atlas(path, sums, prov)
    return path


def test_the_widget_holds_the_routes_answer_and_the_atlas_view(tmp_path: Path) -> None:
    from attnlab.web.atlas_routes import served_atlases
    from attnlab.widget import atlas_view

    path = pattern_atlas(tmp_path)
    w = atlas_view(path, statistic="induction")
    served = json.loads(served_atlases((str(path),))[path.stem])
    assert w.atlas == served
    assert w.statistic == "induction" and (w.layer, w.head) == (0, 0)
    assert "__modules['atlas.js']" in w._esm
    assert ".attnlab-nb .atlas-cell" in w._css


def test_an_opened_exemplar_becomes_the_real_model_widget(tmp_path: Path) -> None:
    from attnlab.widget import ModelWidget, atlas_view

    w = atlas_view(pattern_atlas(tmp_path))
    with pytest.raises(ValueError, match="no exemplar opened yet"):
        w.open_exemplar()
    w.opened = {"model": "minilm", "text": "the river bank", "layer": 2, "head": 7, "focus": 3}
    m = w.open_exemplar()
    assert isinstance(m, ModelWidget)
    assert (m.layer, m.head, m.focus, m.text) == (2, 7, 3, "the river bank")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"statistic": "bogus"}, r"unknown statistic 'bogus': choose one of entropy, first, "),
        ({"layer": 99}, r"layer must be 0 to 1 \(patterns has 2 layers\), got 99"),
        ({"head": -1}, r"head must be 0 to 2 \(patterns has 3 heads\), got -1"),
    ],
)
def test_a_statistic_layer_or_head_the_atlas_lacks_is_refused_by_name(
    tmp_path: Path, kwargs: dict[str, object], message: str
) -> None:
    from attnlab.errors import AttnlabError
    from attnlab.widget import atlas_view

    path = pattern_atlas(tmp_path)
    with pytest.raises(AttnlabError, match=message):
        atlas_view(path, **kwargs)  # type: ignore[arg-type]
    w = atlas_view(path, statistic="self", layer=1, head=2)
    assert (w.statistic, w.layer, w.head) == ("self", 1, 2)
    name = next(iter(kwargs))
    with pytest.raises(AttnlabError, match=message):
        setattr(w, name, kwargs[name])  # set later, as a notebook user does
    assert (w.statistic, w.layer, w.head) == ("self", 1, 2) and w.error is None
