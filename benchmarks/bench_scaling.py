"""BFS and SSSP as graphs grow: 2D meshes and R-MAT, gblas2d beside SuiteSparse and scipy.

A mesh of K x K vertices has about 2K BFS levels with small frontiers, so an engine whose every
operation costs O(n) is quadratic there; R-MAT has a handful of levels with huge frontiers.
This script shows both ends in one run::

    python benchmarks/bench_scaling.py --repeat 2               # meshes 250..2000, R-MAT 16..18
    python benchmarks/bench_scaling.py --quick                  # meshes 60, 120; R-MAT 10
    mpiexec -n 2 python benchmarks/bench_scaling.py --meshes 500 1000 --rmat 18

Graphs: ``grid_graph(K, K)`` (4-neighbour mesh, unit weights) and ``rmat(scale, 16,
symmetric=True, weights="uniform")`` with weights mapped to ``1 - w`` in (0, 1]. BFS runs on the
pattern from vertex 0 (a mesh corner), SSSP (``sssp``'s default, Bellman-Ford) on the weights
from the same vertex, on graphs of at most ``--sssp-max-n`` vertices (Bellman-Ford over a mesh
of millions of vertices takes minutes on every engine); on R-MAT the source is the first vertex
with an edge.

Engines: gblas2d at the P of the run (best of ``--repeat`` calls, each after a barrier, timed
as the slowest rank); python-graphblas running the same algorithm code on rank 0 with 1 and 2
SuiteSparse threads; ``scipy.sparse.csgraph`` (breadth_first_order, dijkstra). Results are
checked against gblas2d's: levels equal, distances within a relative 1e-9.

Columns: seconds per engine; *ratio* = gblas2d / SuiteSparse one thread and two threads;
*levels*; *B/entry*: the resident memory the two gblas2d matrices (weights and pattern) hold
after the build, per entry of one matrix, on the busiest rank (the build's own peak is in
docs/benchmarks.md). Per level of gblas2d's BFS on the largest mesh and R-MAT: frontier
size and the seconds of the level's product on this rank (``gb.trace()``; the level's assign
is not in it). Rank 0 writes
``results/scaling_<P>ranks.json`` and ``results/scaling_<P>ranks.png`` (seconds against n, and
seconds per level against the frontier size).
"""

import argparse
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from _common import idle_wait, peak_rss_mib, time_collective, time_local, write_json
from gblas2d.algorithms import bfs_levels, sssp
from scipy.sparse import csgraph

import gblas2d as gb
from gblas2d import generators

ALGOS = ("bfs", "sssp")


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--meshes", type=int, nargs="*", default=[250, 500, 1000, 2000])
    p.add_argument("--rmat", type=int, nargs="*", default=[16, 18])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--sssp-max-n", type=int, default=300_000,
                   help="skip SSSP on larger graphs (Bellman-Ford on a big mesh takes minutes "
                   "on every engine)")
    p.add_argument("--quick", action="store_true", help="meshes 60 120, R-MAT 10, repeat 1")
    p.add_argument("--output", default=None)
    args = p.parse_args(argv)
    if args.quick:
        args.meshes, args.rmat, args.repeat = [60, 120], [10], 1
    return args


def resident_bytes():
    """This process's resident set now (Linux), where the peak RSS only ever grows. Freed heap
    is first handed back to the system, or a new graph would reuse what the last one's peers
    left and seem to cost nothing."""
    import ctypes
    import gc

    gc.collect()
    ctypes.CDLL("libc.so.6").malloc_trim(0)
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def build(spec):
    """Collective. (name, weighted Matrix, pattern Matrix, source, bytes held per entry)."""
    before = resident_bytes()
    kind, size = spec
    if kind == "mesh":
        W = generators.grid_graph(size, size, weights="uniform")
        name = f"mesh {size}x{size}"
    else:
        W = generators.rmat(size, 16, symmetric=True, weights="uniform")
        name = f"rmat {size}"
    W = W.apply(gb.binary.rminus, right=1.0).new()
    A = W.apply(gb.unary.one).new()
    grid = gb.default_grid()
    local = W.local_block()[2].size
    grown = grid.comm.allreduce(np.array([resident_bytes() - before]), "max")[0]
    per_entry = float(grown / max(grid.comm.allreduce(np.array([local]), "max")[0], 1))
    source = 0
    if kind == "rmat":
        degree = A.reduce_rowwise(gb.monoid.plus).new()
        source = int(degree.to_coo()[0][0])
    return name, W, A, source, per_entry


def peers(W, source, repeat, algos):
    """Rank 0 only: the same code on python-graphblas at 1 and 2 threads, and scipy."""
    import graphblas as grb

    r, c, v = W.to_coo()
    n = W.nrows
    GW = grb.Matrix.from_coo(r, c, v, nrows=n, ncols=n)
    GA = grb.Matrix.from_coo(r, c, 1.0, nrows=n, ncols=n)
    csr = sp.csr_array((v, (r.astype(np.int64), c.astype(np.int64))), shape=(n, n))
    out = {}
    default = grb.ss.config["nthreads"]
    runs = {"graphblas": {"bfs": lambda: bfs_levels(GA, source), "sssp": lambda: sssp(GW, source)},
            "scipy": {"bfs": lambda: csgraph.breadth_first_order(csr, source),
                      "sssp": lambda: csgraph.dijkstra(csr, indices=source)}}
    for threads in (1, 2):
        grb.ss.config["nthreads"] = threads
        out[f"graphblas_{threads}t"] = {a: time_local(runs["graphblas"][a], repeat)
                                        for a in algos}
    grb.ss.config["nthreads"] = default
    out["scipy"] = {a: time_local(runs["scipy"][a], repeat) for a in algos}
    return out


