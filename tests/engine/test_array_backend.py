"""The array backend (``backends/array.py``): the kernels the cupy backend runs on a GPU, run
here on the host with numpy and scipy; on a machine with cupy, on the device too.

The property tests (test_properties.py) run every available backend, these two included,
against python-graphblas; here, the algorithms built on them, the plan's choice of kernel, the
device twin and the count of copies.
"""

import graphblas as G
import numpy as np
import pytest
from _helpers import backend_in_use
from gblas2d.algorithms import (
    bfs_levels,
    bfs_parents,
    connected_components,
    fused_bpt,
    pagerank,
    validate_bfs_tree,
)

import gblas2d as gb
from gblas2d import backends
from gblas2d.distributed import comm
from gblas2d.local import device
from gblas2d.local.backends import array
from gblas2d.local.backends import numpy as reference

ARRAY_BACKENDS = [name for name in ("array", "cupy") if name in backends.available()]


@pytest.fixture
def kernels(request):
    with backend_in_use(request.param) as name:
        yield name


def _graph(scale, seed):
    A = gb.generators.rmat(scale, 8, seed=seed, symmetric=True)
    rows, cols, vals = A.to_coo()
    return A, G.Matrix.from_coo(rows, cols, vals, nrows=A.nrows, ncols=A.ncols)


def _values(v):
    return v.to_coo()


@pytest.mark.parametrize("kernels", ARRAY_BACKENDS, indirect=True)
@pytest.mark.parametrize("seed", [1, 2])
def test_algorithms_match_python_graphblas(kernels, seed):
    """BFS (levels and a valid parent tree), PageRank, FastSV and the fused BPT on the array
    kernels give python-graphblas's answers on the same graph."""
    A, M = _graph(9, seed)
    root = int(np.argmax(np.bincount(A.to_coo()[0], minlength=A.nrows)))
    got, want = _values(bfs_levels(A, root)), _values(bfs_levels(M, root))
    assert all(np.array_equal(a, b) for a, b in zip(got, want, strict=True))
    parents = bfs_parents(A, root)
    assert parents.nvals == want[0].size
    assert validate_bfs_tree(A, root, parents)
    (pi, pv), (qi, qv) = _values(pagerank(A, iterations=20)), _values(pagerank(M, iterations=20))
    assert np.array_equal(pi, qi) and np.allclose(pv, qv, atol=1e-9)
    labels, theirs = _values(connected_components(A))[1], _values(connected_components(M))[1]
    # the same partition: label pairs map one to one
    pairs = set(zip(labels.tolist(), theirs.tolist(), strict=True))
    assert len(pairs) == len(set(labels.tolist())) == len(set(theirs.tolist()))
    sources = [root, 0, 5, root] * 20
    mine, peer = fused_bpt(A, sources, 0.3, seed=seed), fused_bpt(M, sources, 0.3, seed=seed)
    assert all(np.array_equal(a, b) for a, b in zip(mine.rrr.to_coo(), peer.rrr.to_coo(),
                                                       strict=True))
    assert mine.levels == peer.levels


@pytest.mark.parametrize("kernels", ARRAY_BACKENDS, indirect=True)
def test_the_plan_runs_products_here(kernels):
    """The plan sends products, element-wise ops, writes and selects to the array kernels,
    whatever their size, and the kernels this backend does not have to numpy."""
    A, _ = _graph(6, 1)
    x = gb.Vector.from_coo([0, 1], [1.0, 2.0], size=A.nrows)
    block, seg = A.block, x.piece
    kwargs = dict(orient="mxv", x_first=False, allowed=None, out_offset=0, in_offset=0,
                  out_dtype=np.dtype(np.float64))
    for direction in ("push", "pull"):
        for sr in (gb.semiring.any_pair, gb.semiring.min_second, gb.semiring.plus_times,
                   gb.semiring.bor_band, gb.semiring.min_secondi):
            operand = seg if sr is not gb.semiring.bor_band else seg.astype(np.uint64)
            chosen = backends.plan("spmv", block, operand, sr, direction=direction, **kwargs)
            assert chosen is array.spmv, (direction, sr.name)
    assert backends.plan("spmv", block, seg, gb.semiring.times_first, direction="pull",
                         **kwargs) is reference.spmv
    assert backends.plan("write_block", block, block, None, None, False,
                         np.float64) is array.write_block
    assert backends.plan("ewise_block", block, block, gb.binary.plus, "add",
                         (np.float64, np.float64), np.float64, (None, None)) is array.ewise_block
    assert backends.plan("select_values", block, gb.select.valuegt, 1) is array.select_values
    assert backends.plan("transpose_block", block) is array.transpose_block


