"""Writes of a few entries into a large Matrix, left pending (``Block.upserted``), against
python-graphblas: chains of masked scalar assigns, accumulations and small element-wise
additions, each read back by an operation that does not merge the pending entries first
(nvals, a later write) and by one that does (a reduction, a product, ``to_coo``); writes under
a mask of few entries, which read the source at the mask's positions only; and the row and
column reductions of one-valued matrices that read only pointers.

SPMD: every rank draws the same examples and makes the same calls; which ranks keep writes
pending is each block's own choice, so under mpiexec both paths meet in one call.
"""

import os

import graphblas as G
import numpy as np
import pytest
from _helpers import (
    DTYPES,
    agreed,
    assert_same_matrix,
    assert_same_vector,
    backend_in_use,
    mask_of,
    mat_pair,
    rand_mat,
    rand_values,
    rand_vec,
)
from hypothesis import Phase, assume, given, settings
from hypothesis import strategies as st

import gblas2d as gb
from gblas2d.local import backends
from gblas2d.local import bitmap as bitmap_module

UNDER_MPI = os.environ.get("GBLAS2D_TEST_MPI") == "1"
EXAMPLES = settings(phases=[Phase.explicit, Phase.reuse, Phase.generate], max_examples=15) \
    if UNDER_MPI else settings(max_examples=60, deadline=None)

# The ops an accumulation or an ewise_add takes here: commutative (plus, min, max, lor) and
# not (first, second, minus), each in python-graphblas under the same name.
OPS = ["plus", "min", "max", "first", "second", "minus"]
WRITES = ["assign_scalar", "assign_region", "accumulate", "ewise_add_left", "ewise_add_right",
          "ewise_mult_left", "ewise_mult_right"]
READS = ["nvals", "reduce_rows", "mxv", "masked_mxm", "wait", "none"]


def _small(rng, nrows, ncols, dtype, k):
    """A Matrix pair of at most ``k`` random entries."""
    keys = rng.choice(nrows * ncols, size=min(k, nrows * ncols), replace=False)
    rows, cols = keys // ncols, keys % ncols
    return mat_pair(rows, cols, rand_values(rng, len(keys), dtype), dtype, nrows, ncols)


def _write(L, c, kind, small, op_name, mask_kind, value):
    """One write of ``kind`` into ``c`` (python-graphblas's or gblas2d's); returns the
    Matrix that holds the result (an ewise_add makes a new one)."""
    op = getattr(L.binary, op_name)
    if kind == "assign_scalar":
        accum = op if op_name != "minus" else None
        c(small.S, accum=accum) << value
        return c
    if kind == "assign_region":
        # C[I, J] << s: every place of a small region, the rows and columns as given
        rows, cols = small.to_coo()[:2]
        accum = op if op_name != "minus" else None
        c(accum=accum)[[int(i) for i in rows[:2]], [int(j) for j in cols]] << value
        return c
    if kind == "accumulate":
        c(mask=mask_of(small, mask_kind) if mask_kind else None, accum=op) << small
        return c
    if kind == "ewise_add_left":
        return c.ewise_add(small, op).new()
    if kind == "ewise_add_right":
        return small.ewise_add(c, op).new()
    # the few entries both have, then accumulated back into C (the chain goes on from C)
    few = c.ewise_mult(small, op).new() if kind == "ewise_mult_left" else \
        small.ewise_mult(c, op).new()
    c(accum=op) << few
    return c


def _read(L, c, kind, x, r, q):
    """A reading of ``c`` that python-graphblas and gblas2d both give; ``masked_mxm`` reads
    c as the complemented structural mask of a product of two other matrices, which leaves
    c's pending writes pending."""
    if kind == "masked_mxm":
        out = L.Matrix(r.dtype, c.nrows, c.ncols)
        out(~c.S) << r.mxm(q, L.semiring.plus_times)
        return out
    if kind == "nvals":
        return c.nvals
    if kind == "reduce_rows":
        return c.reduce_rowwise(L.monoid.max).new()
    if kind == "mxv":
        return c.mxv(x, L.semiring.plus_times).new()
    if kind == "wait":
        return c.wait()
    return None