def same_levels(mine, theirs):
    ti, tv = theirs.to_coo()
    mi, mv = mine
    return bool(np.array_equal(mi, ti) and np.array_equal(mv, tv))


def close_distances(mine, theirs):
    ti, tv = theirs.to_coo()
    mi, mv = mine
    return bool(np.array_equal(mi, ti) and np.allclose(mv, tv, rtol=1e-9))


def per_level(A, source):
    """Collective. (frontier nvals, seconds) of each product of one gblas2d BFS."""
    with gb.trace() as events:
        bfs_levels(A, source)
    return [(e["frontier_nvals"], e["seconds"], e["direction"]) for e in events]


def run_graph(comm, spec, repeat, sssp_max_n):
    name, W, A, source, per_entry = build(spec)
    row = {"graph": name, "n": W.nrows, "nvals": W.nvals, "source": source,
           "bytes_per_entry_held": per_entry}
    algos = ALGOS if W.nrows <= sssp_max_n else ALGOS[:1]
    calls = {"bfs": lambda: bfs_levels(A, source), "sssp": lambda: sssp(W, source)}
    for algo in algos:
        call = calls[algo]
        result = call()
        times, _, _ = time_collective(comm, call, repeat)
        row[algo] = {"gblas2d": min(times), "result": result.to_coo()}
    row["levels"] = len(per_level(A, source))
    if comm.rank == 0:
        theirs = peers(W, source, repeat, algos)
        for engine, figures in theirs.items():
            for algo in algos:
                best, _, _, result = figures[algo]
                row[algo][engine] = best
                if engine != "scipy":
                    check = same_levels if algo == "bfs" else close_distances
                    row[algo][f"{engine}_agrees"] = check(row[algo]["result"], result)
    # the other ranks sleep in this barrier while rank 0 times the peers
    idle_wait(comm)
    for algo in algos:
        row[algo].pop("result")
    return row, A, source


def table(rows):
    print(f"{'graph':16s} {'n':>10s} {'levels':>7s} {'B/entry':>8s} {'algo':5s} "
          f"{'gblas2d':>9s} {'ss 1t':>9s} {'ss 2t':>9s} {'scipy':>9s} {'/1t':>6s} {'/2t':>6s}")
    for row in rows:
        for algo in (a for a in ALGOS if a in row):
            f = row[algo]
            print(f"{row['graph']:16s} {row['n']:>10,d} {row['levels']:>7d} "
                  f"{row['bytes_per_entry_held']:>8.1f} {algo:5s} {f['gblas2d']:>9.4f} "
                  f"{f['graphblas_1t']:>9.4f} {f['graphblas_2t']:>9.4f} {f['scipy']:>9.4f} "
                  f"{f['gblas2d'] / f['graphblas_1t']:>6.2f} "
                  f"{f['gblas2d'] / f['graphblas_2t']:>6.2f}")


def plot(report, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
    for ax, algo in zip(axes[:2], ("bfs", "sssp"), strict=True):
        for kind, marker in (("mesh", "o"), ("rmat", "s")):
            rows = [r for r in report["graphs"] if r["graph"].startswith(kind) and algo in r]
            if not rows:
                continue
            n = [r["n"] for r in rows]
            for engine, style in (("gblas2d", "-"), ("graphblas_1t", "--"), ("scipy", ":")):
                ax.loglog(n, [r[algo][engine] for r in rows], style, marker=marker,
                          label=f"{engine} {kind}")
        ax.set_xlabel("vertices n")
        ax.set_ylabel("seconds")
        ax.set_title(f"{algo}: time against n (P={report['nprocs']})")
        ax.legend(fontsize=7)
    ax = axes[2]
    for label, levels in report["levels"].items():
        frontier = [max(f, 1) for f, _, _ in levels]
        ax.loglog(frontier, [s for _, s, _ in levels], ".", label=label)
    ax.set_xlabel("frontier nvals")
    ax.set_ylabel("seconds of the level's product")
    ax.set_title("gblas2d BFS: product time per level against frontier")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv=None):
    args = parse_args(argv)
    comm = gb.default_grid().comm
    specs = [("mesh", k) for k in args.meshes] + [("rmat", s) for s in args.rmat]
    rows, levels = [], {}
    start = time.perf_counter()
    for spec in specs:
        row, A, source = run_graph(comm, spec, args.repeat, args.sssp_max_n)
        rows.append(row)
        if spec in (max((s for s in specs if s[0] == "mesh"), default=None),
                    max((s for s in specs if s[0] == "rmat"), default=None)):
            levels[row["graph"]] = per_level(A, source)
        if comm.rank == 0:
            print(f"  {row['graph']}: {time.perf_counter() - start:.0f} s", flush=True)
        del A
    report = {"nprocs": comm.size, "grid": list(gb.default_grid().shape),
              "backend": gb.backends.backend_name(),
              "threads_per_rank": gb.backends.threads_per_rank(), "graphs": rows,
              "levels": levels, "peak_rss_mib_rank0": peak_rss_mib()}
    if comm.rank == 0:
        table(rows)
        path = Path(args.output) if args.output else \
            Path(__file__).parent / "results" / f"scaling_{comm.size}ranks.json"
        write_json(path, report)
        plot(report, path.with_suffix(".png"))
        print(f"wrote {path} and {path.with_suffix('.png')}")


if __name__ == "__main__":
    main()