@pytest.mark.parametrize("kernels", ARRAY_BACKENDS, indirect=True)
@pytest.mark.parametrize("shape", [(40, 30, 300), (500, 700, 40), (30, 30, 0)])
def test_transpose_and_columns_sorted_on_the_device(kernels, shape):
    """A block's storage by columns, sorted on the device, and the transpose made from it
    are numpy's, for plain and hypersparse blocks and an empty one."""
    from gblas2d.local.block import Block

    nrows, ncols, nvals = shape
    rng = np.random.default_rng(nvals)
    keys = np.unique(rng.integers(0, nrows * ncols, nvals))
    block = Block.from_keys(nrows, ncols, keys, rng.random(len(keys)))
    got, want = array.transpose_block(block), reference.transpose_block(block)
    assert (got.nrows, got.ncols) == (want.nrows, want.ncols) == (ncols, nrows)
    assert np.array_equal(got.keys(), want.keys())
    assert np.array_equal(got.values, want.values)
    dev = array._place[0]
    for mine, theirs in zip(array._storage(block, "cols"), block.by_cols(), strict=True):
        assert (mine is None) == (theirs is None)
        assert mine is None or np.array_equal(dev.to_host(mine), theirs)


@pytest.mark.parametrize("kernels", ARRAY_BACKENDS, indirect=True)
@pytest.mark.parametrize("dtype", ["INT8", "INT64", "UINT64", "FP32", "BOOL"])
@pytest.mark.parametrize("monoid", ["plus", "min", "max", "bor", "band", "bxor", "lor", "land",
                                    "any"])
def test_folds_match_numpy(kernels, dtype, monoid):
    """Every monoid's fold by key, on each type it takes, gives the numpy backend's values
    (integer sums wrap as the type does)."""
    if dtype in ("FP32", "BOOL") and monoid in ("bor", "band", "bxor"):
        return
    rng = np.random.default_rng(len(dtype) * 31 + len(monoid))
    t = np.dtype(dtype.lower().replace("fp", "float"))
    vals = rng.integers(-120, 120, 400).astype(t) if t.kind != "b" else rng.random(400) < 0.5
    keys = rng.integers(0, 50, 400)
    m = getattr(gb.monoid, monoid)
    from gblas2d.local.keys import reduce_by_key

    dev = array._place[0]
    idx, got = array._fold(dev.xp, dev.to_device(keys), dev.to_device(vals), m, 50)
    want_idx, want = reduce_by_key(keys, vals, m)
    assert np.array_equal(dev.to_host(idx), want_idx)
    if monoid != "any":
        assert np.array_equal(dev.to_host(got), want)


def test_the_device_twin_has_the_same_calls():
    """The host twin and the CUDA device answer the same calls, so the code run here is the
    code run there."""
    def calls(cls):
        return {name for name, v in vars(cls).items() if callable(v) and name[0] != "_"}

    assert calls(device.Cuda) == calls(device.Host) == {"to_device", "to_host", "held"}
    assert device.array_module(np.zeros(2)) is np


def test_copies_are_counted_in_the_trace():
    """Each copy to or from a device (here the host twin, whose copies are real) is one
    "to_device" or "to_host" row of the rank's record, with its bytes, and shows in
    gb.Recorder; an array already where it is asked for is not copied."""
    cuda = device.Host()
    data = np.arange(100, dtype=np.int64)
    with comm.recording() as rec:
        down = cuda.to_device(data)
        assert cuda.to_device(down) is down
        back = cuda.to_host(down)
        assert cuda.to_host(back) is back
    assert np.array_equal(back, data)
    rows = {(r["op"], r["group"]): r for r in rec.summary()}
    assert rows[("to_device", "device")]["bytes_sent"] == 800
    assert rows[("to_host", "device")]["bytes_received"] == 800
    with gb.Recorder() as recorder:
        before = {key: list(row) for key, row in comm.stats().totals.items()}
        cuda.to_device(data)
        recorder.record("copy", before, comm.stats().totals)
    assert "to_device device x1 (800 B)" in str(recorder)


def test_cupy_is_imported_only_when_asked():
    """Without cupy, asking for the cupy backend is a clear ImportError; with it, it runs."""
    previous = backends.backend_name()
    if "cupy" in backends.available():
        backends.set_backend("cupy")
        assert backends.backend_name() == "cupy"
        backends.set_backend(previous)
    else:
        with pytest.raises(ImportError, match=r"gblas2d\[gpu\]"):
            backends.set_backend("cupy")
        assert backends.backend_name() == previous


def _random_block(rng, n, density, dtype=np.int64):
    from gblas2d.local.block import Block

    keys = np.flatnonzero(rng.random(n * n) < density)
    return Block.from_keys(n, n, keys, rng.integers(-3, 4, len(keys)).astype(dtype))


@pytest.mark.parametrize("kernels", ARRAY_BACKENDS, indirect=True)
@pytest.mark.parametrize("seed", range(6))
def test_block_kernels_match_numpy(kernels, seed):
    """Element-wise ops, writes (every mask kind, accum, replace) and selects of blocks give
    the numpy backend's entries."""
    from gblas2d.local.block import BlockMask

    rng = np.random.default_rng(seed)
    a, b, m = (_random_block(rng, 9, d) for d in (0.3, 0.4, 0.5))
    types = (np.int64, np.int64)

    def same(got, want):
        if isinstance(got, tuple):
            return all(np.array_equal(x, y) for x, y in zip(got, want, strict=True))
        return np.array_equal(got.keys(), want.keys()) and \
            np.array_equal(got.values, want.values)

    for kind, defaults in (("mult", None), ("add", None), ("union", (5, -5))):
        args = (a, b, gb.binary.minus, kind, types, np.int64, defaults)
        assert same(array.ewise_block(*args), reference.ewise_block(*args)), kind
    for structure in (True, False):
        for complement in (False, True):
            for accum in (None, gb.binary.plus):
                for replace in (False, True):
                    mask = BlockMask(m, structure, complement)
                    args = (a, b, mask, accum, replace, np.int64)
                    assert same(array.write_block(*args), reference.write_block(*args))
    for op, thunk in ((gb.select.valuegt, 0), (gb.select.valuene, 1)):
        assert same(array.select_values(a, op, thunk), reference.select_values(a, op, thunk))


