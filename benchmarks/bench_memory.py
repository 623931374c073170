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

``--build from_coo`` measures ``Matrix.from_coo`` alone, on R-MAT's edge list (edge factor 16,
one value for every edge) as its caller has it: ``--input share``, each rank its own part of
the list (``rmat_edges(part=rank, nparts=P)``, ``distributed=True``), or ``--input
replicated``, the whole list on every rank. Per rank, above the resident memory just before
the call, with the input made and the heap's freed memory handed back (``malloc_trim``, so a
rank's figure is not what its allocator happens to keep): the memory held after the call and
its peak during the call (``VmHWM``, reset before it), per entry of the rank's block; then
numpy's bytes held and at the peak in a second build, as tracemalloc sees them. The peer,
python-graphblas's ``Matrix.from_coo`` of the whole list at one process and one thread, gets
the same resident figures (SuiteSparse's memory is not numpy's, so no tracemalloc).
Results go to ``benchmarks/results/memory_from_coo_<input>_scale<S>_<P>ranks.json``.

    mpiexec -n 4 python benchmarks/bench_memory.py --build from_coo --scale 20 --input share
"""

import argparse
import gc
import json
import os
import subprocess
import sys
import time
import tracemalloc

import numpy as np
from _common import outside_mpi_env, peak, peak_since_reset, reset_peak, resident, trim

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


def measure(build, entries, sync=lambda: None, numpy_bytes=True):
    """The figures of ``build()`` per entry (``entries(built)``): resident memory held after it
    and at its peak, above what the process held just before, and its seconds; then, with
    ``numpy_bytes``, numpy's bytes held and at the peak in a second build (tracemalloc)."""
    gc.collect()
    trim()
    sync()
    base = resident()
    reset_peak()
    start = time.perf_counter()
    built = build()
    seconds = time.perf_counter() - start
    top = peak_since_reset()
    trim()
    n = max(entries(built), 1)
    row = {"entries": entries(built), "held_B_per_entry": (resident() - base) / n,
           "peak_B_per_entry": (top - base) / n, "seconds": seconds}
    if numpy_bytes:
        # (the first build's matrix goes first: python-graphblas's objects are freed by the
        # cycle collector)
        built = None
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        sync()
        built = build()
        held, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        row["numpy_held_B_per_entry"] = (held - before) / n
        row["numpy_peak_B_per_entry"] = (top - before) / n
    return built, row


def from_coo_gblas2d(scale, shared):
    import gblas2d as gb
    from gblas2d import backends

    grid = gb.default_grid()
    warm_up(gb, lambda: gb.Matrix.from_coo([0, 1], [1, 0], 1.0, nrows=4, ncols=4,
                                           distributed=shared))
    part, nparts = (grid.rank, grid.nprocs) if shared else (0, 1)
    src, dst = gb.generators.rmat_edges(scale, 16, part=part, nparts=nparts)
    n = 1 << scale
    A, row = measure(lambda: gb.Matrix.from_coo(src, dst, 1.0, nrows=n, ncols=n,
                                                distributed=shared),
                     lambda M: M.block.nvals, grid.comm.barrier)
    row.update(rank=grid.rank, input_edges=len(src),
               block_B_per_entry={part: b / max(row["entries"], 1)
                                  for part, b in backends.held_bytes(A.block).items() if b})
    return grid.rank, grid.comm.allgather_object(row)


def from_coo_graphblas(scale):
    import graphblas as grb

    import gblas2d as gb

    grb.ss.config["nthreads"] = 1
    warm_up(grb, lambda: grb.Matrix.from_coo([0, 1], [1, 0], 1.0, nrows=4, ncols=4))
    src, dst = gb.generators.rmat_edges(scale, 16)
    n = 1 << scale
    A, row = measure(lambda: grb.Matrix.from_coo(src, dst, 1.0, nrows=n, ncols=n),
                     lambda M: M.nvals, numpy_bytes=False)
    row.update(rank=0, input_edges=len(src),
               block_B_per_entry={"suitesparse": A.ss.nbytes / max(A.nvals, 1)})
    return [row]


def main_from_coo(args):
    shared = args.input == "share"
    if args.engine == "graphblas":
        print(json.dumps(from_coo_graphblas(args.scale)))
        return
    rank, rows = from_coo_gblas2d(args.scale, shared)
    if rank:
        return
    peers = []
    if args.peer == "graphblas":
        done = subprocess.run([sys.executable, __file__, "--build", "from_coo", "--scale",
                               str(args.scale), "--engine", "graphblas"],
                              capture_output=True, text=True, env=outside_mpi_env(), check=True)
        peers = json.loads(done.stdout.strip().splitlines()[-1])
    nprocs = len(rows)
    print(f"Matrix.from_coo of R-MAT {args.scale}'s edge list ({args.input}), bytes per local "
          f"entry: resident above the memory before the call, numpy's (tracemalloc)")
    print(f"{'engine':<24}{'rank':>5}{'entries':>12}{'held':>7}{'peak':>7}{'numpy held':>12}"
          f"{'numpy peak':>12}{'seconds':>9}  block by part")
    for name, group in (("gblas2d", rows), ("python-graphblas (1 thr)", peers)):
        for r in group:
            parts = ", ".join(f"{k} {v:.1f}" for k, v in r["block_B_per_entry"].items())
            numpy_part = "".join(f"{r[k]:>12.1f}" if k in r else f"{'-':>12}"
                                 for k in ("numpy_held_B_per_entry", "numpy_peak_B_per_entry"))
            print(f"{name:<24}{r['rank']:>5}{r['entries']:>12,}{r['held_B_per_entry']:>7.1f}"
                  f"{r['peak_B_per_entry']:>7.1f}{numpy_part}{r['seconds']:>9.2f}  {parts}")
    os.makedirs(RESULTS, exist_ok=True)
    path = os.path.join(RESULTS, f"memory_from_coo_{args.input}_scale{args.scale}_"
                                 f"{nprocs}ranks.json")
    with open(path, "w") as f:
        json.dump({"scale": args.scale, "edge_factor": 16, "input": args.input,
                   "ranks": nprocs, "threads": {"gblas2d": os.environ.get(
                       "GBLAS2D_THREADS", "default"), "python_graphblas": 1},
                   "load_average": os.getloadavg()[0],
                   "gblas2d": rows, "python_graphblas": peers}, f, indent=1)
    print(f"wrote {path}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=18)
    parser.add_argument("--source", type=int, default=0)
    parser.add_argument("--peer", choices=["graphblas", "none"], default="graphblas")
    parser.add_argument("--build", choices=["bfs", "from_coo"], default="bfs",
                        help="a BFS on a generated graph, or Matrix.from_coo alone")
    parser.add_argument("--input", choices=["share", "replicated"], default="share",
                        help="from_coo's input: each rank its share of the edges, or all")
    parser.add_argument("--engine", choices=["gblas2d", "graphblas"], default="gblas2d",
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.build == "from_coo":
        main_from_coo(args)
        return
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
