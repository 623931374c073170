"""Every operation gblas2d supports, each on a Vector and on a Matrix, timed beside
python-graphblas (SuiteSparse) in one run, one thread each, the calls interleaved.

Run unchanged on one process or under ``mpiexec -n P`` (``GBLAS2D_GRID=RxC`` picks the grid)::

    python benchmarks/bench_ops.py                                 # -> results/ops_1x1.json
    GBLAS2D_GRID=1x2 mpiexec -n 2 python benchmarks/bench_ops.py \\
        --baseline benchmarks/results/ops_1x1.json                 # -> results/ops_1x2.json
    python benchmarks/bench_ops.py --quick                         # small sizes, 2 repeats
    python benchmarks/bench_ops.py --only 'm_assign*' 'v_dup*'     # a subset (--list: names)

gblas2d runs one SuiteSparse thread a rank (``GBLAS2D_THREADS=1``, set before it is imported)
and python-graphblas one thread (``graphblas.ss.config["nthreads"] = 1``) on rank 0 while the
other ranks sleep. Each row's code (the ``code`` column of ``ROWS``, shown in the table as it
runs) is the same text run on both engines' operands. The calls alternate: a gblas2d call
(after a barrier, timed as the slowest rank), then python-graphblas's, ``--repeat`` times after
one warm-up each; the figure is the best call in microseconds, and the ratio is gblas2d's best
over python-graphblas's. Every row's last results are compared (``to_coo``: the same indices,
values within 1e-9 relative; a scalar's value); a difference is printed as MISMATCH, listed at
the end, and the script exits with status 1.

Operands, at ``--scale S`` (default 20: a large object has 2^S ~ 1M entries) and ``--small k``
(default 64):

* Vectors of size 2^(S+1): ``v`` (BOOL, 2^S entries, all True: a visited set) and ``f`` (k
  entries outside v: a frontier); ``x``, ``y`` (FP64, 2^S random entries, a tenth of y's
  values 0, so ``y.V`` differs from ``y.S``); ``q`` (k FP64 entries, a quarter of them 0).
* Matrices: ``V`` (BOOL k x 2^(S+1)/k, 2^S entries all True: 64 x 32,768 at the defaults) and
  ``F`` (k entries outside V); ``A``, ``B`` (FP64 n x n, n = 2^(S-4), 2^S random entries) and
  ``Q`` (k entries of A's shape), their values as x's, y's and q's.
* Meshes (``gblas2d.generators.grid_graph``): ``--mesh`` (200) on a side for the issue's small
  products: one-entry frontier and visited set, and a k-source frontier ``F`` and visited set
  ``V`` after ``--levels`` (10) BFS levels; and 2^((S-2)/2) (512) on a side (~1M entries) for
  the large mxm.

Shapes: *k into m*, a small operand written into (or combined with) a large object; *m and m*,
two large ones; *m* or *k*, one operand; *one value*, the all-True V and v.

A write changes the object it writes into. Each such row is timed on a fresh copy made before
the call, outside the timing (*fresh*), and, for a small operand written into a large object,
also as a user's loop meets it: the same object written every call (*same*). Every write, and
every element-wise result of a small operand and a large one, is timed again with ``wait()``
inside the timing (*+wait*): gblas2d leaves a write of a few entries into a large Matrix
pending until the block is next read (``wait()`` merges it; a Vector has nothing to wait for),
as SuiteSparse leaves pending tuples and zombies in either.

Rank 0 prints a table (operation, shape, how, gblas2d µs, python-graphblas µs, ratio, and with
``--baseline`` a one-process run's gblas2d µs and this run's ratio to it) and writes JSON to
``--output`` (default ``benchmarks/results/ops_<grid>.json``; ``_scale<S>`` is added away from
the default scale; ``--quick`` writes to ``benchmarks/runs/``, which git ignores).
"""

import argparse
import fnmatch
import json
import os
import platform
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

os.environ["GBLAS2D_THREADS"] = "1"  # before gblas2d is imported: its threads are read there

import graphblas as grb  # noqa: E402
import numpy as np  # noqa: E402
from _common import idle_wait, peak_rss_mib, slowest, write_json  # noqa: E402

import gblas2d as gb  # noqa: E402

HERE = Path(__file__).resolve().parent
DEFAULT_SCALE = 20
SMALL, LARGE, ONE_SMALL, ONE_LARGE, ONE_VALUE = "small", "large", "k", "m", "one value"
MESH, SOURCES, MESH_LARGE, MXV = "mesh", "sources", "mesh large", "mxv"
VEC, MAT = "Vector", "Matrix"


