"""The atlas file: Parquet (pyarrow), one row per head and statistic, the run's provenance.

Columns: layer, head, statistic, mean (total / count, null when nothing was counted), total and
count (the exact fixed-point sums, so a file can be merged with another or read back into the
same `HeadSums`), histogram (the distance row's fixed-point weight per bin of stats.BINS; null on
other rows) and exemplars (a list of {value, uid, position, text}: the text-level value, the
text's uid = corpus index · 2¹⁶ + piece, the query row, the text itself). The schema's metadata
key `attnlab.atlas` holds the provenance as JSON: model, corpus source and SHA-256, texts read,
pieces, tokens, split, skipped, ε, k, the statistics, the bins, the scale and the version.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from attnlab.atlas.atlas_errors import AtlasFileError
from attnlab.atlas.stats import BINS, SCALE, STATISTICS, HeadSums

if TYPE_CHECKING:
    from attnlab.atlas.corpus import Corpus
    from attnlab.atlas.probes import AtlasModel
    from attnlab.atlas.run import AtlasOptions

__all__ = ["META_KEY", "Provenance", "read_atlas", "write_atlas"]

META_KEY = b"attnlab.atlas"


@dataclass(frozen=True)
class Provenance:
    """Where an atlas came from: model, corpus, counts, and the arithmetic's settings."""

    model: str
    corpus: str
    corpus_sha256: str
    texts: int
    pieces: int
    tokens: int
    split: int
    skipped: int
    epsilon: float
    top_k: int
    probes: int
    version: int
    attnlab: str
    causal: bool = True
    statistics: tuple[str, ...] = STATISTICS
    bins: tuple[str, ...] = BINS
    scale: int = SCALE

    @classmethod
    def of_run(
        cls, sums: HeadSums, *, model: AtlasModel, corpus: Corpus, options: AtlasOptions
    ) -> Provenance:
        """The provenance of `sums`, the atlas `model` made of `corpus` with `options`: the one
        constructor `attnlab atlas` and benchmarks/atlas.py share, so their files agree."""
        from attnlab import __version__
        from attnlab.atlas.run import VERSION

        return cls(
            model=model.name,
            corpus=corpus.source,
            corpus_sha256=corpus.digest,
            texts=sums.texts_read,
            pieces=sums.pieces,
            tokens=sums.tokens,
            split=sums.split,
            skipped=sums.skipped,
            epsilon=options.epsilon,
            top_k=options.top_k,
            probes=options.probes,
            version=VERSION,
            attnlab=__version__,
            causal=bool(model.config.causal),
        )


def _pyarrow() -> Any:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise AtlasFileError("the atlas file needs pyarrow: pip install 'attnlab[atlas]'") from None
    return pa, pq


def write_atlas(path: str | Path, sums: HeadSums, provenance: Provenance) -> int:
    """Write the atlas; returns the file's size in bytes."""
    pa, pq = _pyarrow()
    means = sums.means()
    distance = STATISTICS.index("distance")
    rows: dict[str, list[Any]] = {
        k: []
        for k in ("layer", "head", "statistic", "mean", "total", "count", "histogram", "exemplars")
    }
    for s, stat in enumerate(STATISTICS):
        for layer in range(sums.n_layers):
            for head in range(sums.n_heads):
                m = means[s, layer, head]
                rows["layer"].append(layer)
                rows["head"].append(head)
                rows["statistic"].append(stat)
                rows["mean"].append(None if np.isnan(m) else float(m))
                rows["total"].append(int(sums.totals[s, layer, head]))
                rows["count"].append(int(sums.counts[s, layer, head]))
                hist = sums.histogram[layer, head].tolist() if s == distance else None
                rows["histogram"].append(hist)
                rows["exemplars"].append(_exemplars(sums, s, layer, head))
    exemplar = pa.struct(
        [
            ("value", pa.int64()),
            ("uid", pa.int64()),
            ("position", pa.int64()),
            ("text", pa.string()),
        ]
    )
    schema = pa.schema(
        [
            ("layer", pa.int16()),
            ("head", pa.int16()),
            ("statistic", pa.string()),
            ("mean", pa.float64()),
            ("total", pa.int64()),
            ("count", pa.int64()),
            ("histogram", pa.list_(pa.int64())),
            ("exemplars", pa.list_(exemplar)),
        ],
        metadata={META_KEY: json.dumps(asdict(provenance)).encode()},
    )
    table = pa.Table.from_pydict(rows, schema=schema)
    try:
        pq.write_table(table, str(path), compression="zstd")
    except OSError as exc:
        raise AtlasFileError(f"cannot write the atlas to {str(path)!r}: {exc}") from None
    return Path(path).stat().st_size


