"""Seeded generators: the same edges for any split into parts, and the same Matrix at any P.

Every test makes the same calls on every rank (they also run under mpiexec). Edge lists are
local computations; the Matrix tests compare this rank's block with the entries the ownership
function gives it, and agree on the verdict with an allreduce.
"""

import graphblas
import numpy as np
import pytest
from _helpers import agreed

import gblas2d as gb
from gblas2d import generators
from gblas2d.io.generators import (
    erdos_renyi,
    erdos_renyi_edges,
    rmat,
    rmat_edges,
    vertex_permutation,
)


def as_multiset(src, dst):
    order = np.lexsort((dst, src))
    return src[order], dst[order]


@pytest.fixture
def small_chunks(monkeypatch):
    """Chunks of 1000 edges, so a scale-10 graph spans many chunks (and a short last one)."""
    monkeypatch.setattr(generators, "CHUNK", 1000)


def test_rmat_edges_deterministic():
    first = rmat_edges(9, 8, seed=11)
    again = rmat_edges(9, 8, seed=11)
    other = rmat_edges(9, 8, seed=12)
    assert all(np.array_equal(x, y) for x, y in zip(first, again, strict=True))
    assert not np.array_equal(first[0], other[0])
    assert first[0].dtype == np.int64 and first[1].dtype == np.int64
    assert len(first[0]) == 8 * 2**9
    assert first[0].min() >= 0 and max(first[0].max(), first[1].max()) < 2**9


@pytest.mark.usefixtures("small_chunks")
@pytest.mark.parametrize("nparts", [1, 2, 3, 5])
def test_rmat_parts_make_the_one_part_list(nparts):
    whole = rmat_edges(10, 16, seed=3)
    parts = [rmat_edges(10, 16, seed=3, part=p, nparts=nparts) for p in range(nparts)]
    src = np.concatenate([s for s, _ in parts])
    dst = np.concatenate([d for _, d in parts])
    # the same multiset of edges ...
    for x, y in zip(as_multiset(src, dst), as_multiset(*whole), strict=True):
        assert np.array_equal(x, y)
    # ... and in fact the same list, parts being contiguous runs of chunks
    assert np.array_equal(src, whole[0]) and np.array_equal(dst, whole[1])


@pytest.mark.usefixtures("small_chunks")
@pytest.mark.parametrize("nparts", [1, 2, 3, 5])
def test_erdos_renyi_parts_make_the_one_part_list(nparts):
    whole = erdos_renyi_edges(700, 9_500, seed=5)
    parts = [erdos_renyi_edges(700, 9_500, seed=5, part=p, nparts=nparts)
             for p in range(nparts)]
    src = np.concatenate([s for s, _ in parts])
    dst = np.concatenate([d for _, d in parts])
    for x, y in zip(as_multiset(src, dst), as_multiset(*whole), strict=True):
        assert np.array_equal(x, y)
    assert whole[0].max() < 700 and len(whole[0]) == 9_500


def test_scramble_is_a_permutation():
    perm = vertex_permutation(10, seed=4)
    assert np.array_equal(np.sort(perm), np.arange(2**10))
    assert not np.array_equal(perm, np.arange(2**10))
    assert not np.array_equal(perm, vertex_permutation(10, seed=5))
    # a = 1 puts every unscrambled edge at (0, 0): the scramble sends it to perm[0]
    src, dst = rmat_edges(10, 2, a=1.0, b=0.0, c=0.0, seed=4)
    assert np.all(src == perm[0]) and np.all(dst == perm[0])


def degree_cv(src, n):
    """Coefficient of variation (std / mean) of the out-degrees."""
    deg = np.bincount(src, minlength=n)
    return deg.std() / deg.mean()


