"""What the server accepts and how much heavy work it takes on, as one options object.

`ServerOptions` is passed whole to `create_app` (and built by `attnlab serve`, cli/serve.py):

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

How many processes and threads compute comes from the machine (models/threads.cores), not from here.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field
from pydantic.dataclasses import dataclass

__all__ = ["LOOPBACK_HOSTS", "ServerOptions"]

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
"""Host names that always reach this machine only."""

AtLeast1 = Annotated[int, Field(ge=1)]


@dataclass(frozen=True)
class ServerOptions:
    """The server's limits (see the module's docstring), checked by pydantic as they are built:
    a limit that takes nothing is refused with its name and value."""

    heavy_workers: AtLeast1 = 1
    heavy_queue: Annotated[int, Field(ge=0)] = 4
    heavy_tokens: AtLeast1 = 24
    retry_after_seconds: AtLeast1 = 2
    max_body_bytes: AtLeast1 = 64 * 1024
    max_json_depth: Annotated[int, Field(ge=2)] = 32
    host: str = "127.0.0.1"
