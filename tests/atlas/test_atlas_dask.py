"""The atlas on a LocalCluster the test starts: the same sums as in process, for 1, 3 and 7
shards; a worker killed mid-run changes nothing; an unreachable scheduler is named."""

import os
import signal
from dataclasses import replace
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")

from attnlab.atlas.atlas_errors import SchedulerError  # noqa: E402
from attnlab.atlas.corpus import Corpus  # noqa: E402
from attnlab.atlas.run import AtlasOptions, Progress, run_atlas  # noqa: E402

WORDS = "a cat saw the cat and a dog saw the dog by the river".split()
CORPUS = Corpus(tuple(" ".join(WORDS[i % 5 : i % 5 + 4 + i % 7]) for i in range(28)), "test")


@pytest.fixture(scope="module")
def cluster():  # type: ignore[no-untyped-def]
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        ) as c,
        distributed.Client(c) as client,
    ):
        yield c, client


def test_shards_on_the_cluster_match_the_in_process_atlas(cluster) -> None:  # type: ignore[no-untyped-def]
    c, _ = cluster
    here = AtlasOptions(model="patterns", scheduler="none", shards=1, probes=2, probe_length=8)
    expected = run_atlas(CORPUS, here).sums
    for shards in (1, 3, 7):
        on = replace(here, scheduler=c.scheduler_address, shards=shards)
        assert run_atlas(CORPUS, on).sums == expected


def test_a_killed_worker_changes_nothing(cluster, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    c, client = cluster
    options = AtlasOptions(
        model="patterns-slow", scheduler=c.scheduler_address, shards=7, probes=2, probe_length=8
    )
    expected = run_atlas(CORPUS, replace(options, scheduler="none")).sums
    killed: list[int] = []

    def kill_one(p: Progress) -> None:
        if killed:
            return
        busy = [w for w, keys in client.processing().items() if keys]  # holding shards now
        if busy:  # after the first shard: kill a worker that has shards running or queued
            pid = client.run(os.getpid, workers=busy[:1])[busy[0]]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    result = run_atlas(CORPUS, options, store=tmp_path, progress=kill_one)
    assert killed
    assert result.sums == expected and result.sums.texts_read == len(CORPUS.texts)
    assert len(list(tmp_path.glob("*/shard-*.npz"))) == 7
    client.wait_for_workers(2, timeout=30)  # the nanny restarts it for the next test
    assert killed[0] not in client.run(os.getpid).values()  # the killed process is gone


def test_minilm_on_the_cluster_matches_in_process(cluster, minilm) -> None:  # type: ignore[no-untyped-def]
    c, _ = cluster
    texts = Corpus(("by the river bank", "at the savings bank", "the bank of the river"), "t")
    here = AtlasOptions(model="minilm", scheduler="none", probes=1, probe_length=8)
    assert run_atlas(texts, replace(here, scheduler=c.scheduler_address, shards=3)).sums == (
        run_atlas(texts, here).sums
    )


def test_an_unreachable_scheduler_is_named() -> None:
    options = AtlasOptions(model="patterns", scheduler="tcp://127.0.0.1:9")
    with pytest.raises(
        SchedulerError, match=r"no Dask scheduler answers at 'tcp://127\.0\.0\.1:9'"
    ):
        run_atlas(CORPUS, options)


class _Listener:
    """A plain TCP server on 127.0.0.1: `reply` None accepts and says nothing; else it sends
    `reply` to every connection (an HTTP server's answer, or bytes that are not Dask's)."""

    def __init__(self, reply: bytes | None) -> None:
        import socket
        import threading

        self.reply = reply
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.address = f"tcp://127.0.0.1:{self.sock.getsockname()[1]}"
        self.held: list[socket.socket] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.held.append(conn)
            if self.reply is not None:
                conn.recv(4096)
                conn.sendall(self.reply)

    def close(self) -> None:
        self.sock.close()
        for c in self.held:
            c.close()


HTTP = b"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\nContent-Length: 2\r\n\r\nhi"


@pytest.mark.parametrize("reply", [None, HTTP, b"\xff" * 64], ids=["silent", "http", "garbage"])
def test_a_listener_that_is_not_a_scheduler_is_named_within_seconds(reply: bytes | None) -> None:
    import time

    listener = _Listener(reply)
    try:
        options = AtlasOptions(model="patterns", scheduler=listener.address)
        start = time.monotonic()
        with pytest.raises(SchedulerError, match=r"no Dask scheduler answers at 'tcp://"):
            run_atlas(CORPUS, options)
        assert time.monotonic() - start < 12
    finally:
        listener.close()


def test_the_local_cluster_listens_on_loopback_only() -> None:
    psutil = pytest.importorskip("psutil")
    pytest.importorskip("bokeh")  # the dashboard is there only with bokeh
    seen: list[tuple[str, str]] = []
    links: list[str] = []

    def listening(link: str) -> None:  # called while the cluster is up
        links.append(link)
        me = psutil.Process()
        for proc in [me, *me.children(recursive=True)]:
            for c in proc.net_connections(kind="tcp"):
                if c.status == psutil.CONN_LISTEN:
                    seen.append((c.laddr.ip, f"{proc.pid}:{c.laddr.port}"))

    options = AtlasOptions(model="patterns", scheduler="local", workers=1, probes=1)
    run_atlas(Corpus(("a b c",), "t"), options, dashboard=listening)
    assert links and links[0].startswith("http://127.0.0.1:")
    port = links[0].split(":")[2].split("/")[0]
    assert any(addr.endswith(f":{port}") for _, addr in seen)  # the dashboard's socket
    assert {ip for ip, _ in seen} == {"127.0.0.1"}, seen
