"""The algorithms built on mxm, timed with the bytes their products move, at any grid.

Run unchanged on one process or under ``mpiexec -n P`` (``GBLAS2D_GRID=RxC`` picks the grid)::

    python benchmarks/bench_mxm.py --scale 14
    GBLAS2D_GRID=1x2 mpiexec -n 2 python benchmarks/bench_mxm.py --scale 14 --label after

The graph is ``rmat(scale, 16, symmetric=True)``; matching reads it with uniform weights. The
rows: a batched BFS (levels and parents) from ``--sources`` sources, betweenness from the same
batch, ``--cdlp-iter`` rounds of label propagation, the approximate matching, one fused
probabilistic BFS of ``--colors`` colors, triangle counting (sandia_lut, and sandia_lut without
the degree presort) and the local clustering coefficient.

For each: the best of ``--repeat`` calls after a warm-up (the slowest rank's wall time), the
mxm calls it made and the schemes they took (``trace``), and the bytes one call received per
rank, the largest over the ranks. With ``--peers``, the same code on python-graphblas objects
with one SuiteSparse thread (rank 0 alone, the others sleep) and the ratio. Rank 0 prints a
table and writes
``benchmarks/results/mxm_<grid>_scale<S>_<label>.json``, so a run of another commit (the same
script, copied) lies beside it under another label.
"""

import argparse
import platform
from collections import Counter
from pathlib import Path

import numpy as np
from _common import idle_wait, peak_rss_mib, time_collective, time_local, write_json
from gblas2d.algorithms import (
    betweenness_centrality,
    bfs_levels,
    bfs_parents,
    fused_bpt,
    label_propagation,
    local_clustering_coefficient,
    max_weight_matching,
    triangle_count,
)

import gblas2d as gb
from gblas2d import recording, trace

RESULTS = Path(__file__).resolve().parent / "results"


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--scale", type=int, default=14)
    p.add_argument("--sources", type=int, default=64)
    p.add_argument("--colors", type=int, default=256)
    p.add_argument("--probability", type=float, default=0.05)
    p.add_argument("--cdlp-iter", type=int, default=10)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--label", default="run", help="names the result file (before, after, ...)")
    p.add_argument("--only", nargs="+", help="run these rows only")
    p.add_argument("--peers", action="store_true",
                   help="also time the same code on python-graphblas, one thread")
    return p.parse_args(argv)


def calls(A, W, args):
    sources = np.random.default_rng(args.seed + 1).choice(A.nrows, args.sources,
                                                          replace=False).tolist()
    colors = np.random.default_rng(args.seed).integers(0, A.nrows, args.colors).tolist()
    return {
        "bfs_levels_batch": lambda: bfs_levels(A, sources),
        "bfs_parents_batch": lambda: bfs_parents(A, sources),
        "betweenness": lambda: betweenness_centrality(A, sources),
        "label_propagation": lambda: label_propagation(A, max_iter=args.cdlp_iter),
        "max_weight_matching": lambda: max_weight_matching(W),
        "fused_bpt": lambda: fused_bpt(A, colors, args.probability, args.seed),
        "triangle_count": lambda: triangle_count(A, "sandia_lut"),
        "triangle_count_unsorted": lambda: triangle_count(A, "sandia_lut", presort=False),
        "local_clustering": lambda: local_clustering_coefficient(A),
    }


def suitesparse(comm, run, repeat):
    """Collective. Best seconds of ``run`` on rank 0 with one SuiteSparse thread; None
    elsewhere."""
    import graphblas as grb

    best = None
    if comm.rank == 0:
        default = grb.ss.config["nthreads"]
        grb.ss.config["nthreads"] = 1
        try:
            best = time_local(run, repeat)[0]
        finally:
            grb.ss.config["nthreads"] = default
    idle_wait(comm)
    return best


def on_graphblas(M):
    """Collective. The python-graphblas Matrix of ``M`` on every rank (the peer's input)."""
    import graphblas as grb

    r, c, v = M.to_coo()
    return grb.Matrix.from_coo(r, c, v, nrows=M.nrows, ncols=M.ncols)


def measure(comm, run, repeat):
    """Collective. (best seconds, mxm calls and their schemes, most bytes received per rank)
    of ``run``: the schemes and bytes from the warm-up call."""
    with trace() as events, recording() as stats:
        run()
    received = float(comm.allreduce(np.array([stats.bytes()], dtype=np.float64), "max")[0])
    products = [e for e in events if e["op"] == "mxm"]
    schemes = Counter(f"{e.get('scheme', 'gather')}"
                      f"{'+mask' if e.get('mask_in_product') else ''}" for e in products)
    best = min(time_collective(comm, run, repeat)[0])
    return best, len(products), dict(schemes), received


def main(argv=None):
    args = parse_args(argv)
    A = gb.generators.rmat(args.scale, 16, symmetric=True, seed=args.seed)
    W = gb.generators.rmat(args.scale, 16, symmetric=True, seed=args.seed, weights="uniform")
    grid = A.grid
    comm = grid.comm
    shape = f"{grid.nrows}x{grid.ncols}"
    peers = calls(on_graphblas(A), on_graphblas(W), args) if args.peers else {}
    rows = []
    for name, run in calls(A, W, args).items():
        if args.only and name not in args.only:
            continue
        seconds, n_mxm, schemes, received = measure(comm, run, args.repeat)
        row = {"algorithm": name, "seconds": seconds, "mxm_calls": n_mxm,
               "schemes": schemes, "bytes_per_rank": received}
        peer = ""
        if peers:
            theirs = suitesparse(comm, peers[name], args.repeat)
            if comm.rank == 0:
                row["graphblas_1t_s"], row["ratio"] = theirs, seconds / theirs
                peer = f"  SuiteSparse {theirs * 1e3:8.1f} ms  ratio {seconds / theirs:5.2f}"
        rows.append(row)
        if comm.rank == 0:
            print(f"{name:26s} {seconds * 1e3:10.1f} ms  mxm {n_mxm:4d} {schemes}  "
                  f"{received / 2**20:8.2f} MiB/rank{peer}", flush=True)
    report = {"benchmark": "mxm", "label": args.label, "grid": shape, "scale": args.scale,
              "nvals": A.nvals, "sources": args.sources, "colors": args.colors,
              "repeat": args.repeat, "python": platform.python_version(),
              "peak_rss_mib": float(comm.allreduce(np.array([peak_rss_mib()]), "max")[0]),
              "rows": rows}
    if comm.rank == 0:
        write_json(RESULTS / f"mxm_{shape}_scale{args.scale}_{args.label}.json", report)


if __name__ == "__main__":
    main()