@pytest.mark.parametrize("kernels", ARRAY_BACKENDS, indirect=True)
@pytest.mark.parametrize("seed", range(4))
def test_masked_products_match_numpy(kernels, seed):
    """C<M> = A (+).(x) B under a plain mask: where the mask's dot products read less than the
    expansion of every product, the backend computes those dots alone (``within_mask``);
    either way C's entries inside the mask are the numpy backend's, for every kind of
    semiring (positional multiplies and plus_pair included), and a hypersparse A too."""
    from gblas2d.local.block import Block, BlockMask

    rng = np.random.default_rng(seed)
    a, b = _random_block(rng, 12, 0.5), _random_block(rng, 12, 0.5)
    sparse_a = Block.from_keys(12, 12, np.array([5, 29, 30, 140]), np.array([2, -1, 3, 1]))
    took_dots = 0
    for left in (a, sparse_a):
        for density, structure in ((0.08, True), (0.15, False), (0.9, True)):
            m = _random_block(rng, 12, density)
            mask = BlockMask(m, structure, False)
            for sr in (gb.semiring.plus_times, gb.semiring.min_plus, gb.semiring.any_pair,
                       gb.semiring.plus_pair, gb.semiring.max_secondi, gb.semiring.min_firstj,
                       gb.semiring.min_firsti, gb.semiring.max_secondj):
                args = (left, (*b.csr, b.ncols), sr, np.dtype(np.int64), np.dtype(np.int64))
                kw = dict(a_row_offset=3, inner_offset=7)
                got = array.spgemm(*args, **kw, mask=mask)
                want = reference.spgemm(*args, **kw)
                keep = mask.allows(want.keys())
                inside = slice(None) if got.within_mask else mask.allows(got.keys())
                np.testing.assert_array_equal(got.keys()[inside], want.keys()[keep],
                                              err_msg=sr.name)
                np.testing.assert_array_equal(got.values[inside].astype(np.int64),
                                              want.values[keep].astype(np.int64),
                                              err_msg=sr.name)
                took_dots += got.within_mask
    assert took_dots >= 12  # the sparse masks over the dense A took the dot products


@pytest.mark.serial_only  # which rank's product takes the mask in is the scheme's choice
@pytest.mark.parametrize("kernels", ARRAY_BACKENDS, indirect=True)
def test_triangles_by_the_masks_dot_products(kernels, monkeypatch):
    """Triangle counting's masked plus_pair by the mask's dot products (``PAIR_BY_DOTS``,
    which the GPU run times against the sparse module's product of every wedge) gives
    python-graphblas's count."""
    from gblas2d.algorithms import triangle_count

    A, M = _graph(8, 3)
    dots = []
    masked = array._spgemm_masked
    monkeypatch.setattr(array, "_spgemm_masked", lambda *a, **k: dots.append(1) or masked(*a, **k))
    monkeypatch.setattr(array, "PAIR_BY_DOTS", True)
    assert triangle_count(A) == triangle_count(M)
    assert dots


def test_each_rank_of_a_node_takes_its_own_gpu():
    """The cupy backend's GPU for a rank is its node-local rank (as Hydra, Open MPI, MVAPICH
    or Slurm give it) modulo the visible GPUs; 0 without a launcher or with one GPU a rank."""
    assert device.device_of_rank({"MPI_LOCALRANKID": "5"}, 8) == 5
    assert device.device_of_rank({"OMPI_COMM_WORLD_LOCAL_RANK": "9"}, 8) == 1
    assert device.device_of_rank({"SLURM_LOCALID": "3"}, 1) == 0
    assert device.device_of_rank({"MPI_LOCALRANKID": "x", "SLURM_LOCALID": "2"}, 4) == 2
    assert device.device_of_rank({}, 8) == 0


@pytest.mark.parametrize("kernels", ARRAY_BACKENDS, indirect=True)
def test_a_product_into_a_huge_dimension_folds_only_its_products(kernels):
    """A product of a 2^40 x 2^40 matrix of two entries folds its one product by its key,
    with nothing the size of the output dimension."""
    A = gb.Matrix.from_coo([0, 5], [5, 0], 1.0, nrows=2**40, ncols=2**40)
    idx, vals = A.mxv(gb.Vector.from_coo([0], [2.0], size=2**40)).new().to_coo()
    assert idx.tolist() == [5] and vals.tolist() == [2.0]
