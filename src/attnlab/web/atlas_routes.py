"""The head atlas's route: `GET /api/atlas?name=NAME`, an atlas file served as the Atlas view's
JSON (encode/atlas_json.py). No computing here: `attnlab serve --atlas FILE` (repeatable) reads
each file once as the app is made (`served_atlases`), and the route sends those bytes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import Field

from attnlab.encode.answers_trace import Answer
from attnlab.encode.atlas_json import AtlasAnswer
from attnlab.errors import AttnlabError
from attnlab.web.error_replies import ERROR_RESPONSES
from attnlab.web.request_fields import Params
from attnlab.words.atlas_words import ATLAS_VIEW_WORDS

__all__ = ["AtlasNames", "AtlasNamesQuery", "AtlasQuery", "router", "served_atlases"]

router = APIRouter(prefix="/api", tags=["atlas"], responses=ERROR_RESPONSES)


class AtlasQuery(Params):
    """`GET /api/atlas`: which served atlas (by its file's name without .parquet)."""

    name: str | None = Field(None, max_length=200, description="an atlas the server was given")


class AtlasNamesQuery(Params):
    """`GET /api/atlas/names`: no parameters."""


class AtlasNames(Answer):
    """The atlases served (maybe none), and the words of the page's card when there are none."""

    names: list[str]
    words: dict[str, str]


NONE_WORDS = (
    "atlas.none_title",
    "atlas.none",
    "atlas.none_make",
    "atlas.none_serve",
    "atlas.fallback",
)


@router.get("/atlas/names", response_model=AtlasNames)
def atlas_names(params: Annotated[AtlasNamesQuery, Query()], request: Request) -> AtlasNames:
    """The atlases this server was given (an empty list when none: the tab says how to make
    one, no error), so the page asks /api/atlas only for one that is there."""
    served: dict[str, bytes] = request.app.state.atlases
    return AtlasNames(names=list(served), words={k: ATLAS_VIEW_WORDS[k] for k in NONE_WORDS})


def served_atlases(paths: tuple[str, ...]) -> dict[str, bytes]:
    """Each atlas file read, its view encoded once: name (the file's stem) → JSON bytes."""
    from attnlab.atlas.atlas_view import atlas_view
    from attnlab.atlas.file import read_atlas
    from attnlab.encode.atlas_json import encode_atlas

    names = tuple(dict.fromkeys(Path(p).stem for p in paths))
    out: dict[str, bytes] = {}
    for path in paths:
        sums, prov = read_atlas(path)
        name = Path(path).stem
        view = atlas_view(sums, prov, name=name, names=names)
        out[name] = encode_atlas(view).model_dump_json().encode()
    return out


@router.get("/atlas", response_model=AtlasAnswer)
def atlas(params: Annotated[AtlasQuery, Query()], request: Request) -> Response:
    """A served atlas as the Atlas view reads it: every head's statistics, their ranks and
    exemplars (the first atlas when no name is given)."""
    served: dict[str, bytes] = request.app.state.atlases
    if not served:
        raise AttnlabError(ATLAS_VIEW_WORDS["atlas.none_served"], field="name")
    name = params.name if params.name is not None else next(iter(served))
    if name not in served:
        said = ATLAS_VIEW_WORDS["atlas.unknown_name"].format(name=name, names=", ".join(served))
        raise AttnlabError(said, field="name")
    return Response(served[name], media_type="application/json")
