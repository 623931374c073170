"""Communication volume of y = A x per rank is O(n / sqrt(P)), and exactly what the message
format predicts; a masked product makes exactly the calls the design allows.

One dense mxv (x full, plus_times) on a random n-vertex graph moves, per rank (grid (i, j)):

* expand: the piece this rank holds at its grid-column position arrives by one sendrecv
  (``transpose``; none when the piece is already home), then the other R - 1 pieces of column
  block j arrive by allgather (``col``);
* fold: from each of the other C - 1 ranks of grid row i, one message with its partial results
  for this rank's own piece (``row``);
* world steps, eight int64 lanes each: the agreed nvals of the output, which also ends the
  call, and the push/pull decision. The decision needs no step when ``direction=`` forces it,
  when x is full and there is no mask (every edge either way, a pull), or when x's last write
  agreed the degree sums of its entries in A (``products.EdgeSums``). The fixture's matrix
  has its degrees summed before any test vector is written, so only the last holds here, and
  ``test_a_masked_product_makes_exactly_the_calls_of_its_collectives`` counts both cases.

A piece of length L with ``count`` entries travels as the smaller of dense (16-byte header +
bitmap padded to 8 bytes + values padded to 8 bytes) and sparse (16-byte header + int32 indices
padded to 8 bytes + values). The expected bytes are computed here from the graph and the
ownership functions alone, so the test does not read the engine's choice back. The headers
that open each group call (failure flags and counts) are not counted: they are the calls'
own metadata.
"""

import numpy as np
import pytest
from _helpers import agreed

import gblas2d as gb
from gblas2d import semiring

N = 3000
AVG_DEGREE = 8
ITEM = 8  # float64
STEP = 64  # a world step: eight int64 lanes
GROUPS = ("world", "transpose", "col", "row")


def grid():
    return gb.default_grid()


def pad8(nbytes):
    return (nbytes + 7) // 8 * 8


