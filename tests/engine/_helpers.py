"""Helpers for the property tests: random operands built identically for gblas2d and
python-graphblas, and comparisons of their results.

Everything random comes from ``numpy.random.default_rng(seed)`` with a hypothesis-drawn seed, so
every MPI rank builds the same operands and calls the same collectives.
"""

from contextlib import contextmanager

import graphblas as G
import numpy as np

import gblas2d as gb
from gblas2d.local import backends
from gblas2d.local import piece as _piece

DTYPES = ["BOOL", "INT8", "INT64", "UINT8", "UINT64", "FP32", "FP64"]
MASK_KINDS = [None, "S", "V", "~S", "~V"]
LIBS = (gb, G)


@contextmanager
def backend_in_use(name):
    """The local backend ``name`` for the block, the previous one put back after it; it takes
    the tests' small operands too (SuiteSparse's ``SMALL_PUSH`` and ``SMALL_BLOCK`` leave
    them to numpy otherwise)."""
    from gblas2d.local.backends import suitesparse

    previous = backends.backend_name()
    small = suitesparse.SMALL_PUSH, suitesparse.SMALL_BLOCK
    backends.set_backend(name)
    suitesparse.SMALL_PUSH = suitesparse.SMALL_BLOCK = 0
    try:
        yield name
    finally:
        backends.set_backend(previous)
        suitesparse.SMALL_PUSH, suitesparse.SMALL_BLOCK = small


def agreed(ok):
    """Collective. True on every rank when ``ok`` holds on every rank."""
    return bool(gb.default_grid().comm.allreduce(np.array([int(bool(ok))], dtype=np.int64),
                                                 "min")[0])


def np_type(dtype):
    return np.dtype(dtype.lower().replace("fp", "float")).type


def rand_values(rng, k, dtype):
    """Small values (zeros included, so value masks differ from structural ones)."""
    t = np_type(dtype)
    if t is np.bool_:
        return rng.random(k) < 0.5
    if dtype.startswith("UINT"):
        return rng.integers(0, 6, k).astype(t)
    if dtype.startswith("INT"):
        return rng.integers(-4, 5, k).astype(t)
    return (rng.integers(-8, 9, k) / 2).astype(t)


def rand_scalar(rng, dtype):
    """A python scalar of the dtype's family."""
    v = rand_values(rng, 1, dtype)[0]
    return v.item()


def vec_coo(rng, n, dtype, density):
    idx = np.flatnonzero(rng.random(n) < density).astype(np.int64)
    return idx, rand_values(rng, len(idx), dtype)


def mat_coo(rng, m, n, dtype, density):
    rows, cols = np.nonzero(rng.random((m, n)) < density)
    return rows.astype(np.int64), cols.astype(np.int64), rand_values(rng, len(rows), dtype)


class Pair:
    """The same object in gblas2d (``.gb``) and python-graphblas (``.G``)."""

    def __init__(self, gb_obj, G_obj):
        self.gb = gb_obj
        self.G = G_obj

    def of(self, L):
        return self.gb if L is gb else self.G


def vec_pair(idx, vals, dtype, size):
    return Pair(gb.Vector.from_coo(idx, vals, dtype=dtype, size=size),
                G.Vector.from_coo(idx, vals, dtype=dtype, size=size))


def mat_pair(rows, cols, vals, dtype, nrows, ncols):
    return Pair(gb.Matrix.from_coo(rows, cols, vals, dtype=dtype, nrows=nrows, ncols=ncols),
                G.Matrix.from_coo(rows, cols, vals, dtype=dtype, nrows=nrows, ncols=ncols))


def rand_vec(rng, n, dtype, density):
    idx, vals = vec_coo(rng, n, dtype, density)
    return vec_pair(idx, vals, dtype, n)


def rand_mat(rng, m, n, dtype, density):
    r, c, v = mat_coo(rng, m, n, dtype, density)
    return mat_pair(r, c, v, dtype, m, n)


def semiring(L, name):
    """A semiring by its python-graphblas name (the positional ones are in ``semiring.ss``)."""
    if L is G and name.endswith(("firsti", "firstj", "secondi", "secondj")):
        return getattr(G.semiring.ss, name)
    return getattr(L.semiring, name)


POSITIONAL = {"firsti", "firsti1", "firstj", "firstj1", "secondi", "secondi1", "secondj",
              "secondj1"}


def op(L, kind, name):
    """The op ``name`` of library L; python-graphblas keeps the positional ones under ``ss``."""
    space = getattr(L, kind)
    if L is not gb and kind == "binary" and name in POSITIONAL:
        space = space.ss
    return getattr(space, name)


