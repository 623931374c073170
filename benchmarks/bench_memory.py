"""Memory per local entry of a Graph 500 BFS: gblas2d at any rank count beside python-graphblas
(SuiteSparse) on one process, the same graph and the same algorithm code.

    python benchmarks/bench_memory.py --scale 20
    mpiexec -n 2 python benchmarks/bench_memory.py --scale 20 --peer none

Each engine runs in its own process, so one engine's peak is not the other's. Per rank it
reports the peak resident memory while the graph is built and while ``bfs_levels`` runs, less
the process's resident memory after a warm-up that loads SuiteSparse (the interpreter, numpy,
SciPy and SuiteSparse's code are excluded), divided by the entries the rank holds; and, for
gblas2d, what the rank's block holds after the BFS, by part (``backends.held_bytes``: the CSR,
each backend's copy beyond it, the derived layouts). SuiteSparse runs with one thread.
Results go to ``benchmarks/results/memory_scale<S>_<P>ranks.json``.
"""

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np
from _common import outside_mpi_env, peak, resident

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")



def warm_up(gb_module, make_matrix):
    """One tiny product and transpose, so SuiteSparse's code and globals are loaded before
    the baseline is read."""
    A = make_matrix()
    x = gb_module.Vector.from_coo([1], [1.0], size=A.nrows)
    A.mxv(x, gb_module.semiring.any_pair).new()
    A.T.new()


def run_gblas2d(scale, source):
    import gblas2d as gb
    from gblas2d import algorithms, backends

    warm_up(gb, lambda: gb.generators.rmat(8, 8, symmetric=True))
    base = resident()
    start = time.perf_counter()
    A = gb.generators.rmat(scale, 16, symmetric=True)
    build_seconds = time.perf_counter() - start
    build_peak = peak()
    start = time.perf_counter()
    levels = algorithms.bfs_levels(A, source)
    bfs_seconds = time.perf_counter() - start
    block = A.block
    row = {"rank": gb.default_grid().rank, "entries": block.nvals,
           "build_peak_B_per_entry": (build_peak - base) / max(block.nvals, 1),
           "bfs_peak_B_per_entry": (peak() - base) / max(block.nvals, 1),
           "after_B_per_entry": (resident() - base) / max(block.nvals, 1),
           "held_B_per_entry": {part: n / max(block.nvals, 1)
                                for part, n in backends.held_bytes(block).items()},
           "build_seconds": build_seconds, "bfs_seconds": bfs_seconds,
           "reached": levels.nvals}
    return gb.default_grid().rank, gb.default_grid().comm.allgather_object(row)


def run_graphblas(scale, source):
    import graphblas as grb

    import gblas2d as gb
    from gblas2d import algorithms

    grb.ss.config["nthreads"] = 1
    warm_up(grb, lambda: grb.Matrix.from_coo([0, 1], [1, 0], 1.0, nrows=4, ncols=4))
    src, dst = gb.generators.rmat_edges(scale, 16)
    base = resident()
    start = time.perf_counter()
    keep = src != dst
    src, dst = src[keep], dst[keep]
    A = grb.Matrix.from_coo(np.concatenate([src, dst]), np.concatenate([dst, src]), 1.0,
                            nrows=1 << scale, ncols=1 << scale)
    del src, dst, keep
    build_seconds = time.perf_counter() - start
    build_peak = peak()
    start = time.perf_counter()
    levels = algorithms.bfs_levels(A, source)
    bfs_seconds = time.perf_counter() - start
    return [{"rank": 0, "entries": A.nvals,
             "build_peak_B_per_entry": (build_peak - base) / A.nvals,
             "bfs_peak_B_per_entry": (peak() - base) / A.nvals,
             "after_B_per_entry": (resident() - base) / A.nvals,
             "held_B_per_entry": {"suitesparse": A.ss.nbytes / A.nvals},
             "build_seconds": build_seconds, "bfs_seconds": bfs_seconds,
             "reached": levels.nvals,
             "note": "edge list drawn before the baseline (rmat_edges), as a user would have it"}]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=18)
    parser.add_argument("--source", type=int, default=0)
    parser.add_argument("--peer", choices=["graphblas", "none"], default="graphblas")
    parser.add_argument("--engine", choices=["gblas2d", "graphblas"], default="gblas2d",
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.engine == "graphblas":
        print(json.dumps(run_graphblas(args.scale, args.source)))
        return
    rank, rows = run_gblas2d(args.scale, args.source)
    if rank:
        return
    peers = []
    if args.peer == "graphblas":
        # A process of its own, outside the MPI job (it must not join rank 0's).
        env = outside_mpi_env()
        done = subprocess.run([sys.executable, __file__, "--scale", str(args.scale),
                               "--source", str(args.source), "--engine", "graphblas"],
                              capture_output=True, text=True, env=env, check=True)
        peers = json.loads(done.stdout.strip().splitlines()[-1])
    nprocs = len(rows)
    print(f"kron:{args.scale} BFS from {args.source}, bytes per local entry "
          f"(resident memory above the warmed-up interpreter)")
    print(f"{'engine':<24}{'rank':>5}{'entries':>12}{'build peak':>12}{'BFS peak':>10}"
          f"{'after':>8}  held by part")
    for name, group in (("gblas2d", rows), ("python-graphblas (1 thr)", peers)):
        for r in group:
            held = ", ".join(f"{k} {v:.1f}" for k, v in r["held_B_per_entry"].items() if v)
            print(f"{name:<24}{r['rank']:>5}{r['entries']:>12,}"
                  f"{r['build_peak_B_per_entry']:>12.1f}{r['bfs_peak_B_per_entry']:>10.1f}"
                  f"{r['after_B_per_entry']:>8.1f}  {held}")
    os.makedirs(RESULTS, exist_ok=True)
    path = os.path.join(RESULTS, f"memory_scale{args.scale}_{nprocs}ranks.json")
    with open(path, "w") as f:
        json.dump({"scale": args.scale, "source": args.source, "ranks": nprocs,
                   "gblas2d": rows, "python_graphblas": peers}, f, indent=1)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
