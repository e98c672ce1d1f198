"""A server in a child process for the browser tests (`attnlab serve`, JupyterLab): a free port,
started, waited for until it answers, stopped at the end, its messages shown if it fails."""

from __future__ import annotations

import socket
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

import pytest

_direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # no proxy for loopback


def free_port() -> int:
    """A port nothing listens on now: the child binds it again (nothing here asks meanwhile)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def child_server(
    args: list[str], ready: str, *, name: str, start_seconds: float,
    env: Mapping[str, str] | None = None,
) -> Iterator[None]:  # fmt: skip
    """Run `args` until the block ends, once `ready` (a URL) answers. Its output goes to a
    temporary file (a pipe could fill and block it), read only if it does not start."""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(args, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + start_seconds
        while True:
            try:
                _direct.open(ready, timeout=2).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    proc.kill()
                    proc.wait()
                    log.seek(0)
                    said = log.read().decode(errors="replace")[-3000:]
                    pytest.fail(f"{name} did not start:\n{said}")
                time.sleep(0.1)
        try:
            yield
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