@EXAMPLES
@given(seed=st.integers(0, 2**32 - 1), nrows=st.integers(4, 30), ncols=st.integers(4, 30),
       dtype=st.sampled_from([d for d in DTYPES if d != "BOOL"]),
       steps=st.lists(st.tuples(st.sampled_from(WRITES), st.sampled_from(OPS),
                                st.sampled_from([None, "S", "V", "~S"]),
                                st.sampled_from(READS), st.integers(1, 6)),
                      min_size=1, max_size=5))
def test_small_writes_into_a_large_matrix(seed, nrows, ncols, dtype, steps):
    rng = np.random.default_rng(seed)
    c = rand_mat(rng, nrows, ncols, dtype, 0.9)
    x = rand_vec(rng, ncols, "FP64", 0.7)
    r, q = rand_mat(rng, nrows, ncols, "FP64", 0.5), rand_mat(rng, ncols, ncols, "FP64", 0.5)
    ours, theirs = c.gb, c.G
    for kind, op_name, mask_kind, read, k in steps:
        small = _small(rng, nrows, ncols, dtype, k)
        value = small.G.to_coo()[2][0].item() if small.G.nvals else 1
        what = f"{kind} {op_name} mask={mask_kind} then {read}"
        ours = _write(gb, ours, kind, small.gb, op_name, mask_kind, value)
        theirs = _write(G, theirs, kind, small.G, op_name, mask_kind, value)
        # nvals is agreed at the write, before any merge
        assert ours.nvals == theirs.nvals, what
        got, want = _read(gb, ours, read, x.gb, r.gb, q.gb), _read(G, theirs, read, x.G, r.G, q.G)
        if isinstance(want, G.Vector):
            assert_same_vector(got, want, what=what)
        elif isinstance(want, G.Matrix):
            assert_same_matrix(got, want, what=what)
        elif read == "nvals":
            assert got == want, what
    assert_same_matrix(ours, theirs, what=str(steps))


