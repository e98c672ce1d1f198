"""A loaded decoder keeps its matrices row-major (C order), not as the readers' transposed views:
OpenBLAS multiplies a short pass's few rows by a row-major matrix faster (decoder.row_major
says by how much; benchmarks/short_passes.py times the whole pass). The numbers are the same."""

import numpy as np

from attnlab.models.decoder import row_major


def test_every_matrix_of_smollm2_is_row_major(smollm2) -> None:  # type: ignore[no-untyped-def]
    for i, w in enumerate(smollm2.layers):
        for name, a in (("w_qkv", w.w_qkv), ("w_o", w.w_o), ("w_in", w.mlp.w_in),
                        ("w_out", w.mlp.w_out)):  # fmt: skip
            assert a.flags.c_contiguous, f"layer {i}: {name} is not row-major"
    assert smollm2.weights.layers is smollm2.layers  # one copy of the weights, not two


def test_row_major_keeps_the_values_and_the_read_only_flag(smollm2) -> None:  # type: ignore[no-untyped-def]
    w = smollm2.layers[0]
    view = w.w_o.T.copy().T  # a transposed view, as a reader hands it
    view.flags.writeable = False
    moved = row_major(type(w)(**{**w.__dict__, "w_o": view}))
    assert moved.w_o.flags.c_contiguous and not moved.w_o.flags.writeable
    np.testing.assert_array_equal(moved.w_o, w.w_o)
    assert row_major(w).w_qkv is w.w_qkv  # already row-major: no copy