@dataclass(frozen=True)
class Row:
    """One operation: ``code`` runs on either engine's operands (``bind`` renames operands for
    it); ``writes`` names the object it writes into (a statement) or is None (an expression,
    whose value is the result). ``loop``: also timed writing into the same object every call;
    ``wait``: also timed with the result's ``wait()``. ``shown`` replaces the code in the table
    (the issue's own words)."""

    name: str
    kind: str
    shape: str
    code: str
    writes: str | None = None
    loop: bool = False
    wait: bool = False
    bind: dict = field(default_factory=dict)
    shown: str | None = None

    def variants(self):
        starts = ("fresh", "same") if self.loop else ("fresh",) if self.writes else ("call",)
        return [start + end for start in starts for end in (("", "+wait") if self.wait else ("",))]


def write(name, kind, shape, code, *, small=False, wait=True, bind=None):
    """A row that writes into the object named left of ``<<``: ``small`` (a small write into a
    large object), also timed on the same object every call; ``wait``, also with wait()."""
    target = code.split("(", 1)[0].split("[", 1)[0].strip()
    return Row(name, kind, shape, code, writes=target, loop=small, wait=wait, bind=bind or {})


MESH_ONE = {"A": "G", "q": "q1", "v": "q1", "w": "w1"}
MESH_K = {"A": "G", "F": "Fb", "V": "Vb"}
ROWS = [
    # assign and update, a small operand into a large object
    write("v_assign_true", VEC, SMALL, "v(f.S) << True", small=True),
    write("v_accum_lor", VEC, SMALL, "v(accum=binary.lor) << f", small=True),
    write("v_masked_copy", VEC, SMALL, "w(q.S) << x", small=True, bind={"w": "y"}),
    write("v_assign_value_mask", VEC, SMALL, "y(q.V) << q", small=True),
    write("v_assign_complement", VEC, SMALL, "y(~y.S) << q", small=True),
    write("v_assign_replace", VEC, SMALL, "y(q.S, replace=True) << q", small=True),
    write("v_accum_plus", VEC, SMALL, "y(accum=binary.plus) << q", small=True),
    write("v_masked_accum", VEC, SMALL, "y(q.S, accum=binary.plus) << q", small=True),
    write("v_subassign_scalar", VEC, SMALL, "y[idx] << 1.0", small=True),
    write("v_assign_scalar", VEC, SMALL, "y(q.S) << 1.0", small=True),
    write("m_assign_true", MAT, SMALL, "V(F.S) << True", small=True),
    write("m_accum_lor", MAT, SMALL, "V(accum=binary.lor) << F", small=True),
    write("m_masked_copy", MAT, SMALL, "A(Q.S) << B", small=True),
    write("m_assign_value_mask", MAT, SMALL, "A(Q.V) << Q", small=True),
    write("m_assign_complement", MAT, SMALL, "A(~A.S) << Q", small=True),
    write("m_assign_replace", MAT, SMALL, "A(Q.S, replace=True) << Q", small=True),
    write("m_accum_plus", MAT, SMALL, "A(accum=binary.plus) << Q", small=True),
    write("m_masked_accum", MAT, SMALL, "A(Q.S, accum=binary.plus) << Q", small=True),
    write("m_subassign_scalar", MAT, SMALL, "A[r8, c8] << 1.0", small=True),
    write("m_assign_scalar", MAT, SMALL, "A(Q.S) << 1.0", small=True),
    # assign and update, a large operand into a large object
    write("v_assign_large", VEC, LARGE, "x(y.S) << y"),
    write("v_assign_value_mask_large", VEC, LARGE, "x(y.V) << y"),
    write("v_assign_complement_large", VEC, LARGE, "x(~y.S) << y"),
    write("v_assign_replace_large", VEC, LARGE, "x(y.S, replace=True) << y"),
    write("v_accum_plus_large", VEC, LARGE, "x(accum=binary.plus) << y"),
    write("v_subassign_scalar_large", VEC, LARGE, "x[idx_half] << 1.0"),
    write("v_assign_scalar_large", VEC, LARGE, "x(y.S) << 1.0"),
    write("m_assign_large", MAT, LARGE, "A(B.S) << B"),
    write("m_assign_value_mask_large", MAT, LARGE, "A(B.V) << B"),
    write("m_assign_complement_large", MAT, LARGE, "A(~B.S) << B"),
    write("m_assign_replace_large", MAT, LARGE, "A(B.S, replace=True) << B"),
    write("m_accum_plus_large", MAT, LARGE, "A(accum=binary.plus) << B"),
    write("m_subassign_scalar_large", MAT, LARGE, "A[r_sqrt, c_sqrt] << 1.0"),
    write("m_assign_scalar_large", MAT, LARGE, "A(B.S) << 1.0"),
    # element-wise
    Row("v_ewise_add_lor", VEC, SMALL, "v.ewise_add(f, lor).new()", wait=True),
    Row("v_ewise_add", VEC, SMALL, "x.ewise_add(q, binary.plus).new()", wait=True),
    Row("v_ewise_mult", VEC, SMALL, "x.ewise_mult(q, binary.times).new()"),
    Row("v_ewise_union", VEC, SMALL, "x.ewise_union(q, binary.minus, 0.0, 0.0).new()",
        wait=True),
    Row("m_ewise_add_lor", MAT, SMALL, "V.ewise_add(F, lor).new()", wait=True),
    Row("m_ewise_add", MAT, SMALL, "A.ewise_add(Q, binary.plus).new()", wait=True),
    Row("m_ewise_mult", MAT, SMALL, "A.ewise_mult(Q, binary.times).new()"),
    Row("m_ewise_union", MAT, SMALL, "A.ewise_union(Q, binary.minus, 0.0, 0.0).new()",
        wait=True),
    Row("v_ewise_add_large", VEC, LARGE, "x.ewise_add(y, binary.plus).new()"),
    Row("v_ewise_mult_large", VEC, LARGE, "x.ewise_mult(y, binary.times).new()"),
    Row("v_ewise_union_large", VEC, LARGE, "x.ewise_union(y, binary.minus, 0.0, 0.0).new()"),
    Row("m_ewise_add_large", MAT, LARGE, "A.ewise_add(B, binary.plus).new()"),
    Row("m_ewise_mult_large", MAT, LARGE, "A.ewise_mult(B, binary.times).new()"),
    Row("m_ewise_union_large", MAT, LARGE, "A.ewise_union(B, binary.minus, 0.0, 0.0).new()"),
    # apply: unary, and binary with a scalar
    Row("v_apply_unary_small", VEC, ONE_SMALL, "q.apply(unary.ainv).new()"),
    Row("v_apply_scalar_small", VEC, ONE_SMALL, "q.apply(binary.times, right=2.0).new()"),
    Row("v_apply_unary", VEC, ONE_LARGE, "x.apply(unary.ainv).new()"),
    Row("v_apply_scalar", VEC, ONE_LARGE, "x.apply(binary.times, right=2.0).new()"),
    Row("v_apply_one_value", VEC, ONE_VALUE, "v.apply(unary.lnot).new()"),
    Row("m_apply_unary_small", MAT, ONE_SMALL, "Q.apply(unary.ainv).new()"),
    Row("m_apply_scalar_small", MAT, ONE_SMALL, "Q.apply(binary.times, right=2.0).new()"),
    Row("m_apply_unary", MAT, ONE_LARGE, "A.apply(unary.ainv).new()"),
    Row("m_apply_scalar", MAT, ONE_LARGE, "A.apply(binary.times, right=2.0).new()"),
    Row("m_apply_one_value", MAT, ONE_VALUE, "V.apply(unary.lnot).new()"),
    # select: by value and by position
    Row("v_select_value_small", VEC, ONE_SMALL, "q.select(select.valuegt, 0.5).new()"),
    Row("v_select_index_small", VEC, ONE_SMALL, "q.select(select.indexle, N // 2).new()"),
    Row("v_select_value", VEC, ONE_LARGE, "x.select(select.valuegt, 0.5).new()"),
    Row("v_select_index", VEC, ONE_LARGE, "x.select(select.indexle, N // 2).new()"),
    Row("m_select_value_small", MAT, ONE_SMALL, "Q.select(select.valuegt, 0.5).new()"),
    Row("m_select_tril_small", MAT, ONE_SMALL, "Q.select(select.tril).new()"),
    Row("m_select_rowle_small", MAT, ONE_SMALL, "Q.select(select.rowle, n // 2).new()"),
    Row("m_select_value", MAT, ONE_LARGE, "A.select(select.valuegt, 0.5).new()"),
    Row("m_select_tril", MAT, ONE_LARGE, "A.select(select.tril).new()"),
    Row("m_select_rowle", MAT, ONE_LARGE, "A.select(select.rowle, n // 2).new()"),
    # reduce: by rows, by columns, to a scalar
    Row("v_reduce_small", VEC, ONE_SMALL, "q.reduce(monoid.plus).new()"),
    Row("v_reduce", VEC, ONE_LARGE, "x.reduce(monoid.plus).new()"),
    Row("v_reduce_one_value", VEC, ONE_VALUE, "v.reduce(monoid.lor).new()"),
    Row("m_reduce_rows_small", MAT, ONE_SMALL, "Q.reduce_rowwise(monoid.plus).new()"),
    Row("m_reduce_columns_small", MAT, ONE_SMALL, "Q.reduce_columnwise(monoid.plus).new()"),
    Row("m_reduce_scalar_small", MAT, ONE_SMALL, "Q.reduce_scalar(monoid.plus).new()"),
    Row("m_reduce_rows", MAT, ONE_LARGE, "A.reduce_rowwise(monoid.plus).new()"),
    Row("m_reduce_columns", MAT, ONE_LARGE, "A.reduce_columnwise(monoid.plus).new()"),
    Row("m_reduce_scalar", MAT, ONE_LARGE, "A.reduce_scalar(monoid.plus).new()"),
    Row("m_reduce_rows_one_value", MAT, ONE_VALUE, "V.reduce_rowwise(monoid.lor).new()",
        shown="V.reduce_rowwise(monoid.lor)"),
    Row("m_reduce_columns_one_value", MAT, ONE_VALUE, "V.reduce_columnwise(monoid.lor).new()"),
    Row("m_reduce_scalar_one_value", MAT, ONE_VALUE, "V.reduce_scalar(monoid.lor).new()"),
    # extract
    Row("v_extract_small", VEC, SMALL, "x[idx].new()"),
    Row("v_extract", VEC, LARGE, "x[idx_half].new()"),
    Row("m_extract_rows_small", MAT, SMALL, "A[rows, :].new()"),
    Row("m_extract_rows", MAT, LARGE, "A[rows_half, :].new()"),
    # dup, plain and masked
    Row("v_dup", VEC, ONE_LARGE, "x.dup()"),
    Row("v_dup_masked_small", VEC, SMALL, "x.dup(mask=q.S)"),
    Row("v_dup_masked", VEC, LARGE, "x.dup(mask=y.S)"),
    Row("m_dup", MAT, ONE_LARGE, "A.dup()"),
    Row("m_dup_masked_small", MAT, SMALL, "A.dup(mask=Q.S)"),
    Row("m_dup_masked", MAT, LARGE, "A.dup(mask=B.S)"),
    # transpose
    Row("m_transpose_small", MAT, ONE_SMALL, "Q.T.new()"),
    Row("m_transpose", MAT, ONE_LARGE, "A.T.new()"),
    # mxv, vxm, mxm, masked and not: one-entry and k-source frontiers on a mesh
    write("v_vxm_masked_mesh", VEC, MESH, "w(~v.S, replace) << q.vxm(A, any_pair)",
          small=True, wait=False, bind=MESH_ONE),
    Row("v_vxm_mesh", VEC, MESH, "q.vxm(A, any_pair).new()", bind=MESH_ONE),
    write("v_mxv_masked_mesh", VEC, MESH, "w(~v.S, replace) << A.mxv(q, any_pair)",
          small=True, wait=False, bind=MESH_ONE),
    Row("v_mxv_mesh", VEC, MESH, "A.mxv(q, any_pair).new()", bind=MESH_ONE),
    write("m_mxm_masked_mesh", MAT, SOURCES, "F(~V.S, replace) << F.mxm(A, any_pair)",
          wait=False, bind=MESH_K),
    Row("m_mxm_mesh", MAT, SOURCES, "F.mxm(A, any_pair).new()", bind=MESH_K),
    # mxv, vxm on a large random matrix; mxm on a large mesh
    Row("v_mxv", VEC, MXV, "A.mxv(xn, plus_times).new()"),
    write("v_mxv_masked", VEC, MXV, "wn(~mn.S, replace) << A.mxv(xn, plus_times)",
          wait=False),
    Row("v_vxm", VEC, MXV, "xn.vxm(A, plus_times).new()"),
    write("v_vxm_masked", VEC, MXV, "wn(~mn.S, replace) << xn.vxm(A, plus_times)",
          wait=False),
    Row("m_mxm", MAT, MESH_LARGE, "M.mxm(M, plus_times).new()"),
    write("m_mxm_masked", MAT, MESH_LARGE, "C(~M.S, replace) << M.mxm(M, plus_times)",
          wait=False),
]


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--scale", type=int, default=DEFAULT_SCALE,
                   help="a large object has 2^scale entries (default 20: ~1M)")
    p.add_argument("--small", type=int, default=64, help="entries of a small operand")
    p.add_argument("--mesh", type=int, default=200, help="side of the mesh for small products")
    p.add_argument("--levels", type=int, default=10,
                   help="BFS levels before the k-source frontier is taken")
    p.add_argument("--repeat", type=int, default=15)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--only", nargs="+", metavar="NAME",
                   help="run the rows whose names match these (shell patterns: 'm_assign*')")
    p.add_argument("--list", action="store_true", help="print the rows' names and stop")
    p.add_argument("--quick", action="store_true",
                   help="scale 12, mesh 30, 2 repeats: a check that every row runs")
    p.add_argument("--baseline", type=Path,
                   help="a one-process run's JSON: its gblas2d figures beside this run's")
    p.add_argument("--output", type=Path, help="the JSON file (default: results/ops_<grid>)")
    args = p.parse_args(argv)
    if args.quick:
        args.scale, args.mesh, args.repeat = 12, 30, 2
    return args


