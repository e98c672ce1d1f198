"""The head atlas: what every head of a model does across a whole corpus.

Mergeable per-head statistics (stats.py) read off each text's weights (measures.py) and off
generated probes (probes.py), over a corpus (corpus.py) cut into shards that run in this process
or on dask.distributed (run.py), saved as Parquet (file.py).
"""

from __future__ import annotations

from attnlab.atlas.atlas_errors import AtlasFileError, CorpusError, SchedulerError
from attnlab.atlas.corpus import Corpus, read_corpus
from attnlab.atlas.run import AtlasOptions, RunResult, run_atlas
from attnlab.atlas.stats import STATISTICS, HeadSums

__all__ = [
    "STATISTICS",
    "AtlasFileError",
    "AtlasOptions",
    "Corpus",
    "CorpusError",
    "HeadSums",
    "RunResult",
    "SchedulerError",
    "read_corpus",
    "run_atlas",
]
