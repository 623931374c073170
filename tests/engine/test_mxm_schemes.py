"""mxm's three distributed schemes (``MatMat`` in ``distributed/products.py``): which one runs, that
both give python-graphblas's answer under every kind of mask, and what SUMMA moves.

SUMMA, at stage q (one per piece of the inner dimension), broadcasts the columns of A in piece q
from the grid column that holds them along every grid row, and the rows of B in piece q from the
grid row that holds them along every grid column. A rank thus receives, per stage it does not
own, a CSR of its row block's entries in those columns (row pointers, columns and values, each
padded to 8 bytes), and the same of B over its column block. The expected bytes below come from
the operands and the ownership functions alone.
"""

import graphblas as G
import numpy as np
import pytest
from _helpers import agreed

import gblas2d as gb
from gblas2d import semiring
from gblas2d.exceptions import NotImplementedException

N = 400


def pad8(nbytes):
    return (nbytes + 7) // 8 * 8


@pytest.fixture(scope="module")
def graph():
    """A random undirected graph (its pattern, INT64), the same on every rank, as (rows, cols)."""
    rng = np.random.default_rng(7)
    keys = np.unique(rng.integers(0, N, 6 * N) * N + rng.integers(0, N, 6 * N))
    r, c = keys // N, keys % N
    keep = r != c
    r, c = np.concatenate([r[keep], c[keep]]), np.concatenate([c[keep], r[keep]])
    keys = np.unique(r * N + c)
    return keys // N, keys % N


def both(graph):
    r, c = graph
    return (gb.Matrix.from_coo(r, c, 1, dtype=gb.dtypes.INT64, nrows=N, ncols=N),
            G.Matrix.from_coo(r, c, 1, dtype="INT64", nrows=N, ncols=N))


def same(got, want):
    r, c, v = got.to_coo()
    wr, wc, wv = want.to_coo()
    return got.nvals == want.nvals and np.array_equal(r, wr) and np.array_equal(c, wc) and \
        np.array_equal(v, wv)


def product(A, B, sr, mask=None, **opts):
    C = type(A)(A.dtype, A.nrows, B.ncols)
    C(mask=mask, **opts) << A.mxm(B, sr)
    return C


@pytest.mark.parametrize("scheme", ["gather", "summa", "gather_left"])
@pytest.mark.parametrize("direction", [None, "push", "pull"])
@pytest.mark.parametrize("kind", ["none", "S", "~S", "V", "~V"])
def test_both_schemes_give_python_graphblas_answer(graph, scheme, direction, kind):
    """C<M> = L (+.pair) U over a triangle-counting mask, and a lopsided value mask."""
    A, Ag = both(graph)
    L, U = A.select("tril", -1).new(), A.select("triu", 1).new()
    Lg, Ug = Ag.select("tril", -1).new(), Ag.select("triu", 1).new()
    rng = np.random.default_rng(3)
    mr, mc = rng.integers(0, N, 2000), rng.integers(0, N, 2000)
    mv = rng.integers(0, 2, 2000)
    M = gb.Matrix.from_coo(mr, mc, mv, nrows=N, ncols=N, dup_op=gb.binary.max)
    Mg = G.Matrix.from_coo(mr, mc, mv, nrows=N, ncols=N, dup_op=G.binary.max)

    def mask_of(m):
        return None if kind == "none" else {"S": m.S, "~S": ~m.S, "V": m.V, "~V": ~m.V}[kind]

    got = product(L, U, semiring.plus_pair[gb.dtypes.INT64], mask_of(M), scheme=scheme,
                  direction=direction)
    want = product(Lg, Ug, G.semiring.plus_pair["INT64"], mask_of(Mg))
    assert agreed(same(got, want))


def test_the_engine_picks_summa_for_square_operands_and_gather_for_a_batch(graph):
    A, _ = both(graph)
    F = gb.Matrix.from_coo([0, 5, 9], [0, 1, 2], 1, dtype=gb.dtypes.INT64, nrows=N, ncols=3)
    with gb.trace() as events:
        product(A, A, semiring.plus_times)
        product(A, F, semiring.plus_times)
        product(A, F, semiring.min_secondi)
    schemes = [e["scheme"] for e in events if e["op"] == "mxm"]
    expected = ["gather"] * 3 if A.grid.nprocs == 1 else ["summa", "gather", "gather"]
    assert agreed(schemes == expected), schemes


