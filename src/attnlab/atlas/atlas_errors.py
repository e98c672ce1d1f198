"""The atlas's named errors, each an AttnlabError so the CLI prints its one line (exit 2)."""

from __future__ import annotations

from pathlib import Path

from attnlab.errors import AttnlabError

__all__ = ["AtlasFileError", "AtlasStopped", "CorpusError", "SchedulerError"]


class CorpusError(AttnlabError):
    """A corpus that cannot be read as texts: missing, empty, binary or not UTF-8."""

    field = "corpus"


class SchedulerError(AttnlabError):
    """A Dask scheduler that does not answer, or a cluster that cannot be started."""

    field = "scheduler"


class AtlasFileError(AttnlabError):
    """A file that is not an atlas attnlab wrote (not Parquet, or without its provenance)."""

    field = "atlas"


class AtlasStopped(KeyboardInterrupt):
    """A run stopped by Ctrl-C: how many of its shards are kept on disk, and where."""

    def __init__(self, *, kept: int, shards: int, store: Path | None) -> None:
        super().__init__(f"{kept} of {shards} shards kept in {store}")
        self.kept, self.shards, self.store = kept, shards, store
