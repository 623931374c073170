"""Matrix-vector products on a Graph 500 RMAT graph: gblas2d beside python-graphblas.

Run unchanged on one process or under ``mpiexec -n P``::

    python benchmarks/bench_mxv.py --scale 18
    mpiexec -n 2 python benchmarks/bench_mxv.py --scale 18

Every rank builds its part of the graph with ``gblas2d.generators.rmat`` (the graph is the same
at any P). Timed on gblas2d, best of ``--repeat`` runs after a warm-up, each run started after a
barrier and timed as the slowest rank:

* ``mxv_plus_times``: ``y = A (+.*) x``, x dense float64
* ``vxm_plus_times``: ``y = x (+.*) A``
* ``mxv_min_plus``: ``y = A (min.+) x``
* ``vxm_any_pair``: ``w = q (any.pair) A``, q a frontier of 1% of the vertices
* ``vxm_any_pair_masked``: ``w(~visited.S, replace) << q (any.pair) A``, visited 5% (q in it)

Then the same products with python-graphblas (SuiteSparse) on the whole graph, on rank 0 only
while the other ranks sleep (they poll a non-blocking barrier, so they take no core from it),
with SuiteSparse's default thread count and with one thread. Per product: seconds (wall, and
CPU seconds summed over ranks and threads, which other load on the machine skews less), ratios,
edges per second (nvals(A) / seconds), the bytes received per rank (the most over ranks) and
the direction gblas2d chose. Peak RSS per rank is reported (the most over ranks). Rank 0
prints a table and writes JSON (to a temporary file, then renamed) to ``--output``, by default
to ``benchmarks/runs/``, which git ignores: the committed reference results in
``benchmarks/results/`` change only when ``--output`` names one of them.
"""

import argparse
import os
import platform
import time
from pathlib import Path

import numpy as np
from _common import (
    idle_wait,
    peak_rss_mib,
    profile_one,
    slowest,
    time_collective,
    time_local,
    write_json,
)

import gblas2d as gb
from gblas2d import semiring
from gblas2d.io.generators import rmat, rmat_edges

OPS = ["mxv_plus_times", "vxm_plus_times", "mxv_min_plus", "vxm_any_pair",
       "vxm_any_pair_masked"]


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--scale", type=int, default=18)
    p.add_argument("--edge-factor", type=int, default=16)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--directed", action="store_true",
                   help="keep the directed RMAT graph (default: symmetric, as Graph 500 BFS)")
    p.add_argument("--output", default=None,
                   help="JSON path (default benchmarks/runs/mxv_<P>ranks.json, not a committed "
                        "reference result)")
    p.add_argument("--no-graphblas", action="store_true", help="time gblas2d only")
    p.add_argument("--profile", action="store_true",
                   help="print rank 0's cProfile of one gblas2d mxv_plus_times")
    return p.parse_args(argv)


def default_output(nprocs):
    """Where a run writes without ``--output``: a folder git ignores."""
    return Path(__file__).resolve().parent / "runs" / f"mxv_{nprocs}ranks.json"


