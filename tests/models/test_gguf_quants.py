"""gguf_quants.py: Q4_1 and Q8_0 decoded in whole-tensor passes, bit for bit as `gguf` does."""

import numpy as np
import pytest

from attnlab.models.gguf_quants import BLOCK, FAST, dequantize_fast

gguf_quants = pytest.importorskip("gguf.quants")
from gguf.constants import GGMLQuantizationType  # noqa: E402


def _blocks(ggml_type: int, rows: int, cols: int, seed: int) -> np.ndarray:
    """Random bytes in the block layout, with finite float16 scales (and minimums)."""
    rng = np.random.default_rng(seed)
    layout = FAST[ggml_type]
    blocks = np.zeros(rows * cols // BLOCK, dtype=layout)
    blocks["d"] = rng.normal(size=blocks.shape).astype(np.float16)
    if "m" in layout.names:
        blocks["m"] = rng.normal(size=blocks.shape).astype(np.float16)
    qs = rng.integers(0, 256, size=blocks["qs"].shape, dtype=np.uint8)
    blocks["qs"] = qs.view(blocks["qs"].dtype)
    return blocks.view(np.uint8).reshape(rows, -1)  # (rows, bytes per row)


@pytest.mark.parametrize("ggml_type", sorted(FAST))
@pytest.mark.parametrize(("rows", "cols"), [(1, 32), (3, 64), (17, 576)])
def test_the_same_numbers_as_gguf(ggml_type: int, rows: int, cols: int) -> None:
    raw = _blocks(ggml_type, rows, cols, seed=rows * cols + ggml_type)
    expected = gguf_quants.dequantize(raw, GGMLQuantizationType(ggml_type))  # (rows, cols)
    got = dequantize_fast(raw.reshape(-1), ggml_type, rows * cols)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got.reshape(rows, cols), expected)


def test_the_formats_are_the_ones_gguf_names() -> None:
    assert GGMLQuantizationType(3).name == "Q4_1" and GGMLQuantizationType(8).name == "Q8_0"
    assert FAST[3].itemsize == 20 and FAST[8].itemsize == 34  # bytes per 32 weights