@pytest.mark.serial_only
def test_a_few_entries_written_into_many_wait_for_a_reader():
    """The writes are left pending, and the first reader of the storage merges them (a block
    sparse enough to be held by rows: see the bitmap's tests below)."""
    rng = np.random.default_rng(7)
    keys = rng.choice(64 * 512, size=3_000, replace=False)
    v = gb.Matrix.from_coo(keys // 512, keys % 512, True, nrows=64, ncols=512)
    f = gb.Matrix.from_coo([0, 5, 63], [1, 2, 511], True, nrows=64, ncols=512)
    v(f.S) << True
    assert v.block.has_pending
    v(accum=gb.binary.lor) << f
    u = v.ewise_add(f, gb.binary.lor).new()
    assert v.block.has_pending and u.block.has_pending
    expected = len(set(keys.tolist()) | {0 * 512 + 1, 5 * 512 + 2, 63 * 512 + 511})
    assert v.nvals == u.nvals == expected
    v.wait()
    assert not v.block.has_pending and v.nvals == expected
    r, c, _ = u.to_coo()
    assert not u.block.has_pending
    assert set((r * 512 + c).tolist()) == set(keys.tolist()) | {1, 5 * 512 + 2, 63 * 512 + 511}


@pytest.mark.serial_only
def test_a_complemented_mask_with_pending_writes_is_read_without_merging_them():
    """A batched BFS's level: ``F<~V.S> = A F`` then ``V<F> = level``. The product reads V's
    storage as SuiteSparse holds it, made once, and drops what was written since: V's writes
    stay pending over the levels, and the answers are python-graphblas's."""
    rng = np.random.default_rng(3)
    n, k = 2_000, 4
    keys = rng.choice(n * n, size=8_000, replace=False)
    A = (keys // n, keys % n)
    ours = gb.Matrix.from_coo(*A, True, nrows=n, ncols=n)
    theirs = G.Matrix.from_coo(*A, True, nrows=n, ncols=n)
    visited = rng.choice(n * k, size=4_000, replace=False)
    v_ours = gb.Matrix.from_coo(visited // k, visited % k, 0, nrows=n, ncols=k)
    v_theirs = G.Matrix.from_coo(visited // k, visited % k, 0, nrows=n, ncols=k)
    sources = rng.choice(n, size=k, replace=False)
    f_ours = gb.Matrix.from_coo(sources, np.arange(k), True, nrows=n, ncols=k)
    f_theirs = G.Matrix.from_coo(sources, np.arange(k), True, nrows=n, ncols=k)
    storage, pending_levels = None, 0
    for level in range(1, 5):
        for L, F, V, M in ((gb, f_ours, v_ours, ours), (G, f_theirs, v_theirs, theirs)):
            F(~V.S, replace=True) << M.mxm(F, L.semiring.any_pair)
            V(F.S) << level
        assert_same_matrix(f_ours, f_theirs, what=f"frontier at level {level}")
        if v_ours.block.has_pending:
            base, _ = v_ours.block.base_and_pending()
            storage = base.derived if storage is None else storage
            # every level's mask read the one copy of the storage the writes apply to
            assert base.derived is storage and "suitesparse" in storage
            pending_levels += 1
    assert pending_levels >= 3
    assert_same_matrix(v_ours, v_theirs, what="levels")


@EXAMPLES
@given(seed=st.integers(0, 2**32 - 1), nrows=st.integers(1, 25), ncols=st.integers(1, 25),
       density=st.sampled_from([0.0, 0.05, 0.3, 1.0]), dtype=st.sampled_from(DTYPES),
       name=st.sampled_from(["min", "max", "any", "lor", "land", "bor", "band", "plus"]),
       axis=st.sampled_from(["reduce_rowwise", "reduce_columnwise"]))
def test_reductions_of_one_valued_matrices(seed, nrows, ncols, density, dtype, name, axis):
    """A matrix whose entries share one value (a pattern) reduces by its pointers under an
    idempotent monoid; the others (plus) take the general path. Both as python-graphblas."""
    if name in ("lor", "land") and dtype != "BOOL" or name in ("bor", "band") and \
            dtype not in ("UINT8", "UINT64") or name == "plus" and dtype == "BOOL":
        return
    rng = np.random.default_rng(seed)
    rows, cols = np.nonzero(rng.random((nrows, ncols)) < density)
    value = {"BOOL": True, "FP64": 2.5, "FP32": -1.5}.get(dtype, 3)
    ours = gb.Matrix.from_coo(rows, cols, value, dtype=dtype, nrows=nrows, ncols=ncols)
    theirs = G.Matrix.from_coo(rows, cols, value, dtype=dtype, nrows=nrows, ncols=ncols)
    if name == "any":
        got = getattr(ours, axis)(gb.monoid.any).new()
        want = getattr(theirs, axis)(G.monoid.any).new()
    else:
        got = getattr(ours, axis)(getattr(gb.monoid, name)).new()
        want = getattr(theirs, axis)(getattr(G.monoid, name)).new()
    assert_same_vector(got, want, what=f"{axis} {name} {dtype}")


@EXAMPLES
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(64, 400),
       mask_density=st.sampled_from([0.0, 0.01, 0.05, 0.5]),
       mask_kind=st.sampled_from(["S", "V", "~S"]), into=st.sampled_from(["dup", "assign"]))
def test_masked_copies_of_a_dense_vector(seed, n, mask_density, mask_kind, into):
    """A dense source copied under a mask, small (read at the mask's positions) or not."""
    rng = np.random.default_rng(seed)
    x = rand_vec(rng, n, "FP64", 1.0)
    q = rand_vec(rng, n, "INT64", mask_density)
    w = rand_vec(rng, n, "FP64", 0.02)
    if into == "dup":
        got = x.gb.dup(mask=mask_of(q.gb, mask_kind))
        want = x.G.dup(mask=mask_of(q.G, mask_kind))
    else:
        got, want = w.gb, w.G
        got(mask_of(q.gb, mask_kind)) << x.gb
        want(mask_of(q.G, mask_kind)) << x.G
    assert_same_vector(got, want, what=f"{into} {mask_kind} {mask_density}")


@EXAMPLES
@given(seed=st.integers(0, 2**32 - 1), nrows=st.integers(4, 30), ncols=st.integers(4, 30),
       dtype=st.sampled_from([d for d in DTYPES if d != "BOOL"]),
       mask_kind=st.sampled_from(["S", "V"]), k=st.integers(0, 8),
       c_density=st.sampled_from([0.0, 0.3, 0.9]), accum=st.sampled_from([None, "plus"]),
       replace=st.booleans(), how=st.sampled_from(["write", "dup"]),
       b_density=st.sampled_from([0.9, 1.0]))
def test_a_large_matrix_written_under_a_small_mask(seed, nrows, ncols, dtype, mask_kind, k,
                                                   c_density, accum, replace, how, b_density):
    """T is read at the mask's few positions only (``A.dup(mask=Q.S)``, ``C(Q.S) << B``):
    python-graphblas's answer with and without accum and replace, into an empty or a full
    C, where C has entries to delete inside the mask or none."""
    rng = np.random.default_rng(seed)
    b = rand_mat(rng, nrows, ncols, dtype, b_density)
    c = rand_mat(rng, nrows, ncols, dtype, c_density)
    q = _small(rng, nrows, ncols, "INT64", k)
    if how == "dup":
        got = b.gb.dup(mask=mask_of(q.gb, mask_kind))
        want = b.G.dup(mask=mask_of(q.G, mask_kind))
    else:
        got, want = c.gb, c.G
        got(mask=mask_of(q.gb, mask_kind), accum=accum and gb.binary.plus,
            replace=replace) << b.gb
        want(mask=mask_of(q.G, mask_kind), accum=accum and G.binary.plus,
             replace=replace) << b.G
    assert_same_matrix(got, want, what=f"{how} {mask_kind} accum={accum} replace={replace}")


def test_a_write_that_reaches_some_ranks_only_keeps_every_rank_in_step():
    """A write whose entries land on one rank's block still gives every rank a new block, so
    what ranks cache of collective values (a product's degrees) stays the same everywhere:
    the products after it make the same collectives on every rank (a hang otherwise)."""
    A = gb.generators.grid_graph(20, 20)
    r, c, v = A.to_coo()
    B = G.Matrix.from_coo(r, c, v, nrows=A.nrows, ncols=A.ncols)
    for L, M in ((gb, A), (G, B)):
        x = L.Vector.from_coo([0, 210], 1.0, size=M.nrows)
        seen = L.Vector.from_coo([0, 210], True, size=M.nrows)
        w = L.Vector(float, M.nrows)
        w(~seen.S, replace=True) << x.vxm(M, L.semiring.plus_times)
        F = L.Matrix.from_coo([0], [1], 1.0, nrows=M.nrows, ncols=M.ncols)
        M(accum=L.binary.plus) << F  # one entry: one rank's block
        w(~seen.S, replace=True) << x.vxm(M, L.semiring.plus_times)
        if L is gb:
            ours = w
        else:
            assert_same_vector(ours, w)
    assert_same_matrix(A, B)


@EXAMPLES
@given(seed=st.integers(0, 2**32 - 1), nrows=st.sampled_from([50, 3_000, 10**6]),
       entries=st.integers(200, 600), dtype=st.sampled_from(["FP64", "INT32", "BOOL"]),
       steps=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6), st.booleans()),
                      min_size=1, max_size=4))