def mask_of(obj, kind):
    """``obj.S``, ``obj.V``, ``~obj.S``, ``~obj.V`` or None, for an object of either library."""
    if kind is None:
        return None
    m = obj.S if kind.endswith("S") else obj.V
    return ~m if kind.startswith("~") else m


def g_accepts(fn):
    """Whether python-graphblas accepts an operation (used to filter the combinations)."""
    try:
        fn()
    except Exception:
        return False
    return True


def _dtype_name(dt):
    return dt.name if hasattr(dt, "name") else str(dt)


def assert_same_vector(ours, theirs, *, structure_only=False, what=""):
    """gblas2d Vector ``ours`` equals python-graphblas Vector ``theirs``."""
    assert ours.size == theirs.size, what
    assert str(ours.dtype) == theirs.dtype.name, f"{what}: dtype {ours.dtype} != {theirs.dtype}"
    oi, ov = ours.to_coo()
    ti, tv = theirs.to_coo()
    assert ours.nvals == theirs.nvals == len(ti), what
    np.testing.assert_array_equal(oi.astype(np.uint64), ti.astype(np.uint64), err_msg=what)
    if not structure_only:
        assert_same_values(ov, tv, what)


def assert_same_matrix(ours, theirs, *, structure_only=False, what=""):
    assert ours.shape == theirs.shape, what
    assert str(ours.dtype) == theirs.dtype.name, f"{what}: dtype {ours.dtype} != {theirs.dtype}"
    orow, ocol, ov = ours.to_coo()
    trow, tcol, tv = theirs.to_coo()
    assert ours.nvals == theirs.nvals == len(trow), what
    np.testing.assert_array_equal(orow.astype(np.uint64), trow.astype(np.uint64), err_msg=what)
    np.testing.assert_array_equal(ocol.astype(np.uint64), tcol.astype(np.uint64), err_msg=what)
    if not structure_only:
        assert_same_values(ov, tv, what)


def assert_same_values(ours, theirs, what=""):
    ours, theirs = np.asarray(ours), np.asarray(theirs)
    assert ours.dtype == theirs.dtype, f"{what}: {ours.dtype} != {theirs.dtype}"
    if ours.dtype.kind == "f":
        rtol = 1e-4 if ours.dtype == np.float32 else 1e-9
        np.testing.assert_allclose(ours, theirs, rtol=rtol, atol=rtol, equal_nan=True,
                                   err_msg=what)
    else:
        np.testing.assert_array_equal(ours, theirs, err_msg=what)


def assert_same_scalar(ours, theirs, what=""):
    if theirs is None:
        assert ours is None, f"{what}: {ours!r} != None"
        return
    assert ours is not None, f"{what}: None != {theirs!r}"
    if isinstance(theirs, float) or np.asarray(theirs).dtype.kind == "f":
        assert np.isclose(float(ours), float(theirs), rtol=1e-4, atol=1e-4), \
            f"{what}: {ours!r} != {theirs!r}"
    else:
        assert ours == theirs, f"{what}: {ours!r} != {theirs!r}"


def assert_between(ours, lo, hi, what=""):
    """Same structure as ``lo`` and ``hi`` (python-graphblas Vectors or Matrices) and
    ``lo <= ours <= hi`` entrywise: the result of an ``any`` monoid."""
    coo_o, coo_lo, coo_hi = ours.to_coo(), lo.to_coo(), hi.to_coo()
    for a, b, c in zip(coo_o[:-1], coo_lo[:-1], coo_hi[:-1], strict=True):
        np.testing.assert_array_equal(a.astype(np.uint64), b.astype(np.uint64), err_msg=what)
        np.testing.assert_array_equal(a.astype(np.uint64), c.astype(np.uint64), err_msg=what)
    v, vlo, vhi = coo_o[-1], coo_lo[-1], coo_hi[-1]
    assert v.dtype == vlo.dtype, what
    assert np.all(vlo <= v) and np.all(v <= vhi), f"{what}: {v} not in [{vlo}, {vhi}]"



def piece_formats(sparse):
    """For one hypothesis example: with ``sparse``, vector pieces stay sparse until half full.
    The engine makes a piece a bitmap from 1/64 density, which every non-empty vector of the
    property tests' sizes passes, so without this their sparse paths would go untested.
    ``default_piece_formats`` (a fixture) puts the engine's thresholds back after the test."""
    _piece._TO_BITMAP, _piece._TO_SPARSE = (2, 2) if sparse else ENGINE_PIECE_FORMATS


ENGINE_PIECE_FORMATS = (_piece._TO_BITMAP, _piece._TO_SPARSE)