def label(count):
    """2^20 -> '1M', 32768 -> '32K': the sizes in the shape column."""
    for shift, unit in ((20, "M"), (10, "K")):
        if count >= 1 << shift:
            return f"{count / (1 << shift):.3g}{unit}"
    return str(count)


def shape_labels(sizes):
    k, m = label(sizes["k"]), label(sizes["m"])
    mesh, large = sizes["mesh"], sizes["mesh_large"]
    return {SMALL: f"{k} into {m}", LARGE: f"{m} and {m}", ONE_SMALL: k, ONE_LARGE: m,
            ONE_VALUE: f"{m}, one value", MESH: f"mesh {mesh}x{mesh}, 1 source",
            SOURCES: f"mesh {mesh}x{mesh}, {k} sources",
            MESH_LARGE: f"mesh {large}x{large}", MXV: f"{m}, x of {label(sizes['n'] // 2)}"}


def sizes_of(args):
    m = 1 << args.scale
    return {"k": args.small, "m": m, "N": 2 * m, "n": m >> 4, "vcols": 2 * m // args.small,
            "mesh": args.mesh, "mesh_large": 1 << ((args.scale - 2) // 2), "levels": args.levels}


def values(rng, count, zeros):
    """``count`` random FP64 values in [0.5, 1.5), a fraction ``zeros`` of them 0."""
    out = rng.random(count) + 0.5
    out[rng.random(count) < zeros] = 0.0
    return out


def random_keys(rng, space, count, outside=None):
    """``count`` distinct sorted keys of ``range(space)``, none of them in ``outside``."""
    if outside is None:
        return np.sort(rng.choice(space, count, replace=False))
    free = np.setdiff1d(np.arange(space), outside, assume_unique=True)
    return np.sort(rng.choice(free, count, replace=False))


def coo_operands(sz, seed):
    """The random operands as COO: name -> ("Vector", idx, values, size) or ("Matrix", rows,
    cols, values, nrows, ncols); and the index arrays and sizes the rows use. The same on
    every rank (every rank draws the same numbers)."""
    rng = np.random.default_rng(seed)
    k, m, N, n, vcols = sz["k"], sz["m"], sz["N"], sz["n"], sz["vcols"]
    ops = {}
    v = random_keys(rng, N, m)
    ops["v"] = (VEC, v, np.ones(m, bool), N)
    ops["f"] = (VEC, random_keys(rng, N, k, outside=v), np.ones(k, bool), N)
    ops["x"] = (VEC, random_keys(rng, N, m), values(rng, m, 0.0), N)
    ops["y"] = (VEC, random_keys(rng, N, m), values(rng, m, 0.1), N)
    ops["q"] = (VEC, random_keys(rng, N, k), values(rng, k, 0.25), N)
    V = random_keys(rng, k * vcols, m)
    ops["V"] = (MAT, *np.divmod(V, vcols), np.ones(m, bool), k, vcols)
    F = random_keys(rng, k * vcols, k, outside=V)
    ops["F"] = (MAT, *np.divmod(F, vcols), np.ones(k, bool), k, vcols)
    for name, count, zeros in (("A", m, 0.0), ("B", m, 0.1), ("Q", k, 0.25)):
        ops[name] = (MAT, *np.divmod(random_keys(rng, n * n, count), n),
                     values(rng, count, zeros), n, n)
    ops["xn"] = (VEC, random_keys(rng, n, n // 2), values(rng, n // 2, 0.0), n)
    ops["mn"] = (VEC, random_keys(rng, n, n // 2), np.ones(n // 2, bool), n)
    ops["wn"] = (VEC, np.empty(0, np.int64), np.empty(0), n)
    root = sz["mesh"] * (sz["mesh"] // 2) + sz["mesh"] // 2  # the mesh's middle vertex
    ops["q1"] = (VEC, np.array([root]), np.array([True]), sz["mesh"] ** 2)
    ops["w1"] = (VEC, np.empty(0, np.int64), np.empty(0, bool), sz["mesh"] ** 2)
    side = sz["mesh_large"] ** 2
    ops["C"] = (MAT, np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0), side, side)
    fixed = {
        "N": N, "n": n,
        "idx": rng.choice(N, k, replace=False),
        "idx_half": np.sort(rng.choice(N, N // 2, replace=False)),
        "rows": rng.choice(n, k, replace=False),
        "rows_half": np.sort(rng.choice(n, n // 2, replace=False)),
        "r8": rng.choice(n, int(k ** 0.5), replace=False),
        "c8": rng.choice(n, int(k ** 0.5), replace=False),
        "r_sqrt": rng.choice(n, int(m ** 0.5), replace=False),
        "c_sqrt": rng.choice(n, int(m ** 0.5), replace=False),
        "sources": rng.choice(sz["mesh"] ** 2, k, replace=False),
    }
    return ops, fixed


def build(lib, spec):
    """A Vector or Matrix of library ``lib`` from a COO spec (gblas2d: collective, every rank
    passing the same arrays)."""
    if spec[0] == VEC:
        _, idx, vals, size = spec
        return lib.Vector.from_coo(idx, vals, size=size, dtype=vals.dtype)
    _, rows, cols, vals, nrows, ncols = spec
    return lib.Matrix.from_coo(rows, cols, vals, nrows=nrows, ncols=ncols, dtype=vals.dtype)


def mesh_operands(sz, sources):
    """Collective. The meshes and the k-source BFS frontier on gblas2d, and their COO specs
    (for python-graphblas): ``G`` the small mesh, ``Fb`` / ``Vb`` the frontier and the visited
    set after ``levels`` levels, ``M`` the large mesh."""
    G = gb.generators.grid_graph(sz["mesh"], sz["mesh"])
    M = gb.generators.grid_graph(sz["mesh_large"], sz["mesh_large"])
    F = gb.Matrix.from_coo(np.arange(len(sources)), sources, True, nrows=len(sources),
                           ncols=G.ncols)
    V = F.dup()
    for _ in range(sz["levels"]):
        F(~V.S, replace=True) << F.mxm(G, gb.semiring.any_pair)
        V(F.S) << True
    ours = {"G": G, "M": M, "Fb": F, "Vb": V}
    specs = {name: (MAT, *obj.to_coo(), obj.nrows, obj.ncols) for name, obj in ours.items()}
    return ours, specs


def namespace(lib, operands, fixed):
    """The names a row's code reads, bound to one engine's operators and operands."""
    return {"binary": lib.binary, "monoid": lib.monoid, "semiring": lib.semiring,
            "select": lib.select, "unary": lib.unary, "replace": lib.replace,
            "lor": lib.binary.lor, "any_pair": lib.semiring.any_pair,
            "plus_times": lib.semiring.plus_times, **fixed, **operands}


class Call:
    """One engine's calls of one row's variant: the row's code run in that engine's
    namespace, on a fresh copy of the object it writes into (``prepare``, untimed) or on one
    copy every call (*same*), with the result's ``wait()`` for a *+wait* variant."""

    def __init__(self, row, variant, names):
        self.ns = dict(names)
        self.ns.update({alias: names[operand] for alias, operand in row.bind.items()})
        self.target = row.writes
        self.code = compile(row.code, row.name, "exec" if row.writes else "eval")
        self.same = variant.startswith("same")
        self.wait = variant.endswith("+wait")
        if self.target:
            self.source = self.ns[self.target]
            self.ns[self.target] = self.source.dup()

    def prepare(self):
        if self.target and not self.same:
            self.ns[self.target] = self.source.dup()

    def __call__(self):
        if self.target:
            exec(self.code, self.ns)
            result = self.ns[self.target]
        else:
            result = eval(self.code, self.ns)
        if self.wait:
            result.wait()
        return result


def interleave(comm, ours, theirs, repeat):
    """Collective. One warm-up call of each engine, then ``repeat`` rounds: gblas2d's call
    after a barrier (the slowest rank's seconds), then python-graphblas's on rank 0 while the
    other ranks sleep. Returns the best seconds of each (None without ``theirs``) and the last
    results."""
    best = [float("inf"), float("inf")]
    for round_ in range(repeat + 1):
        results = [None, None]  # the last round's results are freed here, not in the timing
        ours.prepare()
        comm.barrier()
        start = time.perf_counter()
        results[0] = ours()
        seconds = slowest(comm, time.perf_counter() - start)
        if theirs is not None:
            theirs.prepare()
            start = time.perf_counter()
            results[1] = theirs()
            their_seconds = time.perf_counter() - start
        idle_wait(comm)
        if round_:
            best[0] = min(best[0], seconds)
            if theirs is not None:
                best[1] = min(best[1], their_seconds)
    return best[0], (best[1] if theirs is not None else None), results


def contents(obj):
    """A result as comparable parts: (kind, shape, dtype, arrays...) or ("Scalar", value)."""
    if hasattr(obj, "to_coo"):
        return (type(obj).__name__, tuple(obj.shape), obj.dtype.name, *obj.to_coo())
    return ("Scalar", obj.value)


def same(comm, mine, theirs):
    """Collective (gblas2d's ``to_coo``). On rank 0: whether gblas2d's result equals
    python-graphblas's (indices exactly, values within 1e-9 relative); None elsewhere."""
    ours = contents(mine)
    if comm.rank != 0:
        return None
    peers = contents(theirs)
    if ours[0] == "Scalar" or peers[0] == "Scalar":
        if ours[0] != peers[0] or None in (ours[1], peers[1]):
            return ours == peers
        return bool(np.isclose(ours[1], peers[1], rtol=1e-9))
    if ours[:3] != peers[:3] or len(ours) != len(peers):
        return False
    index = all(np.array_equal(a, b) for a, b in zip(ours[3:-1], peers[3:-1], strict=True))
    return index and bool(np.allclose(ours[-1], peers[-1], rtol=1e-9, atol=0.0))


def load_baseline(path, args):
    """(name, variant) -> gblas2d µs of a one-process run, and a warning where its sizes
    differ from this run's."""
    report = json.loads(path.read_text())
    if report.get("ranks") != 1:
        print(f"warning: {path} ran on {report.get('ranks')} processes, not 1", flush=True)
    if (report.get("scale"), report.get("small")) != (args.scale, args.small):
        print(f"warning: {path} has scale {report.get('scale')}, small {report.get('small')}; "
              f"this run {args.scale}, {args.small}", flush=True)
    return {(row["name"], row["variant"]): row["gblas2d_us"] for row in report["rows"]}


def default_output(args, grid):
    scale = "" if args.scale == DEFAULT_SCALE else f"_scale{args.scale}"
    folder = HERE / ("runs" if args.quick else "results")
    return folder / f"ops_{grid}{scale}.json"


def show(value, fmt):
    return "-" if value is None else format(value, fmt)


def header(baseline):
    return (f"{'operation':46s} {'object':6s} {'shape':22s} {'how':10s} {'gblas2d us':>11s} "
            f"{'pgb us':>9s} {'ratio':>6s}"
            + (f" {'1x1 us':>9s} {'vs 1x1':>6s}" if baseline else "") + "  same")


def line(entry, baseline):
    """One row of the table: a JSON entry as ``header`` names its columns."""
    return (f"{entry['operation']:46s} {entry['object']:6s} {entry['shape']:22s} "
            f"{entry['variant']:10s} {entry['gblas2d_us']:11.1f} {entry['graphblas_us']:9.1f} "
            f"{entry['ratio']:6.2f}"
            + (f" {show(entry.get('gblas2d_1x1_us'), '9.1f')} "
               f"{show(entry.get('vs_1x1'), '6.2f')}" if baseline else "")
            + ("  yes" if entry["same"] else "  MISMATCH"))


def main(argv=None):
    args = parse_args(argv)
    grb.ss.config["nthreads"] = 1
    rows = [row for row in ROWS
            if not args.only or any(fnmatch.fnmatch(row.name, pat) for pat in args.only)]
    if args.list:
        for row in rows:
            print(f"{row.name:30s} {row.kind:7s} {row.shape:11s} {row.shown or row.code}")
        return 0
    if not rows:
        raise SystemExit(f"no row matches {args.only}")
    load_start = list(os.getloadavg())
    sz = sizes_of(args)
    built = time.perf_counter()
    specs, fixed = coo_operands(sz, args.seed)
    ours = {name: build(gb, spec) for name, spec in specs.items()}
    meshes, mesh_specs = mesh_operands(sz, fixed.pop("sources"))
    ours.update(meshes)
    comm = ours["A"].grid.comm
    grid = f"{ours['A'].grid.nrows}x{ours['A'].grid.ncols}"
    theirs = None
    if comm.rank == 0:
        theirs = {name: build(grb, spec) for name, spec in {**specs, **mesh_specs}.items()}
    built = slowest(comm, time.perf_counter() - built)
    baseline = load_baseline(args.baseline, args) if args.baseline and comm.rank == 0 else {}
    labels = shape_labels(sz)
    threads = {"gblas2d": gb.backends.threads_per_rank(),
               "python_graphblas": grb.ss.config["nthreads"]}
    if comm.rank == 0:
        print(f"grid {grid}: gblas2d {threads['gblas2d']} thread a rank "
              f"(GBLAS2D_THREADS={os.environ['GBLAS2D_THREADS']}), python-graphblas "
              f"{grb.__version__} (SuiteSparse {grb.ss.about['library_version']}) "
              f"{threads['python_graphblas']} thread on rank 0; best of {args.repeat}, "
              f"interleaved; operands built in {built:.1f} s; load average {load_start[0]:.2f}")
        print(header(baseline), flush=True)
    results, mismatches = [], []
    for row in rows:
        for variant in row.variants():
            mine = Call(row, variant, namespace(gb, ours, fixed))
            peer = Call(row, variant, namespace(grb, theirs, fixed)) if comm.rank == 0 else None
            seconds, peer_seconds, (result, peer_result) = interleave(comm, mine, peer,
                                                                      args.repeat)
            agree = same(comm, result, peer_result)
            del mine, peer, result, peer_result
            if comm.rank != 0:
                continue
            entry = {"name": row.name, "object": row.kind, "shape": labels[row.shape],
                     "operation": row.shown or row.code, "variant": variant,
                     "gblas2d_us": seconds * 1e6, "graphblas_us": peer_seconds * 1e6,
                     "ratio": seconds / peer_seconds, "same": agree}
            base = baseline.get((row.name, variant))
            if base is not None:
                entry.update(gblas2d_1x1_us=base, vs_1x1=entry["gblas2d_us"] / base)
            results.append(entry)
            if not agree:
                mismatches.append(f"{row.name} [{variant}]: {entry['operation']}")
            print(line(entry, baseline), flush=True)
    peak = float(comm.allreduce(np.array([peak_rss_mib()]), "max")[0])
    if comm.rank != 0:
        return 0
    ratios = np.array([r["ratio"] for r in results])
    print(f"{len(results)} rows: {int((ratios <= 1.5).sum())} at most 1.5x python-graphblas, "
          f"{int((ratios > 2).sum())} above 2x; median ratio {np.median(ratios):.2f}")
    report = {"benchmark": "ops", "grid": grid, "ranks": comm.size, "scale": args.scale,
              "small": args.small, "sizes": sz, "repeat": args.repeat, "seed": args.seed,
              "threads": threads, "graphblas": grb.__version__,
              "suitesparse": list(grb.ss.about["library_version"]),
              "baseline": str(args.baseline) if args.baseline else None,
              "python": platform.python_version(), "build_s": built,
              "load_average_start": load_start, "load_average_end": list(os.getloadavg()),
              "date": time.strftime("%Y-%m-%d %H:%M:%S"), "peak_rss_mib": peak,
              "mismatches": mismatches, "rows": results}
    path = args.output or default_output(args, grid)
    write_json(path, report)
    print(f"wrote {path}")
    if mismatches:
        print(f"MISMATCH: {len(mismatches)} rows differ from python-graphblas:\n  "
              + "\n  ".join(mismatches), file=sys.stderr, flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
