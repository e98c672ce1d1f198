"""What the server accepts and how much heavy work it takes on, as one options object.

`ServerOptions` is passed whole to `create_app` (and built by `serve` from the command line):

    heavy_workers   how many heavy computations the models' worker runs at once (a forward
                    pass over more than `heavy_tokens` tokens not kept yet, a masked rerun)
    heavy_queue     how many more heavy requests may wait (the cost measurement counts too);
                    beyond that the answer is 503 with Retry-After, so a flood of heavy work
                    never piles up behind itself
    retry_after_seconds  the Retry-After of a 503 (busy, or a worker that died)
    max_body_bytes  a request body larger than this answers 413 (64 KB: a lesson body with every
                    edit set is under 2 KB)
    max_json_depth  a JSON body nested deeper than this answers 400
    host            the host the server listens on; requests must name it (or a loopback name)
                    in their Host header

How many processes and threads compute comes from the machine (executors.cores), not from here.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LOOPBACK_HOSTS", "ServerOptions"]

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
"""Host names that always reach this machine only."""


@dataclass(frozen=True)
class ServerOptions:
    """The server's limits (see the module's docstring)."""

    heavy_workers: int = 1
    heavy_queue: int = 4
    heavy_tokens: int = 24
    retry_after_seconds: int = 2
    max_body_bytes: int = 64 * 1024
    max_json_depth: int = 32
    host: str = "127.0.0.1"

    def __post_init__(self) -> None:
        if self.heavy_workers < 1 or self.heavy_queue < 0 or self.heavy_tokens < 1:
            raise ValueError(
                f"heavy_workers ({self.heavy_workers}) and heavy_tokens ({self.heavy_tokens}) "
                f"must be >= 1, heavy_queue ({self.heavy_queue}) >= 0"
            )
        if self.max_body_bytes < 1 or self.max_json_depth < 2 or self.retry_after_seconds < 1:
            raise ValueError(
                f"max_body_bytes ({self.max_body_bytes}) must be >= 1, max_json_depth "
                f"({self.max_json_depth}) >= 2 and retry_after_seconds "
                f"({self.retry_after_seconds}) >= 1"
            )
