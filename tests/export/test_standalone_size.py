"""Issue 27: a SmolLM2 offline file of a 9-token sentence carried every GQA group's keys and
values three times and the causal mask 270 times (7.2 MB); what heads share is kept once."""

from __future__ import annotations

import json
import re

from attnlab.encode.head_json import encode_head_view
from attnlab.export.standalone import SHARED, file_head, standalone_html
from attnlab.models.head_view import head_view

TEXT = "The river bank was muddy after the rain."  # 9 SmolLM2 tokens


def _data(html: str) -> dict:  # type: ignore[type-arg]
    m = re.search(r'<script type="application/json" id="attnlab-data">(.*?)</script>', html, re.S)
    assert m is not None
    return json.loads(m.group(1))  # type: ignore[no-any-return]


def test_a_smollm2_file_of_nine_tokens_stays_under_6_2_mb(smollm2) -> None:
    mt = smollm2.trace(TEXT)
    assert mt.n == 9
    html = standalone_html(mt, focus="bank")
    assert len(html.encode()) < 6_200_000  # 7,208,231 bytes before
    data = _data(html)
    assert len(data["arrays"]) < len(data["heads"]) * len(SHARED) / 2  # most were repeats


def test_a_head_with_its_shared_fields_put_back_is_the_page_s_head(smollm2) -> None:
    mt = smollm2.trace(TEXT)
    f = mt.focus_index("bank")
    data = _data(standalone_html(mt, focus=f))
    for layer, head in ((0, 0), (0, 4), (29, 8)):
        want = encode_head_view(head_view(mt, layer=layer, head=head, focus=f, grid="none"))
        page = json.loads(json.dumps(want.model_dump(mode="json", exclude={"grid"})))
        assert file_head(data, layer, head) == page, (layer, head)
