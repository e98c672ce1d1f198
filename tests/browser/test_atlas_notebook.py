"""attnlab.widget.atlas_view in a real JupyterLab, in headless Chromium: the Atlas view renders
from the kernel's trait (its numbers the atlas file's), a square pressed is the kernel's
`layer` and `head`, an exemplar's Open button is the kernel's `opened`, and no request leaves
this machine. (The JupyterLab set-up is test_jupyterlab.py's.)"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from child_server import child_server, free_port

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SRC = str(Path(__file__).resolve().parents[2] / "src")


def write_atlas(path: Path) -> None:
    from attnlab.atlas.corpus import Corpus
    from attnlab.atlas.file import Provenance, write_atlas
    from attnlab.atlas.run import VERSION, AtlasOptions, run_atlas

    corpus = Corpus(("the river bank was muddy", "a b c a b c", "one two three"), "three")
    options = AtlasOptions(model="minilm", scheduler="none", probes=1, probe_length=6)
    sums = run_atlas(corpus, options).sums
    prov = Provenance(
        model="minilm", corpus=corpus.source, corpus_sha256=corpus.digest, texts=sums.texts_read,
        pieces=sums.pieces, tokens=sums.tokens, split=sums.split, skipped=sums.skipped,
        epsilon=options.epsilon, top_k=options.top_k, probes=options.probes, version=VERSION,
        attnlab="test", causal=False,
    )  # fmt: skip
    write_atlas(path, sums, prov)


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("jupyterlab")
    pytest.importorskip("anywidget")
    pytest.importorskip("pyarrow")
    root = tmp_path_factory.mktemp("atlas-lab")
    for name in ("config", "data", "runtime", "work"):
        (root / name).mkdir()
    atlas = root / "work" / "minilm-three.parquet"
    write_atlas(atlas)
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(
            "from attnlab.widget import atlas_view\n"
            f"w = atlas_view({str(atlas)!r}, statistic='previous')\nw"
        )
    ]
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nbformat.write(nb, root / "work" / "atlas.ipynb")
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
        yield url, atlas


def kernel_print(page: Any, code: str) -> str:
    return str(
        page.evaluate(
            """async (code) => {
              const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
              let out = "";
              const future = kernel.requestExecute({ code, store_history: false });
              future.onIOPub = (msg) => {
                if (msg.header.msg_type === "stream") out += msg.content.text;
                const c = msg.content;
                if (msg.header.msg_type === "error") out += c.ename + ": " + c.evalue;
              };
              await future.done;
              return out;
            }""",
            code,
        )
    ).strip()


def until(page: Any, code: str, want: str) -> str:
    deadline = time.monotonic() + 20
    got = ""
    while time.monotonic() < deadline and got != want:
        got = kernel_print(page, code)
        time.sleep(0.3)
    return got


def test_the_atlas_widget_renders_and_talks_to_the_kernel(
    lab: tuple[str, Path], browser: Any, artifacts: Path
) -> None:
    from attnlab.atlas.file import read_atlas
    from attnlab.atlas.stats import STATISTICS

    url, atlas = lab
    sums, _ = read_atlas(atlas)
    means = sums.means()[STATISTICS.index("previous")]
    context = browser.new_context(viewport={"width": 1280, "height": 1600})
    outside: list[str] = []

    def route(r: Any) -> None:
        host = urlparse(r.request.url).hostname
        if r.request.url.startswith(("data:", "blob:")) or host in ("127.0.0.1", "localhost"):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(30_000)
    try:
        page.goto(f"{url}/lab/tree/atlas.ipynb")
        page.wait_for_function(
            "() => window.jupyterapp?.shell.currentWidget?.sessionContext?.session?.kernel"
            "?.status === 'idle'",
            timeout=120_000,
        )
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        cell = page.locator(".atlas-cell[data-layer='1'][data-head='4']")
        cell.wait_for(timeout=120_000)
        text = f"{means[1, 4]:.3f}".rstrip("0").rstrip(".")
        assert cell.text_content() == text
        cell.click()
        page.get_by_role("region", name="Layer 1, head 4").wait_for()
        assert until(page, "print(w.layer, w.head)", "1 4") == "1 4"
        page.get_by_role("region", name="Layer 1, head 4").get_by_role(
            "button", name="Open layer 1, head 4 in the Real model"
        ).first.click()
        got = until(
            page, "print(w.opened['layer'], w.opened['head'], w.opened['model'])", "1 4 minilm"
        )
        assert got == "1 4 minilm"
        page.screenshot(path=str(artifacts / "atlas-jupyterlab.png"))
    finally:
        context.close()
    assert outside == [] and errors == []