def test_a_batch_of_frontiers_times_the_graph_leaves_the_graph_in_place(graph):
    """F A, F a few frontiers of few entries: A's blocks never move (gather_left), where the
    gather would bring A's rows to every rank of a grid column at every level; the answer is
    python-graphblas's, with and without a mask."""
    A, Ag = both(graph)
    rng = np.random.default_rng(11)
    keys = np.unique(rng.integers(0, 4 * N, 12))
    fr, fc = keys // N, keys % N
    F, Fg = (L.Matrix.from_coo(fr, fc, 1, dtype="INT64", nrows=4, ncols=N) for L in (gb, G))
    V, Vg = (L.Matrix.from_coo(fr, fc, 1, dtype="INT64", nrows=4, ncols=N) for L in (gb, G))
    with gb.trace() as events, gb.recording() as rec:
        got = product(F, A, semiring.any_pair[gb.dtypes.INT64], ~V.S, replace=True)
    want = product(Fg, Ag, G.semiring.any_pair["INT64"], ~Vg.S, replace=True)
    assert agreed(same(got, want))
    schemes = [e["scheme"] for e in events if e["op"] == "mxm"]
    expected = ["gather"] if A.grid.nprocs == 1 else ["gather_left"]
    assert agreed(schemes == expected), schemes
    # what a rank receives is of F's size and the products', never of A's
    assert agreed(sum(rec.bytes(grp) for grp in ("row", "col", "world")) < 24 * A.nvals // 4)
    got = product(F, A, semiring.plus_times[gb.dtypes.INT64], scheme="gather_left")
    assert agreed(same(got, product(Fg, Ag, G.semiring.plus_times["INT64"])))


def test_summa_refuses_a_positional_semiring_on_every_rank(graph):
    A, _ = both(graph)
    with pytest.raises(NotImplementedException, match="positional"):
        product(A, A, semiring.min_secondi, scheme="summa")
    assert agreed(True)


def test_summa_moves_exactly_its_stage_pieces(graph):
    """Bytes received along grid rows (pieces of A) and grid columns (pieces of B), and no
    fold: the product lands on its owner."""
    A, _ = both(graph)
    g = A.grid
    r, c = graph
    off = g.offsets(N)
    row_lo, row_hi = g.row_block(N)
    col_lo, col_hi = g.col_block(N)
    want = {"row": 0, "col": 0}
    for q in range(g.nprocs):
        lo, hi = int(off[q]), int(off[q + 1])
        if q // g.nrows != g.mycol:
            e = np.count_nonzero((r >= row_lo) & (r < row_hi) & (c >= lo) & (c < hi))
            want["row"] += pad8((row_hi - row_lo + 1) * 8) + 2 * pad8(e * 8)
        if q // g.ncols != g.myrow:
            e = np.count_nonzero((r >= lo) & (r < hi) & (c >= col_lo) & (c < col_hi))
            want["col"] += pad8((hi - lo + 1) * 8) + 2 * pad8(e * 8)
    with gb.recording() as rec:
        C = product(A, A, semiring.plus_times, scheme="summa")
    got = {grp: rec.bytes(grp) for grp in ("row", "col")}
    folds = [op for (op, grp), v in rec.totals.items() if op in ("alltoallv", "allgatherv")]
    assert agreed(got == want and not folds), (got, want, folds)
    Ag = both(graph)[1]
    assert agreed(same(C, product(Ag, Ag, G.semiring.plus_times)))


def test_pull_puts_the_mask_into_the_product(graph):
    """A sparse mask on a grid of several columns: the pull gathers the mask's row panel and
    folds only products inside it, so the fold carries fewer bytes than the push's."""
    A, Ag = both(graph)
    g = A.grid
    keep = graph[0] < 8
    M = gb.Matrix.from_coo(graph[0][keep], graph[1][keep], True, nrows=N, ncols=N)
    rows = {}
    for direction in ("push", "pull"):
        with gb.recording() as rec, gb.trace() as events:
            C = product(A, A, semiring.plus_times, M.S, scheme="gather", direction=direction)
        rows[direction] = rec.bytes("row")
        assert agreed(events[-1]["mask_in_product"] == (direction == "pull" or g.ncols == 1))
        Mg = G.Matrix.from_coo(graph[0][keep], graph[1][keep], True, nrows=N, ncols=N)
        assert agreed(same(C, product(Ag, Ag, G.semiring.plus_times, Mg.S)))
    if g.ncols > 1:
        assert agreed(rows["pull"] < rows["push"]), rows


@pytest.mark.parametrize("kind", ["S", "~S"])
@pytest.mark.parametrize("dense", [False, True])
def test_a_structural_mask_held_nowhere_yet_masks_as_its_entries(graph, kind, dense):
    """A structural mask of values other than one (0, 1 and 2 here: its values must not
    matter) whose block no library holds a copy of yet: SuiteSparse is given its pattern
    alone (a list, or a bitmap's flags when ``dense``), and the product is python-graphblas's
    under it."""
    rows, cols = graph
    rng = np.random.default_rng(11)
    density = 0.7 if dense else 0.05
    keys = np.flatnonzero(rng.random(N * N) < density)
    mvals = rng.integers(0, 3, len(keys)).astype(np.float64)

    def run(L):
        A = L.Matrix.from_coo(rows, cols, 1.0, nrows=N, ncols=N)
        M = L.Matrix.from_coo(keys // N, keys % N, mvals, nrows=N, ncols=N)
        if L is gb:
            M.block.derived.clear()  # as a mask just built or just written
        C = L.Matrix(float, N, N)
        C(~M.S if kind == "~S" else M.S) << A.mxm(A, L.semiring.plus_times)
        return C.to_coo()

    ours, theirs = run(gb), run(G)
    assert agreed(all(np.array_equal(a, b) for a, b in zip(ours[:2], theirs[:2], strict=True))
                  and np.allclose(ours[2], theirs[2]))
