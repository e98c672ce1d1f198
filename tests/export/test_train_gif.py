"""`attnlab train ... --gif`: the maps over training as an animated GIF that Pillow decodes, one
frame a checkpoint, each frame's cells the heat colour of the core's weight at that step."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from attnlab.cli.main import main
from attnlab.export.train_gif import GAP, YLGNBU, cell_size, frame_layout, heat_rgb, save_train_gif
from attnlab.train.catalog import start

Image = pytest.importorskip("PIL.Image")


def test_the_cli_writes_a_gif_with_a_frame_per_checkpoint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "lookup.gif"
    assert main(["train", "lookup", "--steps", "30", "--seed", "2", "--gif", str(out)]) == 0
    saved = [s for s in start("lookup", steps=30, seed=2) if s.checkpoint is not None]
    with Image.open(out) as gif:
        assert gif.format == "GIF" and gif.n_frames == len(saved) == 11
        maps = len(saved[0].checkpoint.maps)  # 4: two variants × two sentences, 4 × 4 each
        CELL = cell_size(4)
        assert CELL == 40
        LEFT, TOP = frame_layout(saved, CELL)
        assert gif.size == (GAP + maps * (LEFT + 4 * CELL + GAP), TOP + 4 * CELL + GAP)
        for k in (0, len(saved) - 1):  # the first and the last frame: the weights of that step
            gif.seek(k)
            frame = np.asarray(gif.convert("RGB"))
            w = saved[k].checkpoint.maps[0].weights  # scaled: by the river bank
            got = frame[
                TOP + 3 * CELL + CELL // 2, GAP + LEFT + np.arange(4) * CELL + CELL // 2
            ]  # bank's row
            assert np.abs(got.astype(int) - heat_rgb(w[3]).astype(int)).max() <= 8  # GIF's palette
    assert f"Saved {out}: the maps at 11 checkpoints" in capsys.readouterr().out


def test_the_induction_maps_fit_in_frames_of_bounded_size(tmp_path: Path) -> None:
    steps = list(start("induction", steps=4, seed=0))
    frames, (width, height) = save_train_gif(steps, tmp_path / "i.gif")
    with Image.open(tmp_path / "i.gif") as gif:
        assert gif.n_frames == frames == 5 and gif.size == (width, height)  # steps 0..4 all saved
    top = frame_layout(steps, 12)[1]
    assert height == top + 20 * 12 + GAP == top + 20 * cell_size(20) + GAP  # 20 tokens, 12 px each


def test_the_heat_scale_ends_are_the_pages() -> None:
    ends = heat_rgb(np.array([0.0, 1.0, -3.0, 7.0, np.nan]))
    pale, deep = (tuple(int(c[i : i + 2], 16) for i in (1, 3, 5)) for c in (YLGNBU[0], YLGNBU[-1]))
    assert [tuple(e) for e in ends] == [pale, deep, pale, deep, pale]


def test_a_frame_names_its_tokens_and_says_its_step_readably(tmp_path: Path) -> None:
    """Issue 25, item 13: the frames had no token labels and an 11 px caption. The label
    column and the rows above the cells now hold ink (the tokens, the caption in 20 px)."""
    steps = list(start("lookup", steps=2, seed=0))
    save_train_gif(steps, tmp_path / "l.gif")
    left, top = frame_layout([s for s in steps if s.checkpoint], cell_size(4))
    assert left > 20  # room for "savings" at the left of its row
    with Image.open(tmp_path / "l.gif") as gif:
        frame = np.asarray(gif.convert("RGB")).astype(int)
    dark = frame.sum(axis=2) < 400
    assert dark[top:, GAP : GAP + left - 2].any()  # the query tokens, left of the first map
    assert dark[top - 16 : top - 2, GAP + left :].any()  # the key tokens above the columns
    assert dark[6:30].sum() > 400  # the caption: a line of large text
