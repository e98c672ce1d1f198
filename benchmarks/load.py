"""A bounded loopback load run: 200 clients for 30 s on the toy + model mix.

Starts the server itself in a subprocess on 127.0.0.1 at a free port (the socket is bound here
and handed to uvicorn), as `attnlab serve` runs it (app.uvicorn_config: one uvicorn process and
the workers it spawns: the toy lesson's process pool, the models' worker, the measuring child),
warms the model, then runs CLIENTS asyncio clients
(one keep-alive connection each: Connection) for SECONDS.
Each client first waits a think time, then picks a route from MIX (seeded), asks, waits a think
time (exponential, mean --think seconds; 0 makes every client ask again at once) and asks
again. (The first wait spreads the clients' arrivals as they are later on; when all 200 asked
in the same millisecond, that one burst alone set /api/presets p99 at 0.7-1 s.) A 503 is the server
shedding heavy work as designed: the client waits its Retry-After and goes on; it is counted
apart from errors (a transport failure, a 5xx other than 503, or a 4xx to a request that is
valid).

First, the issue's own probe: /api/presets asked one at a time, idle and then while one
/api/cost runs alone (median and max of each). Then the load run, which prints requests/s,
p50/p99 per route, p50/p99 of /api/presets while a /api/cost was running
(a presets request whose time overlaps a cost request that was computed), the error count and
the server's RSS (all its processes) before (after warm-up) and after. Targets: 0 errors,
presets p99 < 50 ms while heavy routes run, RSS growth < 50 MB.

Measured on the project's shared 2-core VM (a newcomer's browser session running beside it),
the old structure (a hand-written front and two compute processes: `--src` of 66e6b84) and this
one (one uvicorn process on standard executors) alternating, 35 s each:

    run        requests/s  presets p99 while cost  lesson p99  long trace p99  RSS growth  errors
    old, 1st     162.9           10.3 ms              67.6 ms     108.9 ms        +21 MB      0
    new, 1st     161.2           14.8 ms              44.7 ms     178.2 ms        +16 MB      0
    old, 2nd     155.0           12.5 ms             289.3 ms     246.7 ms        +24 MB      0
    new, 2nd     159.3           42.0 ms              89.5 ms     235.4 ms        +16 MB      0

The same throughput, less growth, no errors, /api/presets p99 under 50 ms but above the old
front's: each call into an executor wakes one of the executor's own threads in the server's
process, and the loop then waits for Python's lock behind it (cProfile of the event loop:
ProcessPoolExecutor's wakeup write 3 ms a call, ThreadPoolExecutor's queue put 0.9 ms; the old
front had no threads of its own). The server's switch interval of 0.5 ms (web/app.py) keeps
that wait short: at Python's default 5 ms the same runs gave presets p99 of 19.8-58.6 ms. The
absolute RSS is higher (476 MB against 395 MB: one toy process a core and the models' worker).
The toy explanation computed on the event loop instead of in the pool gave 111.8 requests/s and
p99 952 ms against 142.1 and 240 ms, back to back.

    python benchmarks/load.py [--clients 200] [--seconds 30] [--think 1.0] [--src DIR]

--src runs the server from another checkout's src/ (e.g. /work/main/src) for a comparison.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

import httpx

LONG = (
    "the bank of the river was steep and the water ran fast past the old mill where the "
    "miller kept his savings in a box under the floor because he did not trust the bank in "
    "town and every spring the river rose"
)
SHORT = ["at the savings bank", "by the river bank", "the bank was closed", "a bank of fog"]
MIX: list[tuple[str, str, dict[str, object], int]] = [
    # (label, method and path, parameters, weight)
    ("presets", "GET /api/presets", {}, 20),
    ("lab", "GET /api/lab", {}, 4),
    ("lesson", "GET /api/lesson", {"heads": "2", "positions": "rope"}, 18),
    ("lesson POST", "POST /api/lesson", {"edits": {"embeddings": {"bank": [1, 0, 0, 1]}}}, 8),
    ("sweep", "GET /api/sweep", {"steps": "41"}, 6),
    ("shuffle", "GET /api/shuffle", {"seed": "3"}, 4),
    ("model info", "GET /api/model/info", {}, 4),
    ("model trace short", "GET /api/model/trace", {"text": SHORT}, 16),
    ("model trace long", "GET /api/model/trace", {"text": LONG, "grid": "full"}, 5),
    ("model compare", "GET /api/model/compare", {}, 3),
    ("cost", "GET /api/cost", {}, 1),
]


@dataclass
class Sample:
    label: str
    start: float
    end: float
    status: int  # 0: the request failed in transport


def _rss_mb(pid: int) -> float:
    """The resident memory of process `pid` and all its descendants (the server's compute
    process and its measuring child count as the server's)."""
    total = 0.0
    for one in (pid, *_descendants(pid)):
        try:
            for line in Path(f"/proc/{one}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) / 1024
        except OSError:  # ended meanwhile
            pass
    return total


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _start_server(src: str | None) -> tuple[subprocess.Popen[bytes], str]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.set_inheritable(True)
    port = sock.getsockname()[1]
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src
    # the socket is handed over as a TCP socket, as `attnlab serve` listens: uvicorn's own fd=
    # takes it for a Unix socket, leaves Nagle's algorithm on, and every answer then waits 40 ms
    # for the client's delayed ACK
    code = (
        "import socket, sys, uvicorn\n"
        "from attnlab.web import app\n"
        "sock = socket.socket(fileno=int(sys.argv[1]))\n"
        "if hasattr(app, 'serving_config'):  # an older checkout (--src)\n"
        "    config = app.serving_config()\n"
        "elif hasattr(app, 'uvicorn_config'):  # what `attnlab serve` runs\n"
        "    config = app.uvicorn_config(app.create_app())\n"
        "else:\n"
        "    config = uvicorn.Config(app.create_app(), log_level='warning', access_log=False)\n"
        "uvicorn.Server(config).run(sockets=[sock])"
    )
    proc = subprocess.Popen(
        [sys.executable, "-X", "faulthandler", "-c", code, str(sock.fileno())],
        pass_fds=[sock.fileno()],
        env=env,
    )
    sock.close()
    return proc, f"http://127.0.0.1:{port}"


async def _wait_ready(base: str) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as c:
        for _ in range(600):
            try:
                if (await c.get("/api/presets")).status_code == 200:
                    break
            except httpx.TransportError:
                await asyncio.sleep(0.1)
        await c.get("/api/model/info")
        for text in (*SHORT, LONG):
            await c.get("/api/model/trace", params={"text": text})
        await c.get("/api/cost", params={"max_n": "64"})


async def _probe(base: str) -> None:
    """/api/presets one at a time: idle, then while a single /api/cost runs."""
    async with httpx.AsyncClient(base_url=base, timeout=120) as c:

        async def presets(n: int | None, running: asyncio.Task[object] | None) -> list[float]:
            times: list[float] = []
            while (n is not None and len(times) < n) or (running and not running.done()):
                t0 = time.monotonic()
                await c.get("/api/presets")
                times.append(time.monotonic() - t0)
                await asyncio.sleep(0.02)
            return times

        idle = await presets(20, None)
        cost = asyncio.create_task(c.get("/api/cost"))
        await asyncio.sleep(0.2)
        during = await presets(None, cost)
    for name, t in (("idle", idle), ("while one /api/cost runs", during)):
        print(f"probe /api/presets {name}: n={len(t)} median {_ms(t, 0.5)} ms, max {_ms(t, 1)} ms")


class Connection:
    """One client's keep-alive HTTP/1.1 connection, with as little client work per request as
    asyncio streams allow. (httpx's pool with 200 connections kept the client process at 94 % of
    a core while the server sat at 6 %: the client, not the server, set every latency.)"""

    def __init__(self, base: str) -> None:
        self.host, port = base.removeprefix("http://").split(":")
        self.port = int(port)
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def request(
        self, method: str, target: str, body: bytes | None = None
    ) -> tuple[int, dict[str, str]]:
        """Send one request and read its whole answer: (status, lower-cased headers). A kept
        connection the server closed meanwhile (uvicorn's keep-alive timeout) is opened again
        once, as a browser does; a failure on a fresh connection is an error."""
        for fresh in (self._streams is None, True):
            if self._streams is None:
                self._streams = await asyncio.open_connection(self.host, self.port)
            try:
                return await self._exchange(method, target, body)
            except (IndexError, ValueError, asyncio.IncompleteReadError, ConnectionError):
                self.close()
                if fresh:
                    raise ConnectionError(f"no whole answer to {method} {target[:60]}") from None
        raise AssertionError("unreachable")

    async def _exchange(
        self, method: str, target: str, body: bytes | None
    ) -> tuple[int, dict[str, str]]:
        assert self._streams is not None
        reader, writer = self._streams
        head = f"{method} {target} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        writer.write(head.encode() + b"\r\n" + (body or b""))
        status = int((await reader.readline()).split()[1])
        headers: dict[str, str] = {}
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        await reader.readexactly(int(headers.get("content-length", "0")))
        if headers.get("connection") == "close":
            self.close()
        return status, headers

    def close(self) -> None:
        if self._streams is not None:
            self._streams[1].close()
            self._streams = None


async def _client(
    base: str, rng: random.Random, until: float, think: float, out: list[Sample]
) -> None:
    weights = [w for *_, w in MIX]
    c = Connection(base)
    if think > 0:
        await asyncio.sleep(rng.expovariate(1 / think))  # arrive as a client that just thought
    while time.monotonic() < until:
        label, route, params, _ = rng.choices(MIX, weights)[0]
        method, path = route.split()
        chosen = {k: rng.choice(v) if isinstance(v, list) else v for k, v in params.items()}
        if label.startswith("model trace"):
            chosen["head"] = str(rng.randrange(12))
        start = time.monotonic()
        headers: dict[str, str] = {}
        try:
            if method == "POST":
                answer = c.request(method, path, json.dumps(chosen).encode())
            else:
                answer = c.request(method, f"{path}?{urllib.parse.urlencode(chosen)}")
            status, headers = await asyncio.wait_for(answer, 120)
        except (ConnectionError, OSError, TimeoutError):
            status = 0
            c.close()
        out.append(Sample(label, start, time.monotonic(), status))
        wait = rng.expovariate(1 / think) if think > 0 else 0.0
        if status == 503:
            wait = max(wait, float(headers.get("retry-after", "1")))
        await asyncio.sleep(wait)
    c.close()


def _ms(values: list[float], q: float) -> str:
    if not values:
        return "-"
    values = sorted(values)
    return f"{values[min(len(values) - 1, int(q * len(values)))] * 1000:.1f}"


def _report(
    samples: list[Sample], seconds: float, rss: tuple[float, float], args: argparse.Namespace
) -> None:
    print(f"\nload: {args.clients} clients, {seconds:.0f} s, think time mean {args.think} s, "
          f"server from {args.src or 'this checkout'}")  # fmt: skip
    print(f"{'route':<20}{'n':>7}{'200':>7}{'503':>6}{'errors':>8}{'p50 ms':>10}{'p99 ms':>10}")
    errors = 0
    for label, *_ in MIX:
        mine = [s for s in samples if s.label == label]
        ok = [s.end - s.start for s in mine if s.status == 200]
        shed = sum(s.status == 503 for s in mine)
        bad = sum(s.status not in (200, 503) for s in mine)
        errors += bad
        counts = f"{label:<20}{len(mine):>7}{len(ok):>7}{shed:>6}{bad:>8}"
        print(f"{counts}{_ms(ok, 0.5):>10}{_ms(ok, 0.99):>10}")
    costs = [(s.start, s.end) for s in samples if s.label == "cost" and s.status == 200]
    presets = [s for s in samples if s.label == "presets" and s.status == 200]
    during = [s.end - s.start for s in presets if any(a < s.end and s.start < b for a, b in costs)]
    total = sum(s.status == 200 for s in samples)
    print(
        f"throughput: {len(samples) / seconds:.1f} requests/s ({total / seconds:.1f} answered 200)"
    )
    print(f"/api/presets while /api/cost ran: n={len(during)} p50 {_ms(during, 0.5)} ms, "
          f"p99 {_ms(during, 0.99)} ms (target < 50 ms)")  # fmt: skip
    print(f"errors: {errors} (target 0); 503 shed: {sum(s.status == 503 for s in samples)}")
    print(f"server RSS: {rss[0]:.0f} MB before, {rss[1]:.0f} MB after, "
          f"growth {rss[1] - rss[0]:+.0f} MB (target < 50 MB)")  # fmt: skip


async def _run(args: argparse.Namespace) -> None:
    proc, base = _start_server(args.src)
    try:
        await _wait_ready(base)
        await _probe(base)
        before = _rss_mb(proc.pid)
        samples: list[Sample] = []
        start = time.monotonic()
        until = start + args.seconds
        rngs = [random.Random(args.seed * 1000 + i) for i in range(args.clients)]
        await asyncio.gather(*(_client(base, r, until, args.think, samples) for r in rngs))
        seconds = time.monotonic() - start
        _report(samples, seconds, (before, _rss_mb(proc.pid)), args)
    finally:
        proc.terminate()
        proc.wait(30)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--clients", type=int, default=200)
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--think", type=float, default=1.0, help="mean seconds between requests")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--src", default=None, help="PYTHONPATH of the server (another checkout)")
    args = p.parse_args()
    if not 1 <= args.clients <= 1000 or not 0 < args.seconds <= 300:
        p.error("--clients must be 1..1000 and --seconds 0..300")
    asyncio.run(_run(args))


if __name__ == "__main__":
    main()