def dense_bytes(length, item=ITEM):
    return 16 + pad8((length + 7) // 8) + pad8(length * item)


def sparse_bytes(count, item=ITEM):
    return 16 + pad8(count * 4) + count * item


def message(count, length, force=None):
    if force == "dense":
        return dense_bytes(length)
    if force == "sparse":
        return sparse_bytes(count)
    return min(dense_bytes(length), sparse_bytes(count))


@pytest.fixture(scope="module")
def graph():
    """A random directed graph, the same on every rank; and its scipy CSR (global)."""
    from scipy.sparse import csr_array

    rng = np.random.default_rng(2024)
    m = AVG_DEGREE * N
    keys = np.unique(rng.integers(0, N, m) * N + rng.integers(0, N, m))
    r, c = keys // N, keys % N
    vals = rng.random(len(keys)) + 0.5
    A = gb.Matrix.from_coo(r, c, vals, nrows=N, ncols=N)
    csr = csr_array((vals, (r, c)), shape=(N, N))
    # A masked product whose operands have no degree sums in A counts its work in a world
    # step (both of A's degrees); the vectors written from now on sum them.
    q = gb.Vector.from_coo([0], True, size=N)
    gb.Vector(bool, N)(~q.S, replace=True) << q.vxm(A, semiring.any_pair)
    return A, csr


def expected_mxv_bytes(csr, x_present, force=None):
    """Bytes this rank receives, per group, for ``A.mxv(x)`` with x's structure ``x_present``."""
    g = grid()
    R, C = g.shape
    i, j = g.myrow, g.mycol
    off = g.offsets(N)

    def piece_len(k):
        return int(off[k + 1] - off[k])

    def piece_count(k):
        return int(x_present[off[k]:off[k + 1]].sum())

    out = {"world": 0, "transpose": 0, "col": 0, "row": 0}
    # Expand, step 1: this rank (t, j) receives piece j*R + t unless that is its own.
    src = j * R + i
    if src != g.rank:
        out["transpose"] += message(piece_count(src), piece_len(src), force)
    # Expand, step 2: the other pieces of column block j, from the col group.
    for t in range(R):
        if t != i:
            k = j * R + t
            out["col"] += message(piece_count(k), piece_len(k), force)
    # Fold: member (i, j2) sends the rows of my piece it has partial results for: rows with an
    # edge into column block j2 at a present x entry.
    lo, hi = g.piece(N)
    rows = csr[lo:hi]
    for j2 in range(C):
        if j2 == j:
            continue
        clo, chi = g.col_block(N, j2)
        count = int(np.count_nonzero(rows[:, clo:chi].astype(bool).astype(np.int64)
                                     @ x_present[clo:chi].astype(np.int64)))
        out["row"] += message(count, hi - lo, force)
    # The commit of the new nvals: a world step. The direction needs none: x's write agreed
    # its degree sums in A (the fixture), and a full x pulls every edge.
    out["world"] += STEP * (g.nprocs - 1)
    return out


def measured(rec):
    """Bytes received per group, without the steps that only end a call (``agree``)."""
    return {grp: rec.bytes(grp) - guard_bytes(rec, grp) for grp in GROUPS}


def guard_bytes(rec, group=None):
    return sum(v[2] for (op, g), v in rec.totals.items() if op == "agree" and group in (None, g))


def run_mxv(A, x, **opts):
    """One product, recorded after a first one: the degrees behind the direction, counted
    once per matrix (one fold of each axis), are not the product's traffic."""
    w = gb.Vector(np.float64, N)
    w(**opts) << A.mxv(x, semiring.plus_times)
    with gb.recording() as rec, gb.trace() as events:
        w(**opts) << A.mxv(x, semiring.plus_times)
    return w, rec, events


def test_dense_mxv_bytes_are_exactly_what_the_format_predicts(graph):
    A, csr = graph
    x = gb.Vector.from_dense(np.arange(N, dtype=np.float64) % 7 + 1)
    y, rec, events = run_mxv(A, x)
    want = expected_mxv_bytes(csr, np.ones(N, dtype=bool))
    got = measured(rec)
    assert agreed(got == want), (got, want)
    # The result is right, and the trace saw the same expand/fold bytes.
    np.testing.assert_allclose(y.to_dense(fill_value=0), csr @ (np.arange(N) % 7 + 1))
    assert len(events) == 1
    assert events[0]["expand"] == (["local"] if grid().nrows == 1 else ["dense"])
    assert agreed(events[0]["bytes"]["col"] == got["col"] and
                  events[0]["bytes"]["row"] == got["row"])


def test_dense_mxv_volume_is_order_n_over_sqrt_p(graph):
    A, _ = graph
    g = grid()
    R, C = g.shape
    x = gb.Vector.from_dense(np.ones(N))
    _, rec, _ = run_mxv(A, x)
    got = measured(rec)
    # 2D: about n/P values from each of (R - 1) + (C - 1) peers, i.e. n (1/R + 1/C) at most.
    grid_part = got["row"] + got["col"]
    bound = 1.1 * N * ITEM * ((R - 1) + (C - 1)) / g.nprocs + 64 * (R + C)
    ok = grid_part <= bound
    # The permutation to grid-column positions is one piece at most; the world moves steps.
    ok = ok and got["transpose"] <= 1.1 * N * ITEM / g.nprocs + 64
    ok = ok and got["world"] == STEP * (g.nprocs - 1)  # the commit
    # Every group that has peers moves something; a group without peers moves nothing.
    ok = ok and (got["col"] > 0) == (R > 1) and (got["row"] > 0) == (C > 1)
    total = rec.bytes() - guard_bytes(rec)
    ok = ok and total == sum(got.values()) and (total > 0) == (g.nprocs > 1)
    # Far below the 1D cost of replicating x (n values) when P > 1.
    ok = ok and (g.nprocs == 1 or total < N * ITEM)
    assert agreed(ok), (got, bound, g.shape)


def test_one_rank_moves_no_bytes(graph):
    from mpi4py import MPI

    _, csr = graph
    solo = gb.Grid(comm=MPI.COMM_SELF, shape=(1, 1))
    assert solo.shape == (1, 1)
    coo = csr.tocoo()
    A = gb.Matrix.from_coo(coo.row, coo.col, coo.data, nrows=N, ncols=N, grid=solo)
    x = gb.Vector.from_dense(np.ones(N), grid=solo)
    with gb.recording() as rec:
        y = A.mxv(x, semiring.plus_times).new()
        y.to_coo()
    assert rec.bytes() == 0 and rec.bytes(direction="sent") == 0
    np.testing.assert_allclose(y.to_dense(fill_value=0), csr @ np.ones(N))


@pytest.mark.parametrize("nvals", [1, 10])
def test_sparse_frontier_sends_far_fewer_bytes(graph, nvals):
    A, csr = graph
    g = grid()
    rng = np.random.default_rng(nvals)
    idx = np.sort(rng.choice(N, nvals, replace=False))
    present = np.zeros(N, dtype=bool)
    present[idx] = True
    x = gb.Vector.from_coo(idx, 1.0, size=N)
    dense_x = gb.Vector.from_dense(np.ones(N))
    _, dense_rec, _ = run_mxv(A, dense_x)
    y, sparse_rec, events = run_mxv(A, x)
    want = expected_mxv_bytes(csr, present)
    got = measured(sparse_rec)
    ok = got == want
    # Sparse messages were chosen automatically, and they are much smaller.
    assert events[0]["expand"] == (["local"] if g.nrows == 1 else ["sparse"])
    grid_sparse = got["row"] + got["col"]
    grid_dense = dense_rec.bytes("row") + dense_rec.bytes("col")
    ok = ok and (grid_sparse * 10 < grid_dense or g.nprocs == 1)
    assert agreed(ok), (got, want, grid_dense)
    xd = np.zeros(N)
    xd[idx] = 1.0
    ref = csr @ xd
    hit = (csr.astype(bool).astype(np.int64) @ present.astype(np.int64)) > 0
    yi, yv = y.to_coo()
    np.testing.assert_array_equal(yi, np.flatnonzero(hit).astype(np.uint64))
    np.testing.assert_allclose(yv, ref[hit])


@pytest.mark.parametrize("direction", [None, "push", "pull"])
def test_exchange_dense_forces_the_dense_size(graph, direction):
    A, csr = graph
    idx = np.arange(0, N, 97)
    present = np.zeros(N, dtype=bool)
    present[idx] = True
    x = gb.Vector.from_coo(idx, 2.0, size=N)
    opts = {"exchange": "dense"}
    if direction is not None:
        opts["direction"] = direction
    y, rec, events = run_mxv(A, x, **opts)
    want = expected_mxv_bytes(csr, present, force="dense")
    got = measured(rec)
    # A forced dense message does not depend on what it carries: the same bytes as a full x.
    full = expected_mxv_bytes(csr, np.ones(N, dtype=bool), force="dense")
    ok = got == want and got["col"] == full["col"] and got["row"] == full["row"]
    assert agreed(ok), (got, want)
    assert events[0]["expand"] == (["local"] if grid().nrows == 1 else ["dense"])
    if direction is not None:
        assert events[0]["direction"] == direction
    auto_y, auto_rec, auto_events = run_mxv(A, x)
    assert auto_y.isequal(y)
    assert agreed(auto_rec.bytes("col") <= got["col"] and auto_rec.bytes("row") <= got["row"])


def test_exchange_sparse_forces_the_sparse_size(graph):
    A, csr = graph
    x = gb.Vector.from_dense(np.ones(N))
    y, rec, _ = run_mxv(A, x, exchange="sparse")
    want = expected_mxv_bytes(csr, np.ones(N, dtype=bool), force="sparse")
    got = measured(rec)
    assert agreed(got == want), (got, want)
    np.testing.assert_allclose(y.to_dense(fill_value=0), csr @ np.ones(N))


def expected_calls(orient, direction, counted):
    """The calls of one masked product on this rank, per (operation, group), from the grid
    alone: the world steps (the direction's when ``counted``), the expand of x, the mask's
    bitmap for a pull, and the fold."""
    g = grid()
    if g.nprocs == 1:
        return {}
    R, C = g.shape
    calls = {}

    def add(op, group):
        calls[op, group] = calls.get((op, group), 0) + 1

    def gather(axis):
        if (R if axis == "col" else C) > 1:
            if axis == "col" and g.transpose_comm.size > 1:
                add("sendrecv", "transpose")
            add("allgatherv", axis)

    in_axis, out_axis = ("col", "row") if orient == "mxv" else ("row", "col")
    if counted:
        add("allreduce", "world")  # the direction
    gather(in_axis)
    if direction == "pull":
        gather(out_axis)  # the mask's bitmap over the output segment
    if (R if out_axis == "col" else C) > 1:
        add("alltoallv", out_axis)
        if out_axis == "col" and g.transpose_comm.size > 1:
            add("sendrecv", "transpose")  # the folded piece goes home
    add("allreduce", "world")  # the new nvals, which also ends the call
    return calls


@pytest.mark.parametrize("orient", ["vxm", "mxv"])
@pytest.mark.parametrize("direction", [None, "push", "pull"])
@pytest.mark.parametrize("summed", [False, True])
def test_a_masked_product_makes_exactly_the_calls_of_its_collectives(graph, orient, direction,
                                                                     summed):
    """BFS's step ``w(~visited.S, replace=True) << q.vxm(A, any_pair)``: no call but those that
    move the operands, the direction and the agreed nvals; failures ride in the calls' own
    headers (``test_agreed_boundaries``). Operands written before A's degrees were summed
    (``summed`` False: a new matrix) make the direction a world step of its own; operands
    written since (a traversal's frontier and visited set from its second level on) carry
    their degree sums, and the product makes one world step, its nvals: at 2x2 at most 4
    calls pushing, 6 pulling (5 for a symmetric matrix: ``test_a_bfs_level_...``)."""
    coo = graph[1].tocoo()
    A = gb.Matrix.from_coo(coo.row, coo.col, coo.data, nrows=N, ncols=N)  # no degrees yet
    visited = gb.Vector.from_coo(np.arange(0, N, 3), True, size=N)
    q = gb.Vector.from_coo(np.arange(0, N, 29), True, size=N)
    w = gb.Vector(bool, N)
    opts = {} if direction is None else {"direction": direction}

    def product():
        return q.vxm(A, semiring.any_pair) if orient == "vxm" else A.mxv(q, semiring.any_pair)

    w(~visited.S, replace=True, **opts) << product()  # warm: degrees cached, blocks by column
    if summed:
        q, visited = q.dup(), visited.dup()
    with gb.recording() as rec, gb.trace() as events:
        w(~visited.S, replace=True, **opts) << product()
    got = {key: v[0] for key, v in rec.totals.items()}
    chosen = events[0]["direction"]
    counted = direction is None and not summed
    want = expected_calls(orient, chosen, counted)
    # At one rank no sums are kept: the work is counted locally, with no step.
    ok = got == want and events[0]["counted"] == (direction is None and
                                                  (not summed or grid().nprocs == 1))
    if grid().shape == (2, 2):
        world = sum(v for (_, group), v in got.items() if group == "world")
        ok = ok and world == (2 if counted else 1)
        # A pull of a matrix not known symmetric moves the mask to its grid column first.
        ok = ok and (counted or sum(got.values()) <= (4 if chosen == "push" else 6))
    assert agreed(ok), (got, want, chosen)


def test_a_bfs_level_makes_one_world_step_and_at_most_five_calls(graph):
    """A BFS on a symmetric graph from its second level on: each masked product makes one
    world collective, its nvals (which also carries the degree sums the next level chooses
    its direction from), and at most 5 MPI calls in all on a square grid; the write of the
    levels makes one.
    The levels equal scipy's."""
    from scipy.sparse.csgraph import breadth_first_order, shortest_path

    sym = (graph[1] + graph[1].T).tocoo()
    A = gb.Matrix.from_coo(sym.row, sym.col, True, nrows=N, ncols=N)
    A.mark_symmetric()
    v = gb.Vector(np.int64, N)
    v[0] = 0
    q = gb.Vector(bool, N)
    q[0] = True
    products, directions, ok = [], set(), True
    for level in range(1, N):
        with gb.recording() as rec, gb.trace() as events:
            q(~v.S, replace=True) << q.vxm(A, semiring.any_pair)
        products.append({key: row[0] for key, row in rec.totals.items()})
        directions.add(events[0]["direction"])
        if q.nvals == 0:
            break
        with gb.recording() as rec:
            v(q.S) << level
        ok = ok and {key: row[0] for key, row in rec.totals.items()} == \
            ({("allreduce", "world"): 1} if grid().nprocs > 1 else {})
    order = breadth_first_order(sym.tocsr(), 0, return_predecessors=False)
    hops = shortest_path(sym.tocsr(), unweighted=True, indices=0)[order].astype(np.int64)
    idx, got = v.to_coo()
    ok = ok and np.array_equal(np.sort(idx), np.sort(order)) and \
        np.array_equal(got[np.argsort(idx)], hops[np.argsort(order)])
    if grid().nprocs > 1:
        # a symmetric matrix is read by rows on a square grid, so a pull moves no mask to its
        # grid column; on another grid it does, one call more
        most = 5 if grid().nrows == grid().ncols else 6
        for calls in products[1:]:
            world = sum(c for (_, group), c in calls.items() if group == "world")
            ok = ok and world == 1 and sum(calls.values()) <= most
    assert agreed(ok), (products, directions)
    assert directions == {"push", "pull"} and len(products) > 2


def test_every_write_agrees_the_degree_sums_of_its_entries(graph):
    """The degree sums a write adds to its nvals step (``products.EdgeSums``) are exact after
    writes of every kind: a whole new piece, a bitmap patched by a masked assign (its clear
    and set positions equal), patched with an accumulator, and a masked write whose mask
    clears more than it sets. Each is checked against the degrees counted from scipy; at one
    rank no sums are kept."""
    A, csr = graph
    coo = csr.tocoo()
    M = gb.Matrix.from_coo(coo.row, coo.col, coo.data, nrows=N, ncols=N)
    out_degree = np.diff(csr.indptr)
    in_degree = np.bincount(coo.col, minlength=N)
    q = gb.Vector.from_coo([0], True, size=N)
    gb.Vector(bool, N)(~q.S, replace=True) << q.vxm(M, semiring.any_pair)  # counted: summed
    rng = np.random.default_rng(5)
    v = gb.Vector.from_coo(np.arange(0, N, 2), 1, size=N)
    steps = []

    def check(label):
        idx = v.to_coo()[0].astype(np.int64)
        want = sorted([int(out_degree[idx].sum()), int(in_degree[idx].sum())])
        edges = v.dist.edges
        got = None if edges is None else sorted(edges.total.values())
        steps.append((label, got, want))
        return got == (want if grid().nprocs > 1 else None)

    ok = check("a new piece")
    for k in range(4):
        chosen = np.unique(rng.integers(0, N, 400))
        m = gb.Vector.from_coo(chosen, True, size=N)
        v(m.S) << 7                                    # clear and set the same positions
        ok = ok and check(f"masked assign {k}")
        t = gb.Vector.from_coo(chosen[::3], 1, size=N)
        v(accum=gb.binary.plus) << t                   # a patch that only sets
        ok = ok and check(f"accumulate {k}")
        v(m.S) << t                                    # clears m's positions, sets t's
        ok = ok and check(f"masked write {k}")
    assert agreed(ok), steps


@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.uint64, np.float32, bool])
def test_a_reduce_to_a_scalar_is_one_gather_and_its_opening(dtype):
    """``v.reduce(monoid).new()`` and ``A.reduce_scalar``: every rank's fold travels in one
    world allgather, which ends the call (the folds are the same on every rank), after the step
    that opens it; at one rank, none. The values are exact in every type (the largest uint64
    too, which a float would round), and a rank with no entries sends none."""
    rng = np.random.default_rng(7)
    n = 200
    if dtype is bool:
        values = rng.random(n) < 0.5
    elif dtype is np.uint64:
        values = np.full(n, np.iinfo(np.uint64).max, dtype=np.uint64)
    else:
        # whole numbers, whose sum is the same in any order of folding
        values = rng.integers(0, 1000, n).astype(dtype)
    idx = np.arange(n)  # only the first piece's rank has entries at more than one rank
    v = gb.Vector.from_coo(idx, values, size=100 * n)
    A = gb.Matrix.from_coo(idx, idx, values, nrows=n, ncols=n)
    mon = gb.monoid.max if dtype is np.uint64 else gb.monoid.lor if dtype is bool else \
        gb.monoid.plus
    with gb.recording() as rec:
        s = v.reduce(mon).new()
        t = A.reduce_scalar(mon).new()
    got = {key: row[0] for key, row in rec.totals.items()}
    want = {} if grid().nprocs == 1 else {("agree", "world"): 2, ("allgather_obj", "world"): 2}
    exact = values.max() if dtype is np.uint64 else values.any() if dtype is bool else \
        np.add.reduce(values, dtype=s.dtype.np_type)
    ok = got == want and s.value == exact and t.value == exact and type(s.value) is \
        type(t.value)
    assert agreed(ok), (got, want, s.value, t.value, exact)


