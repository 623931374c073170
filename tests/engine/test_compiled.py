"""The numba-compiled push (``gblas2d.local.backends.compiled``) against numpy's form of the same
kernel, and a BFS through it against python-graphblas's. The numpy backend calls it on blocks
of ``MIN_ENTRIES`` entries or more; here that bar is lowered so small graphs take it.

Local: no communication, so these run only in the one-process session.
"""

import graphblas
import numpy as np
import pytest

import gblas2d as gb
from algorithms.bfs_levels import bfs_levels
from gblas2d.local.backends import compiled
from gblas2d.local.keys import expand_rows, unique_sorted
from gblas2d.local.piece import Piece, PieceMask

pytestmark = pytest.mark.serial_only


def numpy_form(ptr, ind, rows, allowed):
    out = ind[expand_rows(ptr, rows, owners=False)[0]]
    if allowed is not None:
        out = out[allowed.allows(out)]
    return unique_sorted(out)


def random_storage(rng, n, density):
    present = rng.random((n, n)) < density
    ptr = np.concatenate([[0], np.cumsum(present.sum(axis=1))]).astype(np.int64)
    ind = np.nonzero(present)[1].astype(np.int64)
    return ptr, ind


@pytest.mark.parametrize("mask", ["none", "plain", "complement"])
@pytest.mark.parametrize("stored", ["bitmap", "list"])
@pytest.mark.parametrize("seed", range(6))
def test_the_compiled_push_reaches_what_numpy_reaches(seed, stored, mask):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 60))
    ptr, ind = random_storage(rng, n, rng.choice([0.02, 0.2, 0.7]))
    rows = np.flatnonzero(rng.random(n) < rng.random())
    on = rng.random(n) < rng.choice([0.05, 0.4])
    piece = Piece.from_bitmap(on, np.ones(n, dtype=bool)) if stored == "bitmap" else \
        Piece(n, np.dtype(bool), idx=np.flatnonzero(on), vals=np.ones(on.sum(), dtype=bool))
    allowed = None if mask == "none" else PieceMask(piece, True, mask == "complement")
    if allowed is not None:
        assert allowed.on.is_bitmap == (stored == "bitmap")
    expected = numpy_form(ptr, ind, rows, allowed)
    assert compiled.available()
    got = compiled.reached(ptr, ind, rows, allowed)
    np.testing.assert_array_equal(got, expected)
    assert got.dtype == np.int64
    # the loop numba compiles, run as plain Python
    mode = compiled.NO_MASK if allowed is None else \
        compiled.BITMAP if stored == "bitmap" else compiled.LIST
    np.testing.assert_array_equal(
        compiled.reached_loop(ptr, ind, rows, on, np.flatnonzero(on), mode,
                              mask == "complement"), expected)


@pytest.mark.parametrize("use_compiled", [True, False])
def test_a_bfs_through_the_compiled_push_is_python_graphblas_s(monkeypatch, use_compiled):
    """The mesh's levels push from few vertices (numpy's small push); with the bar at 0 they
    take the compiled loop, without numba (``available`` False) numpy's form: the same
    levels either way, those of python-graphblas."""
    monkeypatch.setattr(compiled, "MIN_ENTRIES", 0)
    if use_compiled:
        compiled.load()
        assert compiled.ready()
    else:
        monkeypatch.setattr(compiled, "ready", lambda: False)
        monkeypatch.setattr(compiled, "reached", None)
    A = gb.generators.grid_graph(30, 20)
    rows, cols, vals = A.to_coo()
    B = graphblas.Matrix.from_coo(rows, cols, vals, nrows=A.nrows, ncols=A.ncols)
    for source in (0, 317):
        ours, theirs = bfs_levels(A, source).to_coo(), bfs_levels(B, source).to_coo()
        np.testing.assert_array_equal(ours[0], theirs[0])
        np.testing.assert_array_equal(ours[1], theirs[1])
