"""GET /api/atlas: an atlas file served as the Atlas view's JSON, its numbers the file's
(web/atlas_routes.py, encode/atlas_json.py); no atlas or an unknown name is a 400 that says
what to do."""

from pathlib import Path

import numpy as np
import pytest
from contract_check import ContractClient

from attnlab.atlas.file import read_atlas
from attnlab.atlas.stats import SCALE, STATISTICS

pytest.importorskip("pyarrow")


def test_the_answer_holds_the_files_means_ranks_and_exemplars(client, pattern_atlas: Path):
    body = client.get("/api/atlas").json()  # no name: the first atlas served
    sums, prov = read_atlas(pattern_atlas)
    means = sums.means()
    assert (body["name"], body["names"], body["model"]) == ("patterns-atlas", ["patterns-atlas"],
                                                           "patterns")  # fmt: skip
    assert (body["layers"], body["heads"], body["texts"], body["tokens"]) == (
        2, 3, prov.texts, prov.tokens)  # fmt: skip
    assert [s["key"] for s in body["statistics"]] == list(STATISTICS)
    assert body["real_model"] is None  # the Real model view does not run the pattern model
    assert "4 texts" in body["about"] and "2 layers × 3 heads" in body["about"]
    for i, stat in enumerate(body["statistics"]):
        got = np.array([[np.nan if x is None else x for x in row] for row in stat["means"]])
        np.testing.assert_array_equal(got, means[i])
        finite = means[i][np.isfinite(means[i])]
        if finite.size:
            assert (stat["low"], stat["high"]) == (finite.min(), finite.max())
        for layer in range(2):
            for head in range(3):
                shown = stat["exemplars"][layer][head]
                kept = sums.ex_value[i, layer, head]
                assert len(shown) == int((kept >= 0).sum())
                for k, e in enumerate(shown):
                    assert e["value"] == kept[k] / SCALE
                    assert (
                        body["passages"][e["text"]]
                        == sums.texts[int(sums.ex_uid[i, layer, head, k])]
                    )
                    assert e["position"] == sums.ex_position[i, layer, head, k]
    previous = body["statistics"][STATISTICS.index("previous")]
    assert previous["ranks"][0][0] == 1  # the hand-built previous-token head leads


def test_an_unknown_name_and_no_atlas_at_all_say_what_to_do(client) -> None:
    r = client.get("/api/atlas", params={"name": "elsewhere"})
    assert r.status_code == 400 and "choose one of patterns-atlas" in r.json()["error"]
    bare = ContractClient()
    r = bare.get("/api/atlas")
    assert r.status_code == 400
    assert r.json() == {
        "error": "no atlas is served: start the page with attnlab serve --atlas ATLAS.parquet",
        "field": "name",
    }


def test_a_file_that_is_not_an_atlas_is_refused_when_the_app_is_made(tmp_path: Path) -> None:
    from attnlab.atlas.atlas_errors import AtlasFileError

    bad = tmp_path / "notes.parquet"
    bad.write_text("not parquet")
    with pytest.raises(AtlasFileError, match="is not a Parquet file"):
        ContractClient(atlases=(str(bad),))


def test_the_names_route_lists_what_is_served_and_none_is_no_error(client) -> None:
    from attnlab.words.atlas_words import ATLAS_VIEW_WORDS

    assert client.get("/api/atlas/names").json()["names"] == ["patterns-atlas"]
    r = ContractClient().get("/api/atlas/names")  # a server given no atlas
    assert r.status_code == 200 and r.json()["names"] == []
    words = r.json()["words"]
    assert words["atlas.none_make"] == ATLAS_VIEW_WORDS["atlas.none_make"]
    assert words["atlas.none_make"].startswith("attnlab atlas wordnet --model minilm -o ")