def inputs(n, seed):
    """Dense x, a 1% frontier q and a 5% visited set holding q: the same arrays on every rank."""
    rng = np.random.default_rng([seed, 1])
    x = rng.random(n)
    picked = rng.choice(n, size=max(1, n // 20), replace=False)
    frontier = np.sort(picked[:max(1, n // 100)])
    return x, frontier, np.sort(picked)


def gblas2d_products(A, x_dense, frontier, visited_idx):
    """Closures computing each product on gblas2d (collective when called)."""
    n = A.nrows
    x = gb.Vector.from_dense(x_dense)
    q = gb.Vector.from_coo(frontier, True, size=n)
    visited = gb.Vector.from_coo(visited_idx, True, size=n)
    w = gb.Vector(A.dtype, n)

    def masked():
        w(~visited.S, replace=True) << q.vxm(A, semiring.any_pair)
        return w

    return {
        "mxv_plus_times": lambda: A.mxv(x, semiring.plus_times).new(),
        "vxm_plus_times": lambda: x.vxm(A, semiring.plus_times).new(),
        "mxv_min_plus": lambda: A.mxv(x, semiring.min_plus).new(),
        "vxm_any_pair": lambda: q.vxm(A, semiring.any_pair).new(),
        "vxm_any_pair_masked": masked,
    }


def graphblas_products(grb, A, x_dense, frontier, visited_idx):
    """The same closures on a python-graphblas Matrix."""
    n = A.nrows
    x = grb.Vector.from_dense(x_dense)
    q = grb.Vector.from_coo(frontier, True, size=n)
    visited = grb.Vector.from_coo(visited_idx, True, size=n)
    w = grb.Vector(A.dtype, n)
    sr = grb.semiring

    def masked():
        w(~visited.S, replace=True) << q.vxm(A, sr.any_pair)
        return w

    return {
        "mxv_plus_times": lambda: A.mxv(x, sr.plus_times).new(),
        "vxm_plus_times": lambda: x.vxm(A, sr.plus_times).new(),
        "mxv_min_plus": lambda: A.mxv(x, sr.min_plus).new(),
        "vxm_any_pair": lambda: q.vxm(A, sr.any_pair).new(),
        "vxm_any_pair_masked": masked,
    }


def time_gblas2d(comm, run, repeat):
    """Collective. Cold call, then one measured call (bytes, trace), then the best timed run."""
    comm.barrier()
    start = time.perf_counter()
    run()
    cold = slowest(comm, time.perf_counter() - start)
    with gb.recording() as rec, gb.trace() as events:
        result = run()
    received = int(comm.allreduce(np.array([rec.bytes()], dtype=np.int64), "max")[0])
    sent = int(comm.allreduce(np.array([rec.bytes(direction="sent")], dtype=np.int64),
                              "max")[0])
    times, cpu_max, cpu_sum = time_collective(comm, run, repeat)
    idx, vals = result.to_coo()
    return {
        "seconds": min(times), "seconds_all": times, "first_call_seconds": cold,
        "cpu_seconds_max": min(cpu_max), "cpu_seconds_sum": min(cpu_sum),
        "bytes_received_max": received, "bytes_sent_max": sent,
        "directions": [e["direction"] for e in events],
        "expand": sorted({f for e in events for f in e["expand"]}),
        "fold": sorted({f for e in events for f in e["fold"]}),
    }, (idx.astype(np.int64), vals)


def graphblas_side(args, n, x_dense, frontier, visited_idx, results):
    """Build the whole graph with python-graphblas and time every product (one process)."""
    import graphblas as grb

    start = time.perf_counter()
    src, dst = rmat_edges(args.scale, args.edge_factor, seed=args.seed)
    keep = src != dst
    src, dst = src[keep], dst[keep]
    if not args.directed:
        src, dst = np.concatenate([src, dst]), np.concatenate([dst, src])
    # a scalar value: repeated edges become one entry of 1.0, as gblas2d's rmat makes them
    A = grb.Matrix.from_coo(src, dst, 1.0, nrows=n, ncols=n)
    del src, dst, keep
    build = time.perf_counter() - start
    default_threads = grb.ss.config["nthreads"]
    products = graphblas_products(grb, A, x_dense, frontier, visited_idx)
    out = {"build_seconds": build, "nvals": A.nvals, "default_nthreads": default_threads,
           "ops": {}}
    for threads in (default_threads, 1):
        grb.ss.config["nthreads"] = threads
        for name in OPS:
            best, times, cpu, _ = time_local(products[name], args.repeat)
            out["ops"].setdefault(name, {})[f"seconds_{threads}t"] = best
            out["ops"][name][f"seconds_all_{threads}t"] = times
            out["ops"][name][f"cpu_seconds_{threads}t"] = cpu
    grb.ss.config["nthreads"] = default_threads
    for name in OPS:
        idx, vals = products[name]().to_coo()
        mine_idx, mine_vals = results[name]
        out["ops"][name]["agrees"] = bool(
            np.array_equal(idx.astype(np.int64), mine_idx)
            and np.allclose(vals.astype(np.float64), mine_vals.astype(np.float64),
                            rtol=1e-9, atol=0.0))
    return out


def table(report):
    nthr = report.get("graphblas", {}).get("default_nthreads")
    head = f"{'op':<22}{'gblas2d s':>11}{'grb s':>10}{'grb 1t s':>10}{'ratio':>8}" \
           f"{'ratio 1t':>9}{'core-s ratio':>13}{'cpu ratio':>10}{'gblas2d e/s':>13}" \
           f"{'recv MiB':>10}  direction"
    lines = [f"P={report['nprocs']} grid={report['grid']} scale={report['scale']} "
             f"nvals={report['nvals']} build {report['build_seconds']:.2f}s "
             f"graphblas nthreads={nthr} peak RSS/rank {report['peak_rss_mib_gblas2d']:.0f} "
             f"MiB", head]

    def fmt(value, width, digits):
        return f"{value:>{width}.{digits}f}" if value is not None else f"{'-':>{width}}"

    for name, op in report["ops"].items():
        grb = op.get("graphblas_seconds")
        grb1 = op.get("graphblas_seconds_1t")
        lines.append(
            f"{name:<22}{op['seconds']:>11.4f}{fmt(grb, 10, 4)}{fmt(grb1, 10, 4)}"
            f"{fmt(op.get('ratio'), 8, 2)}{fmt(op.get('ratio_1t'), 9, 2)}"
            f"{fmt(op.get('core_seconds_ratio'), 13, 2)}{fmt(op.get('cpu_seconds_ratio'), 10, 2)}"
            f"{op['edges_per_second']:>13.3g}"
            f"{op['bytes_received_max'] / 2**20:>10.2f}  {','.join(op['directions'])}")
    return "\n".join(lines)


def main(argv=None):
    args = parse_args(argv)
    grid = gb.default_grid()
    comm = grid.comm
    nprocs = grid.nprocs

    load_before = os.getloadavg()
    comm.barrier()
    start = time.perf_counter()
    A = rmat(args.scale, args.edge_factor, seed=args.seed, symmetric=not args.directed)
    build = slowest(comm, time.perf_counter() - start)
    n = A.nrows
    x_dense, frontier, visited_idx = inputs(n, args.seed)
    products = gblas2d_products(A, x_dense, frontier, visited_idx)

    ops, results = {}, {}
    for name in OPS:
        ops[name], results[name] = time_gblas2d(comm, products[name], args.repeat)
        ops[name]["edges_per_second"] = A.nvals / ops[name]["seconds"]
    if args.profile:
        profile_one(comm, products["mxv_plus_times"])
    rss = float(comm.allreduce(np.array([peak_rss_mib()]), "max")[0])

    report = {
        "benchmark": "mxv", "nprocs": nprocs, "grid": f"{grid.nrows}x{grid.ncols}",
        "scale": args.scale, "edge_factor": args.edge_factor, "seed": args.seed,
        "symmetric": not args.directed, "n": n, "nvals": A.nvals, "repeat": args.repeat,
        "frontier_nvals": len(frontier), "visited_nvals": len(visited_idx),
        "build_seconds": build, "peak_rss_mib_gblas2d": rss, "ops": ops,
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(),
                    "python": platform.python_version(), "numpy": np.__version__,
                    "loadavg_before": load_before},
    }
    if not args.no_graphblas:
        failure = None
        if comm.rank == 0:
            try:
                report["graphblas"] = graphblas_side(args, n, x_dense, frontier, visited_idx,
                                                     results)
            except Exception as exc:  # re-raised after the barrier, so no rank is left waiting
                failure = exc
        idle_wait(comm)
        comm.settle(failure)
        if comm.rank == 0:
            grb = report["graphblas"]
            for name, op in ops.items():
                g = grb["ops"][name]
                op["graphblas_seconds"] = g[f"seconds_{grb['default_nthreads']}t"]
                op["graphblas_seconds_1t"] = g["seconds_1t"]
                op["graphblas_agrees"] = g["agrees"]
                op["ratio"] = op["seconds"] / op["graphblas_seconds"]
                op["ratio_1t"] = op["seconds"] / op["graphblas_seconds_1t"]
                op["core_seconds_ratio"] = op["seconds"] * nprocs / op["graphblas_seconds_1t"]
                # CPU time is robust to other load on the machine (MPI polling counts in it)
                op["graphblas_cpu_seconds_1t"] = g["cpu_seconds_1t"]
                op["cpu_seconds_ratio"] = op["cpu_seconds_sum"] / g["cpu_seconds_1t"]
            import graphblas

            report["graphblas"]["version"] = graphblas.__version__
    report["peak_rss_mib_end"] = float(comm.allreduce(np.array([peak_rss_mib()]), "max")[0])
    # other processes on the machine skew the figures: the load average says how busy it was
    report["machine"]["loadavg_after"] = os.getloadavg()
    if comm.rank == 0:
        print(table(report))
        path = Path(args.output) if args.output else default_output(nprocs)
        write_json(path, report)
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
