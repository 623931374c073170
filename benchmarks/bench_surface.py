"""The python-graphblas surface added to gblas2d (indexing, shape operations), timed with the
bytes each call receives per rank, at any grid.

Run unchanged on one process or under ``mpiexec -n P`` (``GBLAS2D_GRID=RxC`` picks the grid)::

    python benchmarks/bench_surface.py --peers
    GBLAS2D_GRID=2x2 mpiexec -n 4 python benchmarks/bench_surface.py

The graph is ``rmat(scale, 16, symmetric=True)`` (A, scale ``--scale``), with the smaller
``rmat(10, ...)`` for kronecker and power and ``rmat(12, ...)`` for ``A.ewise_add(v)`` (which
spreads v over every row: nrows x nvals(v) entries). Rows (the same code on both engines):

========================  ==========================================================
extract_rows_k16/_k4096   ``A[rows, :]`` for 16 and 4096 random rows
extract_sub_1024          ``A[rows, cols]``, 1024 x 1024 random positions
extract_col               ``A[:, j]``, j a random column with entries
assign_sub_1024           ``C[rows, cols] << B``, B random 1024 x 1024 of 1% density
assign_masked_1024        ``C(C.S)[rows, cols] << 1``
assign_row                ``C[i, :] << v``, v of ``--row-nvals`` entries
del_rows_1024             ``del C[rows, :]``
diag, diag_1              ``A.diag()`` (empty: the generator drops self-loops), ``A.diag(1)``
kronecker_s10             ``A10.kronecker(B8)``, B8 8 x 8 with 48 entries
outer                     ``u.outer(v)``, u, v of ~1000 entries each
ewise_mult_v              ``A.ewise_mult(v)``, v of 100 entries along every row
ewise_add_v_s12           ``A12.ewise_add(v)``, v of 100 entries spread over every row
resize_half               ``C.resize(n // 2, n // 2)``
power3_s10                ``A10.power(3)`` over plus_times
========================  ==========================================================

An assign, ``del`` and ``resize`` change C in place: each call gets a fresh ``C = A.dup()``
made outside the timing. Every call ends with ``wait()``, so python-graphblas finishes its
pending work inside the timing (gblas2d has none).

For each row: one warm-up call under ``recording()`` (the bytes it received, the largest over
the ranks; its result, held bytes and tracemalloc peak), then the best of ``--repeat`` calls,
each after a barrier, timed as the slowest rank. With ``--peers`` (meaningful at one process),
the same code on python-graphblas objects (``gb.io.to_graphblas``) with one SuiteSparse thread
on rank 0 while the other ranks sleep, its result compared with gblas2d's and the ratio.

Memory per entry, where the result has at least ``MEMORY_MIN_NVALS`` entries: *held*, the
bytes of the result's numpy arrays summed over the ranks (CSR and any view made so far) and
python-graphblas's ``__sizeof__`` (GxB memory usage), per result entry; *peak*, gblas2d's
tracemalloc peak during the warm-up on the busiest rank, per result entry on that rank
(nvals / P). Rank 0 prints a table and writes
``benchmarks/results/surface_<grid>_scale<S>.json``.
"""

import argparse
import os
import platform
import time
import tracemalloc
from pathlib import Path

import numpy as np
from _common import idle_wait, peak_rss_mib, slowest, write_json

import gblas2d as gb
from gblas2d import recording

RESULTS = Path(__file__).resolve().parent / "results"
# Below this many result entries the bytes per entry are mostly fixed overhead: not shown.
MEMORY_MIN_NVALS = 10_000


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--scale", type=int, default=16)
    p.add_argument("--small-scale", type=int, default=10, help="kronecker and power")
    p.add_argument("--add-scale", type=int, default=12, help="ewise_add with a Vector")
    p.add_argument("--row-nvals", type=int, default=1000, help="entries of v in C[i, :] << v")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--only", nargs="+", help="run these rows only")
    p.add_argument("--peers", action="store_true",
                   help="also time the same code on python-graphblas, one thread")
    p.add_argument("--output", type=Path, help="the JSON file (default: results/surface_...)")
    return p.parse_args(argv)


