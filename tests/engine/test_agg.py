"""``gb.agg`` against python-graphblas: every aggregator gblas2d provides, over a Vector and a
Matrix (row-wise, column-wise, to a scalar) of each type, with empty rows and columns and a
zero among the values. A type python-graphblas refuses (KeyError) gblas2d refuses too
(DomainMismatch)."""

import graphblas as G
import numpy as np
import pytest
from _helpers import agreed

import gblas2d as gb
from gblas2d.io import from_graphblas

NAMES = [name for name in gb.agg.__all__ if name != "Aggregator"]


def outcomes(L, v, A, name):
    a = getattr(L.agg, name)
    out = []
    for run in (lambda: v.reduce(a).new(), lambda: A.reduce_rowwise(a).new(),
                lambda: A.reduce_columnwise(a).new(), lambda: A.reduce_scalar(a).new()):
        try:
            r = run()
        except (KeyError, gb.exceptions.DomainMismatch):
            out.append("refused")
            continue
        if hasattr(r, "to_coo"):
            values = [np.round(np.asarray(x, dtype=float), 9).tolist() for x in r.to_coo()]
        else:
            values = None if r.value is None else round(float(r.value), 9)
        out.append((str(r.dtype), values))
    return out


@pytest.mark.parametrize("dtype", ["BOOL", "INT64", "FP64"])
@pytest.mark.parametrize("name", NAMES)
def test_aggregators_match_python_graphblas(name, dtype):
    v = G.Vector.from_coo([0, 2, 3, 5], [3, 0, -4, 1], dtype=dtype, size=7)
    A = G.Matrix.from_coo([0, 0, 2, 3], [1, 2, 0, 3], [1.5, -2.0, 0.0, 2], dtype=dtype,
                          nrows=5, ncols=4)
    theirs = outcomes(G, v, A, name)
    ours = outcomes(gb, from_graphblas(v), from_graphblas(A), name)
    assert agreed(ours == theirs), (ours, theirs)
