"""A training run's attention maps over its checkpoints as an animated GIF: one frame a
checkpoint, its maps side by side as heat grids (rows = queries), each named, its keys' tokens
above the columns and its queries' at the left of the rows, a caption with the step above.

The colours are the page's heat scale (static/colors.js: ColorBrewer's YlGnBu, pale for a weight
near 0, deep blue near 1), interpolated the same way. Pillow writes the file (GIF89a, looping);
it is the `gif` extra, imported when a GIF is asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from attnlab.errors import AttnlabError
from attnlab.train.steps import Step
from attnlab.types import FloatArray
from attnlab.words import training as words

__all__ = ["FRAME_MS", "cell_size", "frame_layout", "heat_rgb", "save_train_gif"]

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


CAPTION_PX = 20  # the step's line, in Pillow's own font scaled up
NAME_PX = 15  # each map's name
TOP = 8 + CAPTION_PX + 8 + NAME_PX + 6  # above the token labels: the caption, then the names


def _font(px: int) -> Any:  # a Pillow font, imported only when a GIF is asked for
    from PIL import ImageFont

    return ImageFont.load_default(size=px)


def _token_labels(tokens: Sequence[str], cell: int, font: Any, draw: Any) -> list[str]:
    """Each token as its label: whole when it fits its cell, else its last word ("item 3" → "3")."""
    fits = all(draw.textlength(t, font=font) <= cell for t in tokens)
    return list(tokens) if fits else [t.split()[-1] for t in tokens]


def frame_layout(steps: Sequence[Step], cell: int) -> tuple[int, int]:
    """Where a frame's first map starts, (left, top): after the row labels' column and below
    the caption, the maps' names and the column labels (the tests read the cells from here)."""
    from PIL import Image, ImageDraw

    draw = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    font = _font(_label_px(cell))
    widest = 0.0
    for s in steps:
        for m in s.checkpoint.maps if s.checkpoint else ():
            for t in _token_labels(m.tokens, cell, font, draw):
                widest = max(widest, draw.textlength(t, font=font))
    return int(widest) + 6, TOP + _label_px(cell) + 4


def _label_px(cell: int) -> int:
    return max(9, min(14, int(cell * 0.6)))


def _frame(step: Step, total: int, cell: int, left: int, top: int) -> object:
    from PIL import Image, ImageDraw

    assert step.checkpoint is not None
    maps = step.checkpoint.maps
    side = max(m.weights.shape[0] for m in maps) * cell
    block = left + side + GAP
    width = GAP + len(maps) * block
    img = Image.new("RGB", (width, top + side + GAP), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    ink, muted = (29, 29, 43), (91, 91, 112)
    caption = words.gif_caption(step=step.step, steps=total)
    draw.text((GAP, 8), caption, fill=ink, font=_font(CAPTION_PX))
    small = _font(_label_px(cell))
    for k, m in enumerate(maps):
        x0 = GAP + k * block + left
        grid = heat_rgb(m.weights)  # (n, m, 3)
        tile = Image.fromarray(np.repeat(np.repeat(grid, cell, axis=0), cell, axis=1), "RGB")
        img.paste(tile, (x0, top))
        variant, _, rest = m.name.partition(": ")  # "scaled: by the river bank", as the page
        name = words.variant_name(variant) + (f": {rest}" if rest else "")
        draw.text((GAP + k * block, 8 + CAPTION_PX + 8), name, fill=ink, font=_font(NAME_PX))
        for j, t in enumerate(_token_labels(m.tokens, cell, small, draw)):
            # keys above their columns, queries left of their rows
            draw.text((x0 + j * cell + cell / 2, top - 3), t, fill=muted, font=small, anchor="mb")
            draw.text((x0 - 4, top + j * cell + cell / 2), t, fill=muted, font=small, anchor="rm")
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
    left, top = frame_layout(saved, cell)
    frames = [_frame(s, total, cell, left, top) for s in saved]
    first = frames[0]
    assert isinstance(first, Image.Image)
    first.save(
        path, save_all=True, append_images=frames[1:], duration=FRAME_MS, loop=0, optimize=False
    )
    return len(frames), first.size