def sparse_vector(rng, size, nvals, grid):
    """Collective. A FP64 Vector of ``nvals`` distinct random positions, the same on every
    rank (every rank draws the same numbers)."""
    idx = np.sort(rng.choice(size, min(nvals, size), replace=False))
    return gb.Vector.from_coo(idx, rng.random(len(idx)) + 0.5, size=size, grid=grid)


def random_matrix(rng, nrows, ncols, nvals, grid):
    """Collective. A FP64 nrows x ncols Matrix of ``nvals`` distinct random positions."""
    keys = rng.choice(nrows * ncols, nvals, replace=False)
    return gb.Matrix.from_coo(keys // ncols, keys % ncols, rng.random(nvals) + 0.5,
                              nrows=nrows, ncols=ncols, grid=grid)


def operands(args):
    """Collective. The gblas2d operands by name, and the index arrays (numpy, replicated;
    at most n positions each, for small scales)."""
    A = gb.generators.rmat(args.scale, 16, symmetric=True, seed=args.seed)
    grid = A.grid
    n = A.nrows
    rng = np.random.default_rng(args.seed + 1)
    k = min(1024, n)
    B8 = gb.Matrix.from_coo(*np.divmod(rng.choice(64, 48, replace=False), 8),
                            rng.random(48) + 0.5, nrows=8, ncols=8, grid=grid)
    A12 = gb.generators.rmat(args.add_scale, 16, symmetric=True, seed=args.seed)
    ops = {
        "A": A,
        "A10": gb.generators.rmat(args.small_scale, 16, symmetric=True, seed=args.seed),
        "A12": A12,
        "B": random_matrix(rng, k, k, k * k // 100, grid),
        "B8": B8,
        "u": sparse_vector(rng, n, 1000, grid),
        "v": sparse_vector(rng, n, 1000, grid),
        "v_row": sparse_vector(rng, n, args.row_nvals, grid),
        "v100": sparse_vector(rng, n, 100, grid),
        "v100_12": sparse_vector(rng, A12.ncols, 100, grid),
    }
    index = {
        "rows16": rng.choice(n, min(16, n), replace=False),
        "rows4096": rng.choice(n, min(4096, n), replace=False),
        "rows1024": rng.choice(n, k, replace=False),
        "cols1024": rng.choice(n, k, replace=False),
        # a column with entries (R-MAT leaves many vertices isolated)
        "j": int(rng.choice(A.reduce_columnwise(gb.monoid.plus).new().to_coo()[0])),
        "i": int(rng.integers(n)),
    }
    return ops, index


def calls(o, x):
    """name -> (setup, run): ``setup()`` makes the state a call changes (None: nothing),
    ``run(state)`` makes the result and returns it. The same code for gblas2d's operands and
    python-graphblas's (``o``), with the index arrays ``x``."""
    A = o["A"]
    n = A.nrows

    def fresh():
        return A.dup()

    def finish(result):
        return result.wait()

    def assign_sub(C):
        C[x["rows1024"], x["cols1024"]] << o["B"]
        return finish(C)

    def assign_masked(C):
        C(C.S)[x["rows1024"], x["cols1024"]] << 1
        return finish(C)

    def assign_row(C):
        C[x["i"], :] << o["v_row"]
        return finish(C)

    def delete_rows(C):
        del C[x["rows1024"], :]
        return finish(C)

    def resize(C):
        C.resize(n // 2, n // 2)
        return finish(C)

    return {
        "extract_rows_k16": (None, lambda _: finish(A[x["rows16"], :].new())),
        "extract_rows_k4096": (None, lambda _: finish(A[x["rows4096"], :].new())),
        "extract_sub_1024": (None, lambda _: finish(A[x["rows1024"], x["cols1024"]].new())),
        "extract_col": (None, lambda _: finish(A[:, x["j"]].new())),
        "assign_sub_1024": (fresh, assign_sub),
        "assign_masked_1024": (fresh, assign_masked),
        "assign_row": (fresh, assign_row),
        "del_rows_1024": (fresh, delete_rows),
        "diag": (None, lambda _: finish(A.diag())),
        "diag_1": (None, lambda _: finish(A.diag(1))),
        "kronecker_s10": (None, lambda _: finish(o["A10"].kronecker(o["B8"]).new())),
        "outer": (None, lambda _: finish(o["u"].outer(o["v"]).new())),
        "ewise_mult_v": (None, lambda _: finish(A.ewise_mult(o["v100"]).new())),
        "ewise_add_v_s12": (None, lambda _: finish(o["A12"].ewise_add(o["v100_12"]).new())),
        "resize_half": (fresh, resize),
        "power3_s10": (None, lambda _: finish(o["A10"].power(3).new())),
    }


def held_bytes(obj):
    """The bytes of the numpy arrays an object (a Block or a Piece) holds in its attributes,
    one level into tuples and lists; an array broadcast from one value (stride 0) counts as
    that one value."""
    names = getattr(obj, "__slots__", None) or vars(obj)
    total = 0
    for value in (getattr(obj, name, None) for name in names):
        for array in value if isinstance(value, (tuple, list)) else (value,):
            if isinstance(array, np.ndarray):
                total += array.itemsize if 0 in array.strides else array.nbytes
    return total


def gblas2d_held(comm, result):
    """Collective. The bytes ``result``'s local parts hold, summed over the ranks."""
    local = result.block if hasattr(result, "nrows") else result.piece
    return float(comm.allreduce(np.array([held_bytes(local)], dtype=np.float64), "sum")[0])


def best_of(comm, setup, run, repeat, *, local=False):
    """Best wall seconds of ``repeat`` calls of ``run(setup())``, setup untimed. Collective
    (each call after a barrier, the slowest rank's time) unless ``local``."""
    best = float("inf")
    for _ in range(repeat):
        state = setup() if setup else None
        if not local:
            comm.barrier()
        start = time.perf_counter()
        run(state)
        seconds = time.perf_counter() - start
        best = min(best, seconds if local else slowest(comm, seconds))
    return best


def measure(comm, setup, run, repeat):
    """Collective. (best seconds, most bytes received per rank, the warm-up's result, the
    busiest rank's tracemalloc peak in bytes) of gblas2d's ``run``."""
    state = setup() if setup else None
    tracemalloc.start()
    with recording() as stats:
        result = run(state)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    received = float(comm.allreduce(np.array([stats.bytes()], dtype=np.float64), "max")[0])
    peak = float(comm.allreduce(np.array([peak], dtype=np.float64), "max")[0])
    return best_of(comm, setup, run, repeat), received, result, peak


def suitesparse(comm, setup, run, repeat):
    """Collective. On rank 0: (best seconds, warm-up result) of ``run`` on python-graphblas
    with one SuiteSparse thread; None elsewhere."""
    import graphblas as grb

    out = None
    if comm.rank == 0:
        default = grb.ss.config["nthreads"]
        grb.ss.config["nthreads"] = 1
        try:
            result = run(setup() if setup else None)
            out = best_of(comm, setup, run, repeat, local=True), result
        finally:
            grb.ss.config["nthreads"] = default
    idle_wait(comm)
    return out


def same(mine, theirs):
    """Whether gblas2d's COO (``to_coo``, row-major) equals python-graphblas's result."""
    if hasattr(theirs, "nrows") != (len(mine) == 3):
        return False
    ours, peers = mine, theirs.to_coo()
    index_equal = all(np.array_equal(a, b) for a, b in zip(ours[:-1], peers[:-1], strict=True))
    return bool(index_equal and np.allclose(ours[-1], peers[-1], rtol=1e-12))


def per_entry(nbytes, nvals):
    return nbytes / nvals if nvals >= MEMORY_MIN_NVALS else None


def show(value, fmt):
    return "-" if value is None else format(value, fmt)


def main(argv=None):
    args = parse_args(argv)
    load_start = list(os.getloadavg())
    built = time.perf_counter()
    ops, index = operands(args)
    comm = ops["A"].grid.comm
    grid = ops["A"].grid
    shape = f"{grid.nrows}x{grid.ncols}"
    built = slowest(comm, time.perf_counter() - built)
    peer_calls = {}
    if args.peers:
        peer_ops = {name: gb.io.to_graphblas(obj) for name, obj in ops.items()}
        peer_calls = calls(peer_ops, index) if comm.rank == 0 else {}
    if comm.rank == 0:
        print(f"grid {shape}, A: n = {ops['A'].nrows:,}, nvals = {ops['A'].nvals:,} "
              f"(built in {built:.1f} s); load average {load_start[0]:.2f}", flush=True)
        print(f"{'row':22s} {'gblas2d s':>10s} {'grb 1t s':>10s} {'ratio':>6s} "
              f"{'MiB/rank':>9s} {'nvals':>10s} {'held B/e':>9s} {'grb B/e':>8s} "
              f"{'peak B/e':>9s} same", flush=True)
    rows = []
    for name, (setup, run) in calls(ops, index).items():
        if args.only and name not in args.only:
            continue
        seconds, received, result, peak = measure(comm, setup, run, args.repeat)
        nvals = result.nvals
        held = gblas2d_held(comm, result)
        mine = result.to_coo() if args.peers else None
        row = {"row": name, "seconds": seconds, "bytes_per_rank": received,
               "result_nvals": nvals,
               "held_bytes_per_entry": per_entry(held, nvals),
               "peak_bytes_per_entry": per_entry(peak * comm.size, nvals)}
        if args.peers:
            theirs = suitesparse(comm, *peer_calls.get(name, (None, None)), args.repeat)
            if comm.rank == 0:
                peer_seconds, peer_result = theirs
                row.update(graphblas_1t_s=peer_seconds, ratio=seconds / peer_seconds,
                           graphblas_bytes_per_entry=per_entry(peer_result.__sizeof__(), nvals),
                           same=same(mine, peer_result))
        rows.append(row)
        if comm.rank == 0:
            print(f"{name:22s} {seconds:10.5f} {show(row.get('graphblas_1t_s'), '10.5f'):>10s} "
                  f"{show(row.get('ratio'), '6.2f'):>6s} {received / 2**20:9.3f} {nvals:10,d} "
                  f"{show(row['held_bytes_per_entry'], '9.1f'):>9s} "
                  f"{show(row.get('graphblas_bytes_per_entry'), '8.1f'):>8s} "
                  f"{show(row['peak_bytes_per_entry'], '9.1f'):>9s} "
                  f"{row.get('same', '-')}", flush=True)
    report = {"benchmark": "surface", "grid": shape, "ranks": comm.size, "scale": args.scale,
              "n": ops["A"].nrows, "nvals": ops["A"].nvals, "small_scale": args.small_scale,
              "small_nvals": ops["A10"].nvals, "add_scale": args.add_scale,
              "add_nvals": ops["A12"].nvals, "repeat": args.repeat, "seed": args.seed,
              "peers": args.peers, "build_s": built, "python": platform.python_version(),
              "load_average_start": load_start, "load_average_end": list(os.getloadavg()),
              "peak_rss_mib": float(comm.allreduce(np.array([peak_rss_mib()]), "max")[0]),
              "rows": rows}
    if comm.rank == 0:
        write_json(args.output or RESULTS / f"surface_{shape}_scale{args.scale}.json", report)


if __name__ == "__main__":
    main()