def _exemplars(sums: HeadSums, s: int, layer: int, head: int) -> list[dict[str, Any]]:
    out = []
    for v, u, p in zip(
        sums.ex_value[s, layer, head],
        sums.ex_uid[s, layer, head],
        sums.ex_position[s, layer, head],
        strict=True,
    ):
        if v >= 0:
            out.append(
                {"value": int(v), "uid": int(u), "position": int(p), "text": sums.texts[int(u)]}
            )
    return out


def read_atlas(path: str | Path) -> tuple[HeadSums, Provenance]:
    """The sums and provenance an atlas file holds; AtlasFileError for any other file."""
    pa, pq = _pyarrow()
    if not Path(path).is_file():
        raise AtlasFileError(
            f"no atlas file at {str(path)!r}: write one with attnlab atlas "
            "CORPUS --model NAME -o ATLAS"
        )
    try:
        table = pq.read_table(str(path))
    except (pa.ArrowInvalid, OSError) as exc:
        raise AtlasFileError(f"{str(path)!r} is not a Parquet file ({exc})"[:300]) from None
    meta = (table.schema.metadata or {}).get(META_KEY)
    if meta is None:
        raise AtlasFileError(
            f"{str(path)!r} is Parquet but not an atlas: it has no {META_KEY.decode()} provenance"
        )
    raw = json.loads(meta)
    raw["statistics"], raw["bins"] = tuple(raw["statistics"]), tuple(raw["bins"])
    prov = Provenance(**raw)
    if prov.statistics != STATISTICS or prov.scale != SCALE:
        raise AtlasFileError(
            f"{str(path)!r} was written by another attnlab (version "
            f"{prov.version}, statistics {prov.statistics}): write it again"
        )
    return _sums(table.to_pydict(), prov), prov


def _sums(cols: dict[str, list[Any]], prov: Provenance) -> HeadSums:
    n_layers, n_heads = max(cols["layer"]) + 1, max(cols["head"]) + 1
    empty = HeadSums.empty(n_layers, n_heads, top_k=prov.top_k)
    totals, counts = empty.totals.copy(), empty.counts.copy()
    hist = empty.histogram.copy()
    ex_v, ex_u, ex_p = empty.ex_value.copy(), empty.ex_uid.copy(), empty.ex_position.copy()
    texts: dict[int, str] = {}
    for i, stat in enumerate(cols["statistic"]):
        s, layer, head = STATISTICS.index(stat), cols["layer"][i], cols["head"][i]
        totals[s, layer, head], counts[s, layer, head] = cols["total"][i], cols["count"][i]
        if cols["histogram"][i] is not None:
            hist[layer, head] = cols["histogram"][i]
        for k, e in enumerate(cols["exemplars"][i]):
            ex_v[s, layer, head, k], ex_u[s, layer, head, k] = e["value"], e["uid"]
            ex_p[s, layer, head, k] = e["position"]
            texts[e["uid"]] = e["text"]
    return HeadSums(
        totals=totals,
        counts=counts,
        histogram=hist,
        ex_value=ex_v,
        ex_uid=ex_u,
        ex_position=ex_p,
        texts=dict(sorted(texts.items())),
        texts_read=prov.texts,
        pieces=prov.pieces,
        tokens=prov.tokens,
        split=prov.split,
        skipped=prov.skipped,
    )
