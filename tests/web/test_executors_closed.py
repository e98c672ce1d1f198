"""Closed workers stay closed: an app stopped before its start-up thread got to every pool starts
no new one afterwards (before `Closed`, a pool asked after close was made anew and outlived the
app: the "cannot schedule new futures" traceback at test exit, and leaked semaphores)."""

from __future__ import annotations

import pytest

from attnlab.web.app import ServerOptions
from attnlab.web.executors import Closed, Pool
from attnlab.web.model_service import Models
from attnlab.web.offload import Executors


def test_a_pool_asked_after_close_refuses_and_spawns_nothing() -> None:
    pool = Pool(1, what="toy lesson", niceness=0)
    pool.close()
    with pytest.raises(Closed, match="toy lesson"):
        pool.submit(int)
    assert pool._pool is None  # no process pool made


def test_the_model_worker_is_not_started_after_close() -> None:
    models = Models(ServerOptions())
    models.close()
    with pytest.raises(Closed):
        models.start()
    assert models._manager is None


def test_start_after_close_returns_quietly_and_starts_nothing() -> None:
    ex = Executors(ServerOptions())
    ex.close()
    ex.start()  # the lifespan's start-up thread, late: it must neither raise nor spawn
    assert ex.toy._pool is None and ex.train._pool is None and ex.measure._pool is None
    assert ex.models._manager is None
