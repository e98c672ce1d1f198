"""Browser fixtures: the app under uvicorn in a thread, Debian's Chromium through Playwright.

One server and one browser per session (and `attnlab serve` itself, per module, for the modules
that time what a learner waits for); a fresh context (its own URL state, viewport and
reduced-motion setting) per test. Every test fails on a console error or an uncaught page error.
Skips, with the reason, where Chromium or Playwright is missing. Never `playwright install`.

Set-ups that several modules share are helpers here: `serve_folder` (`attnlab serve --model
FOLDER` in a child process, for a model folder a module saves) and `jupyterlab` (a JupyterLab
server of this interpreter on notebooks a module writes). Playwright's `expect` is
playwright_expect.py's: a test module cannot import from a conftest.py (pytest keeps one module
named `conftest`, the last of tests/'s conftest.py files it loaded).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import socket
import sys
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from child_server import child_server, free_port

CHROMIUM_FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
SRC = str(Path(__file__).resolve().parents[2] / "src")


def _chromium() -> str | None:
    for candidate in (
        os.environ.get("ATTNLAB_CHROMIUM"),
        "/usr/bin/chromium",
        "/usr/lib/chromium/chromium",
        shutil.which("chromium"),
    ):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


@pytest.fixture(scope="session")
def base_url() -> Iterator[str]:
    """The app, served by uvicorn from a thread on 127.0.0.1 at a free port (its workers are
    processes, started on first use and stopped after the session)."""
    pytest.importorskip("uvicorn")
    import uvicorn

    from attnlab.web.app import create_app, uvicorn_config

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    app = create_app()
    config = uvicorn_config(app)
    config.lifespan = "off"
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the test server did not start")
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=5)
    app.state.executors.close()
    sock.close()


@pytest.fixture(scope="module")
def served_url() -> Iterator[str]:
    """`attnlab serve` itself in a child process (its one server process and the workers it
    spawns, as they are set up): for what is timed end to end, as a learner would run it."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "attnlab", "serve", "--port", str(port)]
    with child_server(cmd, f"{url}/api/presets", name="attnlab serve", start_seconds=30):
        yield url


class ServedFolder(NamedTuple):
    """`attnlab serve --model FOLDER` running: its address and the name the page knows it by."""

    url: str
    name: str  # the folder's name

    def api(self, path: str, **params: Any) -> Any:
        """The JSON the server answers GET `path`?`params` with."""
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(f"{self.url}{path}?{urllib.parse.urlencode(params)}", timeout=60) as r:
            return json.load(r)

    def new_page(self, browser: Any) -> tuple[Any, Any, list[str]]:
        """A context on this server (1280 × 900, reduced motion) and its page: the context, the
        page and the page's uncaught errors as they come."""
        context = browser.new_context(
            viewport={"width": 1280, "height": 900}, base_url=self.url, reduced_motion="reduce"
        )
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        return context, page, errors


@pytest.fixture(scope="session")
def serve_folder() -> Callable[[Path], AbstractContextManager[ServedFolder]]:
    """A helper: `with serve_folder(folder) as served:` runs `attnlab serve --model FOLDER` in a
    child process until the block ends; `served.url`, `served.name`, `served.api(path, ...)`."""

    @contextmanager
    def serve(folder: Path) -> Iterator[ServedFolder]:
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        cmd = [sys.executable, "-m", "attnlab", "serve", "--port", str(port), "--model",
               str(folder)]  # fmt: skip
        with child_server(cmd, f"{url}/api/presets", name="attnlab serve", start_seconds=60):
            yield ServedFolder(url, folder.name)

    return serve


