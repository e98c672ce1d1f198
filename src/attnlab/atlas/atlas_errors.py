"""The atlas's named errors, each an AttnlabError so the CLI prints its one line (exit 2)."""

from __future__ import annotations

from attnlab.errors import AttnlabError

__all__ = ["AtlasFileError", "CorpusError", "SchedulerError"]


class CorpusError(AttnlabError):
    """A corpus that cannot be read as texts: missing, empty, binary or not UTF-8."""

    field = "corpus"


class SchedulerError(AttnlabError):
    """A Dask scheduler that does not answer, or a cluster that cannot be started."""

    field = "scheduler"


class AtlasFileError(AttnlabError):
    """A file that is not an atlas attnlab wrote (not Parquet, or without its provenance)."""

    field = "atlas"
