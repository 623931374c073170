"""Vector pieces on a device: the array backend's products leave their result there, and the
writes, element-wise ops and masks of the next steps read it there. Run on the host twin
(``gblas2d/local/emulated.py``), whose arrays fail as cupy's do when handed to numpy or mixed
with host arrays, so a path that would copy unseen on a GPU fails here; on a machine with
cupy, on the device too (``benchmarks/gpu/run.sh`` runs this file there).
"""

import importlib.util
import itertools
import pickle

import numpy as np
import pytest
from _helpers import backend_in_use
from gblas2d.algorithms import bfs_levels, bfs_parents, validate_bfs_tree
from gblas2d.semirings import binary

import gblas2d as gb
from gblas2d.distributed import comm
from gblas2d.local import device, emulated
from gblas2d.local.backends import array
from gblas2d.local.piece import Piece, PieceMask, ewise, write

xp = emulated.xp
SIZE = 300
# the device modules: the host twin's, and cupy's where it is installed
MODULES = ["twin"] + (["cupy"] if importlib.util.find_spec("cupy") else [])
ARRAY_BACKENDS = ["array"] + (["cupy"] if "cupy" in gb.backends.available() else [])


@pytest.fixture(params=MODULES)
def device_xp(request):
    if request.param == "twin":
        return xp
    import cupy

    return cupy


def test_the_twin_refuses_what_cupy_refuses():
    """No implicit copy up (numpy, pickling for MPI), no mixing with host arrays, no unseen
    copy down, none of the calls cupy lacks (repeat by counts, ufunc.reduceat); numpy's calls
    dispatch to the device's arrays, reductions stay there."""
    a = device.moved_to(xp, np.arange(5))
    with pytest.raises(TypeError, match="Implicit conversion"):
        np.asarray(a)
    with pytest.raises(TypeError, match="pickled"):
        pickle.dumps(a)
    with pytest.raises(TypeError, match="mixed with device arrays"):
        a + np.ones(5, dtype=np.int64)
    with pytest.raises(TypeError, match="mixed with device arrays"):
        a[np.array([0, 1])]
    with pytest.raises(TypeError, match="to_device"):
        xp.asarray(np.ones(3))
    with pytest.raises(TypeError, match="repeat"):
        np.repeat(a, a)
    with pytest.raises(TypeError, match="reduceat"):
        np.minimum.reduceat(a, device.moved_to(xp, np.array([0, 2])))
    total = np.count_nonzero(a > 1)
    assert isinstance(total, emulated.Array) and int(total) == 3
    assert isinstance(np.flatnonzero(a), emulated.Array)
    assert np.array_equal(device.on_host(xp.where(a > 2, a, 0)), [0, 0, 0, 3, 4])


@pytest.mark.parametrize("name", ["plus", "times", "min", "max", "lor", "land", "any", "bor",
                                  "band", "bxor"])
def test_reductions_on_the_device(device_xp, name):
    """A monoid's reduce and segmented reduce of a device's values (by halves: cupy's ufuncs
    have no reduceat) give the host's values, left on the device."""
    m = getattr(gb.monoid, name)
    rng = np.random.default_rng(len(name))
    values = rng.integers(-5, 6, 1000)
    starts = np.unique(np.concatenate([[0], rng.integers(1, 1000, 60), [999]]))
    down = device.moved_to(device_xp, values)
    got = m.reduceat(down, device.moved_to(device_xp, starts))
    assert type(got) is not np.ndarray
    assert np.array_equal(device.on_host(got), m.reduceat(values, starts))
    assert device.on_host(m.reduce(down)) == m.reduce(values)


def _piece(rng, fmt, density):
    present = rng.random(SIZE) < density
    values = rng.integers(1, 50, SIZE).astype(np.int64)
    idx = np.flatnonzero(present)
    return Piece(SIZE, np.int64, present=present, values=values) if fmt == "bitmap" else \
        Piece(SIZE, np.int64, idx=idx, vals=values[idx])


def _same(got, want):
    got, want = got.on_host(), want.on_host()
    (gi, gv), (wi, wv) = got.entries(), want.entries()
    return got.nvals == want.nvals and np.array_equal(gi, wi) and np.array_equal(gv, wv)


PLACES = list(itertools.product(["host", "device"], repeat=3))


@pytest.mark.parametrize("places", PLACES, ids="-".join)
@pytest.mark.parametrize("seed", range(4))
def test_writes_and_ewise_across_host_and_device(device_xp, places, seed):
    """C<M, replace> = accum(C, T) and the element-wise ops, as the array backend runs them on
    pieces, give the all-host answer whichever of C, T and the mask are on the device; the
    result lies on the device when any input does, and a patched C on the host is left as it
    was."""
    rng = np.random.default_rng(seed)
    c_where = places[0]
    on_device = "device" in places
    for c_fmt, t_fmt in itertools.product(["sparse", "bitmap"], repeat=2):
        dens = rng.choice([0.02, 0.3, 1.0], 3)
        host = [_piece(rng, fmt, d) for fmt, d in zip((c_fmt, t_fmt, "bitmap"), dens,
                                                     strict=True)]

        def placed(i, host=host):
            return host[i].copy().on(device_xp) if places[i] == "device" else host[i].copy()

        t, m = placed(1), placed(2)
        for structure, complement, accum, replace in itertools.product(
                (True, False), (False, True), (None, binary.plus), (False, True)):
            c = placed(0)
            got = array.write_piece(c, t, PieceMask(m, structure, complement), accum, replace)
            want = write(host[0].copy(), host[1], PieceMask(host[2], structure, complement),
                         accum, replace)
            assert got.nvals == want.nvals
            result = got.install()
            assert _same(result, want.install())
            assert (result.xp is device_xp) == on_device
            if c_where == "host" and on_device:
                assert _same(c, host[0])  # the write ran on C's copy
        c = placed(0)
        for kind in ("mult", "add", "union"):
            args = (binary.minus, kind, (np.int64, np.int64), np.int64, (3, -3))
            assert _same(array.ewise_piece(c, t, *args), ewise(host[0], host[1], *args))


@pytest.fixture(params=ARRAY_BACKENDS)
def array_kernels(request):
    with backend_in_use(request.param) as name:
        yield name


@pytest.mark.serial_only
def test_a_bfs_stays_on_the_device(array_kernels):
    """A BFS on the array kernels keeps its vectors on the device: its result is there, and
    once the block is there, a whole traversal copies fewer bytes than one bitmap of its
    vertices (the source's entry going down), while its answer is python-graphblas's."""
    A = gb.generators.rmat(12, 8, seed=3, symmetric=True)
    root = int(np.argmax(np.bincount(A.to_coo()[0].astype(np.int64), minlength=A.nrows)))
    bfs_parents(A, root)  # the block's copy goes down
    with comm.recording() as rec:
        parents = bfs_parents(A, root)
        levels = bfs_levels(A, root)
    assert parents.piece.xp is not np and levels.piece.xp is not np
    copied = sum(r["bytes_sent"] for r in rec.summary() if r["group"] == "device")
    assert copied < A.nrows
    assert validate_bfs_tree(A, root, parents)
    with backend_in_use("numpy"):
        want = bfs_levels(A, root)
    assert levels.isequal(want)