@pytest.fixture(scope="session")
def jupyterlab() -> Callable[[Path, Mapping[str, Sequence[str]]], AbstractContextManager[str]]:
    """A helper: `with jupyterlab(root, {"name.ipynb": cells}) as url:` writes each notebook of
    code cells into root/work and serves root/work with JupyterLab on 127.0.0.1 until the block
    ends: no token or password, its config, data and runtime folders in root, the kernel
    importing attnlab from this source tree (PYTHONPATH)."""
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("jupyterlab")
    pytest.importorskip("anywidget")

    @contextmanager
    def lab(root: Path, notebooks: Mapping[str, Sequence[str]]) -> Iterator[str]:
        for name in ("config", "data", "runtime", "work"):
            (root / name).mkdir(exist_ok=True)
        # JupyterLab's own "get notified about Jupyter news?" toast would sit over the widgets
        # in every screenshot: answered "no" in its user settings before it starts
        news = root / "config/lab/user-settings/@jupyterlab/apputils-extension"
        news.mkdir(parents=True, exist_ok=True)
        (news / "notification.jupyterlab-settings").write_text(
            '{"fetchNews": "false", "checkForUpdates": false}', encoding="utf-8"
        )
        for name, cells in notebooks.items():
            nb = nbformat.v4.new_notebook()
            nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
            nb.metadata["kernelspec"] = {
                "name": "python3",
                "display_name": "Python 3",
                "language": "python",
            }
            nbformat.write(nb, root / "work" / name)
        port = free_port()
        env = {
            **os.environ, "PYTHONPATH": SRC, "JUPYTER_CONFIG_DIR": str(root / "config"),
            "JUPYTER_DATA_DIR": str(root / "data"), "JUPYTER_RUNTIME_DIR": str(root / "runtime"),
            "JUPYTER_PLATFORM_DIRS": "1",
        }  # fmt: skip
        args = [
            sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
            "--IdentityProvider.token=", "--ServerApp.password=",
            "--ServerApp.disable_check_xsrf=True", "--LabApp.expose_app_in_browser=True",
            "--allow-root", f"--ServerApp.root_dir={root / 'work'}",
            "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ]  # fmt: skip
        url = f"http://127.0.0.1:{port}"
        with child_server(args, f"{url}/api/status", name="JupyterLab", start_seconds=120, env=env):
            yield url

    return lab


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium, launched once per session."""
    if importlib.util.find_spec("playwright") is None:
        pytest.skip("Playwright for Python is not installed (pip install playwright)")
    path = _chromium()
    if path is None:
        pytest.skip("Chromium is not installed (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        try:
            browser = pw.chromium.launch(executable_path=path, args=CHROMIUM_FLAGS)
        except Exception as exc:  # a broken install: say so instead of erroring every test
            pytest.skip(f"Chromium at {path} did not start: {exc}")
        yield browser
        browser.close()


class Console:
    """What the page said on its console and as uncaught errors."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.allowed: list[str] = []

    def allow(self, fragment: str) -> None:
        """Expect messages containing `fragment` (Chromium logs every 4xx answer as an error)."""
        self.allowed.append(fragment)

    def unexpected(self) -> list[str]:
        return [e for e in self.errors if not any(a in e for a in self.allowed)]

    def watch(self, page: Any) -> None:
        page.on(
            "console",
            lambda msg: (
                self.errors.append(f"console.{msg.type}: {msg.text}")
                if msg.type in ("error", "warning")
                else None
            ),
        )
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        page.on("dialog", lambda d: (self.errors.append(f"dialog: {d.message}"), d.dismiss()))


@pytest.fixture
def console() -> Console:
    return Console()


@pytest.fixture
def new_page(browser: Any, base_url: str, console: Console) -> Iterator[Any]:
    """A factory: new_page(width=1280, height=800, motion="reduce") -> a Playwright page."""
    contexts: list[Any] = []

    def make(width: int = 1280, height: int = 800, motion: str = "reduce") -> Any:
        context = browser.new_context(
            viewport={"width": width, "height": height},
            reduced_motion=motion,
            base_url=base_url,
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        console.watch(page)
        return page

    yield make
    for context in contexts:
        context.close()
    assert console.unexpected() == [], "the page reported errors"


def focused_name(page: Any) -> str:
    """The accessible name of the focused element, as a screen reader would announce it."""
    return page.evaluate(
        "() => { const e = document.activeElement;"
        " return (e.getAttribute('aria-label') || e.textContent || '').trim(); }"
    )


@pytest.fixture
def tab_to() -> Callable[..., None]:
    """A helper: tab_to(page, name, limit=80) presses Tab until the element named `name` has the
    focus, and fails the test when `limit` presses never reach it (a keyboard user could not)."""

    def press(page: Any, name: str, limit: int = 80) -> None:
        for _ in range(limit):
            page.keyboard.press("Tab")
            if focused_name(page) == name:
                return
        pytest.fail(f"Tab never reached {name!r}")

    return press


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
