"""The mxm products that go through scipy's compiled SpGEMM (plus_times, plus_first,
plus_second on floats and 64-bit integers) keep GraphBLAS structure: a sum that cancels to
zero stays an explicit entry. Compared with python-graphblas at any rank count."""

import graphblas
import numpy as np
import pytest
from _helpers import agreed, assert_same_matrix

import gblas2d as gb


@pytest.mark.parametrize("name", ["plus_times", "plus_first", "plus_second"])
@pytest.mark.parametrize("dtype", ["FP64", "INT64", "FP32"])
def test_cancelling_sums_stay_entries(name, dtype):
    # Row 0 of A times B's column 0 cancels exactly; wide B (more columns than rows) and rows
    # of A with no entries are there too.
    rng = np.random.default_rng(4)
    n, k = 9, 12
    A_r = np.r_[0, 0, rng.integers(1, n, 20)]
    A_c = np.r_[0, 1, rng.integers(0, n, 20)]
    B_r = np.r_[0, 1, rng.integers(0, n, 25)]
    B_c = np.r_[0, 0, rng.integers(1, k, 25)]
    a_v = np.r_[1, -1, rng.integers(-3, 4, 20)]
    b_v = np.r_[1, 1, rng.integers(-3, 4, 25)]
    results = []
    for lib in (gb, graphblas):
        A = lib.Matrix.from_coo(A_r, A_c, a_v, dtype=dtype, nrows=n, ncols=n,
                                dup_op=lib.binary.plus)
        B = lib.Matrix.from_coo(B_r, B_c, b_v, dtype=dtype, nrows=n, ncols=k,
                                dup_op=lib.binary.plus)
        results.append(A.mxm(B, getattr(lib.semiring, name)).new())
    assert_same_matrix(*results, what=f"{name}[{dtype}]")
    r1, c1, v1 = results[0].to_coo()
    if name != "plus_second":  # A's row 0 meets B's column 0 as 1 * 1 + (-1) * 1
        at = np.flatnonzero((r1 == 0) & (c1 == 0))
        assert agreed(len(at) == 1 and v1[at[0]] == 0)