def test_rmat_degrees_are_skewed():
    scale, n = 10, 2**10
    src, _ = rmat_edges(scale, 16, seed=1)
    # a = b = c = d = 1/4 is the uniform graph: degrees close to Poisson(16), cv near 1/4
    flat, _ = rmat_edges(scale, 16, a=0.25, b=0.25, c=0.25, seed=1)
    assert degree_cv(src, n) > 4 * degree_cv(flat, n)
    deg = np.bincount(src, minlength=n)
    assert deg.max() > 10 * deg.mean()
    # the top 1% of vertices hold far more than 1% of the edges
    top = np.sort(deg)[-n // 100:]
    assert top.sum() > 0.1 * deg.sum()


def reference_matrix(src, dst, w, n, symmetric):
    """python-graphblas: self-loops dropped, reversed edges added, repeats combined by min."""
    keep = src != dst
    src, dst = src[keep], dst[keep]
    values = np.ones(len(src)) if w is None else w[keep]
    if symmetric:
        src, dst = np.concatenate([src, dst]), np.concatenate([dst, src])
        values = np.concatenate([values, values])
    return graphblas.Matrix.from_coo(src, dst, values, nrows=n, ncols=n,
                                     dup_op=graphblas.binary.min)


def block_matches(A, ref):
    """This rank's block of A equals the reference entries the ownership function gives it."""
    grid = A.grid
    r, c, v = ref.to_coo()
    r, c = r.astype(np.int64), c.astype(np.int64)
    mine = grid.entry_owner(A.nrows, A.ncols, r, c) == grid.rank
    row_lo, col_lo, rows, cols, vals = A.local_block()
    got = sorted(zip((rows + row_lo).tolist(), (cols + col_lo).tolist(), vals.tolist(),
                     strict=True))
    want = sorted(zip(r[mine].tolist(), c[mine].tolist(), v[mine].tolist(), strict=True))
    return got == want


@pytest.mark.parametrize("symmetric", [False, True])
def test_rmat_matrix_equals_one_part_reference(symmetric):
    A = rmat(9, 8, seed=2, symmetric=symmetric)
    src, dst = rmat_edges(9, 8, seed=2)
    ref = reference_matrix(src, dst, None, 2**9, symmetric)
    assert A.shape == (2**9, 2**9) and A.nvals == ref.nvals
    assert agreed(block_matches(A, ref))
    assert A.isequal(gb.io.from_graphblas(ref))


@pytest.mark.usefixtures("small_chunks")
def test_rmat_weighted_matrix_equals_one_part_reference():
    A = rmat(10, 4, seed=6, symmetric=True, weights="uniform")
    # the weights are the chunk streams' draws after the endpoints
    chunks = generators._rmat_chunks(10, 4, 0.57, 0.19, 0.19, 6, 0, 1, True)
    src, dst, w = generators._concatenated(chunks)
    perm = vertex_permutation(10, seed=6)
    ref = reference_matrix(perm[src], perm[dst], w, 2**10, True)
    assert A.nvals == ref.nvals
    assert agreed(block_matches(A, ref))
    assert (0 <= ref.reduce_scalar(graphblas.monoid.min).value) and \
        ref.reduce_scalar(graphblas.monoid.max).value < 1


@pytest.mark.usefixtures("small_chunks")
def test_erdos_renyi_matrix_equals_one_part_reference():
    A = erdos_renyi(300, 4_000, seed=8)
    src, dst = erdos_renyi_edges(300, 4_000, seed=8)
    ref = reference_matrix(src, dst, None, 300, False)
    assert A.nvals == ref.nvals
    assert agreed(block_matches(A, ref))


def test_invalid_arguments_rejected():
    with pytest.raises(ValueError, match="a \\+ b \\+ c <= 1"):
        rmat_edges(4, a=0.6, b=0.3, c=0.3)
    with pytest.raises(ValueError, match="part"):
        rmat_edges(4, part=3, nparts=3)
    with pytest.raises(ValueError, match="seed"):
        rmat_edges(4, seed=-1)
    with pytest.raises(ValueError, match="weights"):
        rmat(4, weights="normal")
    with pytest.raises(ValueError, match="nedges"):
        erdos_renyi_edges(0, 10)


def transpose_by_coo(A):
    """A^T built from A's entries, by a path that never asks whether A is symmetric."""
    r, c, v = A.to_coo()
    return gb.Matrix.from_coo(c, r, v, dtype=A.dtype, nrows=A.ncols, ncols=A.nrows)


@pytest.mark.parametrize("make", [
    lambda: rmat(8, 6, seed=3, symmetric=True, weights="uniform"),
    lambda: erdos_renyi(200, 900, seed=1, symmetric=True),
    lambda: generators.grid_graph(7, 9, diagonal=True, weights="uniform"),
])
def test_symmetric_graph_transposes_to_itself_without_moving_entries(make):
    A = make()
    with gb.recording() as rec:
        T = A.T.new()
    assert "alltoallv" not in {op for op, _ in rec.totals}
    assert T.isequal(transpose_by_coo(A)) and T.isequal(A)
    # A write forgets the symmetry: the next transpose is a real one.
    B = gb.Matrix.from_coo([0, 0], [1, 5], [7.0, 9.0], nrows=A.nrows, ncols=A.ncols)
    A(accum=gb.binary.plus) << B
    assert not A.isequal(transpose_by_coo(A))
    assert A.T.new().isequal(transpose_by_coo(A))
    # Nor is a copy of it symmetric, or a masked copy of a symmetric matrix.
    C = A.dup()
    assert C.T.new().isequal(transpose_by_coo(A))
    D = make().dup(mask=B.S)
    assert D.T.new().isequal(transpose_by_coo(D))


def test_directed_graph_transposes_by_moving_entries():
    A = rmat(8, 6, seed=3)
    T = A.T.new()
    assert T.isequal(transpose_by_coo(A)) and not T.isequal(A)


def test_symmetry_follows_the_operations_that_keep_it():
    A = rmat(8, 6, seed=4, symmetric=True, weights="uniform")
    B = erdos_renyi(A.nrows, 2000, seed=5, symmetric=True)
    kept = {
        "apply": A.apply(gb.unary.one).new(),
        "bound apply": A.apply(gb.binary.minus, left=1.0).new("FP32"),
        "value select": A.select(gb.select.valuegt, 0.5).new(),
        "offdiag": A.select(gb.select.offdiag).new(),
        "ewise_add": A.ewise_add(B, gb.binary.max).new(),
        "ewise_mult": A.ewise_mult(B, gb.binary.plus).new(),
        "transpose": A.T.new(),
    }
    lost = {
        "tril": A.select(gb.select.tril).new(),
        "positional apply": A.apply(gb.indexunary.rowindex, 0).new(),
        "product": A.mxm(B, gb.semiring.plus_times).new(),
    }
    for what, M in {**kept, **lost}.items():
        with gb.recording() as rec:
            T = M.T.new()
        assert T.isequal(transpose_by_coo(M)), what
        moved = "alltoallv" in {op for op, _ in rec.totals}
        assert moved == (what in lost and gb.default_grid().nprocs > 1), what


def test_the_generators_keep_their_import_path():
    """They live in gblas2d/io/ and are still ``gblas2d.generators``, one module object."""
    import gblas2d.generators as by_path

    assert by_path is gb.generators is gb.io.generators
    assert by_path.rmat is rmat
