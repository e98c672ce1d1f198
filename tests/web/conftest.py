"""The web tests' `client`: every answer it receives is checked against the live /openapi.json
(contract_check.py). It serves one atlas, `patterns-atlas` (the pattern model's heads on a few
texts, run here), so /api/atlas has a good request too."""

import importlib.util
from pathlib import Path

import pytest
from contract_check import ContractClient


def write_pattern_atlas(path: Path) -> Path:
    """A real atlas file: the hand-built pattern model over four texts, in this process."""
    from attnlab.atlas.corpus import Corpus
    from attnlab.atlas.file import Provenance, write_atlas
    from attnlab.atlas.run import VERSION, AtlasOptions, run_atlas

    corpus = Corpus(("a b c a b c", "the cat sat on the mat", "x y z", "one two one two"), "four")
    options = AtlasOptions(model="patterns", scheduler="none", probes=2, probe_length=6)
    sums = run_atlas(corpus, options).sums
    prov = Provenance(
        model="patterns", corpus=corpus.source, corpus_sha256=corpus.digest,
        texts=sums.texts_read, pieces=sums.pieces, tokens=sums.tokens, split=sums.split,
        skipped=sums.skipped, epsilon=options.epsilon, top_k=options.top_k,
        probes=options.probes, version=VERSION, attnlab="test",
    )  # fmt: skip
    write_atlas(path, sums, prov)
    return path


@pytest.fixture(scope="session")
def pattern_atlas(tmp_path_factory: pytest.TempPathFactory) -> Path | None:
    if importlib.util.find_spec("pyarrow") is None:
        return None
    return write_pattern_atlas(tmp_path_factory.mktemp("atlas") / "patterns-atlas.parquet")


@pytest.fixture(scope="session")
def client(pattern_atlas: Path | None) -> ContractClient:
    return ContractClient(atlases=() if pattern_atlas is None else (str(pattern_atlas),))
