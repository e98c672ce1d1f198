"""How the server shares its work and what it accepts, as one options object.

`ServerOptions` is passed whole to `create_app` (and built by `serve` from the command line).
The sizes are the server's only knobs for load:

    workers         threads that run the handlers (the event loop only reads and answers)
    running         how many of them compute at once (turns.py); the others wait for a turn,
                    so a thread held up waiting never holds up a cheap request, and Python's
                    one-thread-at-a-time lock is not shared by more threads than there are
                    cores (more only made the event loop wait: turns.py has the numbers)
    heavy_workers   how many heavy computations run at once (measuring the cost of attention,
                    a model's forward pass over more than `heavy_tokens` tokens)
    heavy_queue     how many more heavy requests may wait; beyond that the answer is 503 with
                    Retry-After, so a flood of heavy work never queues the cheap routes
    max_body_bytes  a request body larger than this answers 413 (64 KB: a lesson body with every
                    edit set is under 2 KB)
    max_json_depth  a JSON body nested deeper than this answers 400
    host            the host the server listens on; requests must name it (or a loopback name)
                    in their Host header
    switch_interval how often (seconds) Python hands its lock between threads while the server
                    runs (sys.setswitchinterval; Python's default is 0.005): shorter lets the
                    event loop answer a cheap request sooner while workers compute
    gc_young        allocations between two of Python's youngest garbage collections while
                    the server runs (gc.set_threshold; Python's default is 700). With the
                    models in memory each collection stops every thread; fewer of them, and
                    the models frozen out of the oldest ones (model_routes.py), cut the
                    longest stall of the event loop under benchmarks/load.py from 421 ms to
                    126 ms (one process, one run each)
    blas_threads    threads each BLAS matrix product may use while the server runs
                    (threadpoolctl; NumPy's OpenBLAS takes one per core by default). The
                    requests already run side by side on the workers; BLAS threads on top of them
                    wait for each other and crowd out the event loop: on 2 cores under
                    benchmarks/load.py, 1 instead of 2 gave 2.6 times the throughput and pool
                    routes answered in 0.2 s instead of 4-5 s (median)
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LOOPBACK_HOSTS", "ServerOptions"]

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
"""Host names that always reach this machine only."""


@dataclass(frozen=True)
class ServerOptions:
    """The server's pool sizes and limits (see the module's docstring)."""

    workers: int = 6
    running: int = 2
    heavy_workers: int = 1
    heavy_queue: int = 4
    heavy_tokens: int = 24
    retry_after_seconds: int = 2
    max_body_bytes: int = 64 * 1024
    max_json_depth: int = 32
    host: str = "127.0.0.1"
    switch_interval: float = 0.001
    blas_threads: int = 1
    gc_young: int = 20_000

    def __post_init__(self) -> None:
        if self.heavy_workers < 1 or self.heavy_queue < 0 or self.heavy_tokens < 1:
            raise ValueError("heavy_workers and heavy_tokens must be >= 1, heavy_queue >= 0")
        if self.workers <= self.heavy_workers + self.heavy_queue:
            raise ValueError(
                f"workers ({self.workers}) must exceed heavy_workers + heavy_queue "
                f"({self.heavy_workers + self.heavy_queue}): a thread must stay free for "
                "cheap requests while every heavy slot and its queue are taken"
            )
        if not self.heavy_workers < self.running <= self.workers:
            raise ValueError(
                f"running ({self.running}) must exceed heavy_workers ({self.heavy_workers}), "
                "so that a cheap request finds a turn while heavy ones compute, and be at most "
                f"workers ({self.workers})"
            )
        if self.gc_young < 1:
            raise ValueError(f"gc_young must be >= 1, got {self.gc_young}")
        if self.blas_threads < 1:
            raise ValueError(f"blas_threads must be >= 1, got {self.blas_threads}")
        if self.max_body_bytes < 1 or self.max_json_depth < 2 or self.retry_after_seconds < 1:
            raise ValueError("max_body_bytes, max_json_depth and retry_after_seconds too small")
