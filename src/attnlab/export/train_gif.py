"""A training run's attention maps over its checkpoints as an animated GIF: one frame a
checkpoint, its maps side by side as heat grids (rows = queries), each named, the step above.

The colours are the page's heat scale (static/colors.js: ColorBrewer's YlGnBu, pale for a weight
near 0, deep blue near 1), interpolated the same way. Pillow writes the file (GIF89a, looping);
it is the `gif` extra, imported when a GIF is asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from attnlab.errors import AttnlabError
from attnlab.train.steps import Step
from attnlab.types import FloatArray
from attnlab.words import training as words

__all__ = ["FRAME_MS", "cell_size", "heat_rgb", "save_train_gif"]

YLGNBU = (
    "#ffffd9", "#edf8b1", "#c7e9b4", "#7fcdbb", "#41b6c4", "#1d91c0", "#225ea8", "#253494",
    "#081d58",
)  # fmt: skip
_STOPS = np.array([[int(c[i : i + 2], 16) for i in (1, 3, 5)] for c in YLGNBU], dtype=float)

FRAME_MS = 600
"""How long each checkpoint's frame shows."""

MAX_CELL = 40  # pixels a weight, at most (a 4 × 4 map is 160 px a side)
MAX_MAP = 240  # pixels a map's side, at most (a 20 × 20 map has 12 px a weight)
GAP = 12
TOP = 38  # room for the step's line and the maps' names


def heat_rgb(weights: FloatArray) -> np.ndarray:
    """Each weight's heat colour (..., 3) as uint8, clamped to [0, 1] as colors.js heat() does
    (a NaN, which no training map holds, is drawn as 0 where the page would grey it)."""
    x = np.clip(np.nan_to_num(weights, nan=0.0), 0.0, 1.0) * (len(YLGNBU) - 1)
    i = np.minimum(np.floor(x).astype(int), len(YLGNBU) - 2)
    f = (x - i)[..., None]
    rgb = _STOPS[i] + (_STOPS[i + 1] - _STOPS[i]) * f
    return np.round(rgb).astype(np.uint8)  # type: ignore[no-any-return]


def cell_size(n: int) -> int:
    """Pixels a weight for maps of `n` rows: as large as MAX_CELL, the map within MAX_MAP."""
    return max(1, min(MAX_CELL, MAX_MAP // n))


def _frame(step: Step, total: int, cell: int) -> object:
    from PIL import Image, ImageDraw

    assert step.checkpoint is not None
    maps = step.checkpoint.maps
    side = max(m.weights.shape[0] for m in maps) * cell
    width = GAP + len(maps) * (side + GAP)
    img = Image.new("RGB", (width, TOP + side + GAP), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    draw.text(
        (GAP, 5), words.PAGE["at_step"].format(step=step.step, steps=total), fill=(29, 29, 43)
    )
    for k, m in enumerate(maps):
        grid = heat_rgb(m.weights)  # (n, m, 3)
        tile = Image.fromarray(np.repeat(np.repeat(grid, cell, axis=0), cell, axis=1), "RGB")
        img.paste(tile, (GAP + k * (side + GAP), TOP))
        draw.text((GAP + k * (side + GAP), 21), m.name[: side // 5], fill=(91, 91, 112))
    return img


def save_train_gif(steps: Sequence[Step], path: str | Path) -> tuple[int, tuple[int, int]]:
    """Write the checkpoints of `steps` to `path` as a looping GIF: (frames, (width, height))."""
    try:
        from PIL import Image
    except ImportError:
        raise AttnlabError(
            "a GIF needs Pillow (the gif extra): pip install 'attnlab[gif]'", field="gif"
        ) from None
    saved = [s for s in steps if s.checkpoint is not None and s.checkpoint.maps]
    if not saved:
        raise AttnlabError("the run saved no checkpoint, so there is no map to draw", field="gif")
    n = max(m.weights.shape[0] for s in saved for m in s.checkpoint.maps)  # type: ignore[union-attr]
    cell = cell_size(n)
    total = steps[-1].step
    frames = [_frame(s, total, cell) for s in saved]
    first = frames[0]
    assert isinstance(first, Image.Image)
    first.save(
        path, save_all=True, append_images=frames[1:], duration=FRAME_MS, loop=0, optimize=False
    )
    return len(frames), first.size
