"""Issue 27: a SmolLM2 offline file keeps what its heads share once (a GQA group's keys and
values, the mask); in Chromium, from file://, it still switches heads within and across groups
with the Python API's weights and words, and asks for nothing but itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from attnlab.export import standalone_html
from attnlab.models.heads import explain_head

pytestmark = pytest.mark.browser


def test_a_smollm2_file_switches_heads_across_its_kv_groups(
    new_page, tmp_path: Path, smollm2, artifacts: Path
) -> None:
    from test_standalone_file import expect, open_file, shown, table

    mt = smollm2.trace("The river bank was muddy after the rain.")
    path = tmp_path / "smollm2.html"
    path.write_text(standalone_html(mt, layer=3, head=1, focus="bank"), encoding="utf-8")
    page = new_page()
    asked = open_file(page, path)
    name = "Real attention weights"
    caption = page.get_by_role("table", name=name).locator("caption")
    for head in ("1", "2", "4", "8"):  # 1 and 2 share key/value head 0; 4 reads 1, 8 reads 2
        page.get_by_label("Head", exact=True).select_option(head)
        expect()(caption).to_contain_text(f"layer 3, head {head}")
        assert table(page, name) == shown(mt.head(3, int(head)).weights)
    page.get_by_role("button", name="Next step", exact=True).click()
    told = explain_head(mt, layer=3, head=8, focus=mt.focus_index("bank")).beats[1].text
    beat = page.get_by_role("status", name="Narration").locator(".beat-text")
    expect()(beat).to_have_text(told)
    page.screenshot(path=str(artifacts / "standalone-smollm2.png"))
    assert asked == [path.as_uri()], asked