def test_pending_writes_merge_into_plain_and_hypersparse_blocks(seed, nrows, entries, dtype,
                                                                 steps):
    """Writes of stored and new entries (in rows that have entries and rows that have none),
    merged by ``wait`` or left pending, into blocks plain (50 rows) and hypersparse (10^6
    rows); a copy taken before each write keeps its values, however the write was merged."""
    rng = np.random.default_rng(seed)
    ncols = 400
    keys = rng.choice(nrows * ncols, size=entries, replace=False)
    c = mat_pair(keys // ncols, keys % ncols, rand_values(rng, entries, dtype), dtype, nrows,
                 ncols)
    ours, theirs = c.gb, c.G
    for stored, fresh, wait in steps:
        before_ours, before_theirs = ours.dup(), theirs.dup()
        rows, cols, _ = theirs.to_coo()
        at = rng.choice(len(rows), size=min(stored, len(rows)), replace=False)
        new = rng.choice(nrows * ncols, size=fresh, replace=False)
        w_rows = np.concatenate([rows[at], new // ncols]).astype(np.int64)
        w_cols = np.concatenate([cols[at], new % ncols]).astype(np.int64)
        w_keys, first = np.unique(w_rows * ncols + w_cols, return_index=True)
        values = rand_values(rng, len(w_keys), dtype)
        for L, M in ((gb, ours), (G, theirs)):
            T = L.Matrix.from_coo(w_keys // ncols, w_keys % ncols, values, dtype=dtype,
                                  nrows=nrows, ncols=ncols)
            M(T.S) << T
            if wait:
                M.wait()
        what = f"stored={stored} fresh={fresh} wait={wait}"
        assert_same_matrix(before_ours, before_theirs, what="the copy: " + what)
        assert_same_matrix(ours, theirs, what=what)


def test_a_merge_that_only_replaces_values_keeps_the_storage():
    """Writes into stored entries alone change the values and nothing else: the merge keeps
    the pointers, columns and keys, and writes the values in place when no other block holds
    them. A block that still holds them (a copy) keeps its own values."""
    from gblas2d.local.block import Block

    keys = np.arange(0, 40_000, 3)
    values = np.arange(len(keys), dtype=np.float64)

    def written(held):
        base = Block.from_keys(200, 200, keys.copy(), values.copy())
        base.base_keys()
        # the values by id: a reference held here would itself make the merge copy them
        arrays = (base._ptr, base._cols, base._keys, id(base._values))
        block = base.upserted(keys[[1, 7, 100]], np.array([-1.0, -2.0, -3.0]))
        assert block.has_pending
        if not held:
            del base
        block.settle()
        return block, arrays, base if held else None

    block, (ptr, cols, bkeys, vals), _ = written(held=False)
    assert block.ptr is ptr and block.cols is cols and block.keys() is bkeys
    assert id(block.values) == vals
    expected = values.copy()
    expected[[1, 7, 100]] = [-1.0, -2.0, -3.0]
    np.testing.assert_array_equal(block.values, expected)
    block, (ptr, cols, bkeys, vals), base = written(held=True)
    assert block.ptr is ptr and block.cols is cols and id(block.values) != vals
    np.testing.assert_array_equal(block.values, expected)
    np.testing.assert_array_equal(base.values, values)


@pytest.mark.parametrize("backend", ["suitesparse", "numpy"])
@EXAMPLES
@given(seed=st.integers(0, 2**32 - 1), nrows=st.integers(1, 30), ncols=st.integers(1, 30),
       dtype=st.sampled_from(["FP64", "INT64", "BOOL"]), structure=st.booleans(),
       accum=st.sampled_from([None, "plus", "min", "second"]), typed=st.booleans())
def test_a_scalar_under_a_mask_of_many_entries(backend, seed, nrows, ncols, dtype, structure,
                                               accum, typed):
    """``C(M) << s`` with M as large as C: written whole by the backend's masked assign (each
    backend, SuiteSparse's taking its small operands too), a scalar of C's type or another."""
    assume(dtype != "BOOL" or accum not in ("plus", "min"))
    rng = np.random.default_rng(seed)
    c = rand_mat(rng, nrows, ncols, dtype, 0.5)
    m = rand_mat(rng, nrows, ncols, "INT64", 0.7)
    value = {"FP64": 2.5, "INT64": 3, "BOOL": True}[dtype] if typed else 7
    for L, C, M in ((gb, c.gb, m.gb), (G, c.G, m.G)):
        with backend_in_use(backend if L is gb else backends.backend_name()):
            C(M.S if structure else M.V,
              accum=None if accum is None else getattr(L.binary, accum)) << value
    assert_same_matrix(c.gb, c.G, what=f"{dtype} S={structure} accum={accum} value={value}")


@pytest.mark.serial_only
def test_a_dense_matrix_written_again_and_again_is_held_as_a_bitmap_written_in_place():
    """A visited set's loop: the first merge keeps the storage by rows, the second makes the
    dense block a bitmap, and from then on each merge sets the written entries in that same
    bitmap. A copy taken before a write keeps its entries: the write goes into a copy. (Built
    47% dense with 8-byte values, the block starts by rows; written, a bitmap pays.)"""
    rng = np.random.default_rng(5)
    nrows, ncols = 64, 300
    keys = rng.choice(nrows * ncols, size=9_000, replace=False)
    values = rng.random(len(keys))
    free = np.setdiff1d(np.arange(nrows * ncols), keys)
    rng.shuffle(free)
    ours = gb.Matrix.from_coo(keys // ncols, keys % ncols, values, nrows=nrows, ncols=ncols)
    theirs = G.Matrix.from_coo(keys // ncols, keys % ncols, values, nrows=nrows, ncols=ncols)
    bitmaps = []

    def write(step):
        new = np.sort(free[50 * step:50 * (step + 1)])
        for L, M in ((gb, ours), (G, theirs)):
            T = L.Matrix.from_coo(new // ncols, new % ncols, float(step + 1), nrows=nrows,
                                  ncols=ncols)
            M(accum=L.binary.plus) << T
            M.wait()

    for step in range(5):
        write(step)
        assert ours.block.is_bitmap == (step >= 1), step
        if ours.block.is_bitmap:
            bitmaps.append(id(ours.block.bitmap()[0]))
        assert not ours.block.has_pending and ours.nvals == theirs.nvals
    # one bitmap from the second merge on, written in place
    assert len(set(bitmaps)) == 1 and len(bitmaps) == 4
    assert_same_matrix(ours, theirs, what="after the loop")
    copy_ours, copy_theirs = ours.dup(), theirs.dup()
    write(5)
    assert id(ours.block.bitmap()[0]) not in bitmaps
    assert_same_matrix(copy_ours, copy_theirs, what="the copy taken before the write")
    assert_same_matrix(ours, theirs, what="the matrix written after the copy")


# What reads a Matrix held as a bitmap: each through its own path (the CSR made from the
# bitmap, SuiteSparse's import of it, its flags read at a mask's keys).
BITMAP_READS = ["to_coo", "mxv", "mxm", "masked_mxm_S", "masked_mxm_V", "masked_mxm_~S",
                "reduce_rows", "reduce_columns", "reduce_scalar", "transpose", "select",
                "apply", "ewise_mult", "ewise_add", "extract", "dup_cast", "write_under"]


def _bitmap_read(L, c, kind, other, q, x):
    """A reading of ``c`` python-graphblas and gblas2d both give: a Matrix, a Vector or a
    Scalar. ``other`` has c's shape, ``q`` is square of c's columns."""
    if kind.startswith("masked_mxm"):
        mask = {"S": c.S, "V": c.V, "~S": ~c.S}[kind.rsplit("_", 1)[1]]
        out = L.Matrix(other.dtype, c.nrows, c.ncols)
        out(mask) << other.mxm(q, L.semiring.plus_times)
        return out
    return {
        "to_coo": lambda: c,
        "mxv": lambda: c.mxv(x, L.semiring.plus_times).new(),
        "mxm": lambda: c.mxm(other.T, L.semiring.plus_times).new(),
        "reduce_rows": lambda: c.reduce_rowwise(L.monoid.max).new(),
        "reduce_columns": lambda: c.reduce_columnwise(L.monoid.min).new(),
        "reduce_scalar": lambda: c.reduce_scalar(L.monoid.max).new(),
        "transpose": lambda: c.T.new(),
        "select": lambda: c.select(L.select.valuegt, 0).new(),
        "apply": lambda: c.apply(L.unary.ainv).new(),
        "ewise_mult": lambda: c.ewise_mult(other, L.binary.times).new(),
        "ewise_add": lambda: c.ewise_add(other, L.binary.minus).new(),
        "extract": lambda: c[[0, c.nrows - 1], :].new(),
        "dup_cast": lambda: c.dup(dtype="INT64"),
        "write_under": lambda: _written_under(L, c, other),
    }[kind]()


def _written_under(L, c, other):
    out = other.dup()
    out(c.S, accum=L.binary.plus) << c
    return out


@EXAMPLES
@given(seed=st.integers(0, 2**32 - 1), nrows=st.integers(40, 60), ncols=st.integers(40, 60),
       dtype=st.sampled_from(["FP64", "INT64", "BOOL"]), iso=st.booleans(),
       writes=st.lists(st.tuples(st.sampled_from(["assign", "accumulate", "set_values"]),
                                 st.integers(0, 4), st.booleans()), min_size=3, max_size=5),
       reads=st.lists(st.sampled_from(BITMAP_READS), min_size=1, max_size=4),
       backend=st.sampled_from(["suitesparse", "numpy"]), built=st.booleans())
def test_a_written_dense_matrix_reads_as_python_graphblas_does(seed, nrows, ncols, dtype, iso,
                                                               writes, reads, backend, built):
    """A dense matrix written in a loop, each write merged (``wait``) but the last, which may
    be left pending: from its second merge it is a bitmap on every rank, one value for every
    entry or not. Every kind of reader, on either backend's kernels, gives python-graphblas's
    answer. Each write reaches every block of a grid of up to 3 x 3 (the corners and middles
    of the matrix) and ``k`` random places. ``built``: every dense block is a bitmap from its
    build (``Block.from_keys``), as a large one is, the operands read beside it too."""
    previous = bitmap_module.BITMAP_BUILT
    bitmap_module.BITMAP_BUILT = 0 if built else previous
    try:
        _written_dense_matrix(seed, nrows, ncols, dtype, iso, writes, reads, backend)
    finally:
        bitmap_module.BITMAP_BUILT = previous


def _written_dense_matrix(seed, nrows, ncols, dtype, iso, writes, reads, backend):
    rng = np.random.default_rng(seed)
    keys = rng.choice(nrows * ncols, size=max(1, nrows * ncols * 3 // 4), replace=False)
    one = True if dtype == "BOOL" else 2
    values = np.full(len(keys), one) if iso else rand_values(rng, len(keys), dtype)
    c = mat_pair(keys // ncols, keys % ncols, values, dtype, nrows, ncols)
    other = rand_mat(rng, nrows, ncols, "INT64", 0.6)
    q = rand_mat(rng, ncols, ncols, "INT64", 0.4)
    x = rand_vec(rng, ncols, "FP64", 0.7)
    ours, theirs = c.gb, c.G
    spread = [(i * (nrows - 1) // 2) * ncols + j * (ncols - 1) // 2 for i in range(3)
              for j in range(3)]
    for step, (kind, k, wait) in enumerate(writes):
        wait = wait or step < len(writes) - 1
        at = np.union1d(spread, rng.choice(nrows * ncols, size=k, replace=False))
        for L, M in ((gb, ours), (G, theirs)):
            T = L.Matrix.from_coo(at // ncols, at % ncols, one, dtype=dtype, nrows=nrows,
                                  ncols=ncols)
            if kind == "assign":
                M(T.S) << one
            elif kind == "accumulate":
                M(accum=L.binary.max) << T
            else:
                # values other than the one value: an iso matrix stops being one
                M(T.S) << (T.apply(L.binary.plus, right=1) if dtype != "BOOL" else
                           T.apply(L.unary.lnot))
            if wait:
                M.wait()
        assert ours.nvals == theirs.nvals, kind
    # every rank's block is dense (3/4 of its positions or more, and over 16 entries for
    # each one written, so the writes wait to be merged) and was merged twice
    assert agreed(ours.block.is_bitmap)
    for kind in reads:
        with backend_in_use(backend):
            got = _bitmap_read(gb, ours, kind, other.gb, q.gb, x.gb)
        want = _bitmap_read(G, theirs, kind, other.G, q.G, x.G)
        what = f"{kind} after {writes}"
        if isinstance(want, G.Matrix):
            assert_same_matrix(got, want, what=what)
        elif isinstance(want, G.Vector):
            assert_same_vector(got, want, what=what)
        else:
            assert got.value == want.value, what
    assert_same_matrix(ours, theirs, what=str(writes))
