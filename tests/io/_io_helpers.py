"""Helpers of the io suite: the LAGraph data directory, verdicts agreed across ranks, and
entry-by-entry comparisons that treat NaN as equal to NaN."""

from pathlib import Path

import numpy as np

import gblas2d as gb

LAGRAPH = Path(__file__).resolve().parents[1] / "data" / "lagraph"

DTYPES = ["BOOL", "INT8", "INT16", "INT32", "INT64", "UINT8", "UINT16", "UINT32", "UINT64",
          "FP32", "FP64"]


def grid():
    return gb.default_grid()


def agreed(ok):
    """Collective. True on every rank when ``ok`` holds on every rank."""
    return bool(grid().comm.allreduce(np.array([int(bool(ok))], dtype=np.int64), "min")[0])


def assert_agreed(excinfo, cls):
    """The exception is exactly ``cls`` and every rank raised the same class and text."""
    e = excinfo.value
    assert type(e) is cls, f"{type(e).__name__}: {e}"
    seen = grid().comm.allgather_object((type(e).__name__, str(e)))
    assert all(s == seen[0] for s in seen), seen


def sample_values(dtype, count, rng):
    """Values spanning the dtype: its extremes, and inf, -inf, -0.0 and NaN for floats."""
    t = np.dtype(dtype.lower().replace("fp", "float"))
    if t.kind == "b":
        return rng.random(count) < 0.5
    if t.kind in "iu":
        info = np.iinfo(t)
        out = rng.integers(info.min, info.max, count, dtype=t, endpoint=True)
        out[:min(count, 3)] = np.array([info.min, info.max, 0], dtype=t)[:min(count, 3)]
        return out
    info = np.finfo(t)
    out = (rng.standard_normal(count) * 1e3).astype(t)
    extremes = np.array([info.max, info.min, info.tiny, -0.0, np.inf, -np.inf, np.nan], dtype=t)
    out[:min(count, len(extremes))] = extremes[:min(count, len(extremes))]
    return out


def same_entries(A, rows, cols, values, dtype):
    """Collective. ``A`` holds exactly these entries (any order) with this dtype; bit-equal
    values (so -0.0 differs from 0.0 and NaN equals NaN)."""
    order = np.lexsort((cols, rows))
    r, c, v = A.to_coo()
    want = np.asarray(values)[order]
    return (str(A.dtype) == dtype and len(r) == len(rows)
            and np.array_equal(r, np.asarray(rows, dtype=np.uint64)[order])
            and np.array_equal(c, np.asarray(cols, dtype=np.uint64)[order])
            and v.dtype == want.dtype and v.tobytes() == want.tobytes())
