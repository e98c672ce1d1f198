"""attnlab.widget.atlas_view in a real JupyterLab, in headless Chromium: the Atlas view renders
from the kernel's trait (its numbers the atlas file's), a square pressed is the kernel's
`layer` and `head`, an exemplar's Open button is the kernel's `opened`, and no request leaves
this machine. (JupyterLab is conftest.py's `jupyterlab`, as test_jupyterlab.py's is.)"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from notebook_kernel import kernel_print

pytestmark = [pytest.mark.browser, pytest.mark.slow]


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
def lab(tmp_path_factory: pytest.TempPathFactory, jupyterlab: Any) -> Iterator[tuple[str, Path]]:
    pytest.importorskip("pyarrow")
    root = tmp_path_factory.mktemp("atlas-lab")
    atlas = root / "work" / "minilm-three.parquet"
    atlas.parent.mkdir()
    write_atlas(atlas)
    cell = (
        "from attnlab.widget import atlas_view\n"
        f"w = atlas_view({str(atlas)!r}, statistic='previous')\nw"
    )
    with jupyterlab(root, {"atlas.ipynb": [cell]}) as url:
        yield url, atlas


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