def test_isequal_is_one_world_step_that_ends_the_call():
    """``x.isequal(y)`` (FastSV's test of every round): each rank compares its pieces, and one
    world step sums the ranks that differ, which also ends the call; at one rank, none. A
    difference on one rank's piece alone makes every rank answer False."""
    n = 1000
    x = gb.Vector.from_coo(np.arange(0, n, 3), 1.0, size=n)
    y = x.dup()
    z = x.dup()
    z[n - 1] = 2.0  # a value in the last rank's piece only: the same nvals, another value
    with gb.recording() as rec:
        same, other = x.isequal(y), x.isequal(z)
    got = {key: row[0] for key, row in rec.totals.items()}
    want = {} if grid().nprocs == 1 else {("allreduce", "world"): 2}
    ok = got == want and same is True and other is False and x.nvals == z.nvals
    assert agreed(ok), (got, want, same, other)


def test_reading_one_element_is_its_owners_broadcast_and_its_opening():
    """``v[i].value``, ``v.get(i)``, ``A.get(i, j)`` and ``i in v``: the owner's value is
    broadcast after the step that opens the call, and the broadcast ends it, since every rank
    then holds the same value; at one rank, none. The values read are the owners', a missing
    element None (or the default)."""
    n = 1000
    v = gb.Vector.from_coo(np.arange(0, n, 3), np.arange(0, n, 3) * 0.5, size=n)
    A = gb.Matrix.from_coo([1, 8], [3, 9], [1.5, 2.5], nrows=10, ncols=10)
    with gb.recording() as rec:
        read = [v[n - 1].value, v.get(n - 2, -1.0), A.get(8, 9), A.get(0, 0), (n - 1) in v]
    got = {key: row[0] for key, row in rec.totals.items()}
    want = {} if grid().nprocs == 1 else {("agree", "world"): 5, ("bcast_obj", "world"): 5}
    ok = got == want and read == [(n - 1) * 0.5, -1.0, 2.5, None, True]
    assert agreed(ok), (got, want, read)
