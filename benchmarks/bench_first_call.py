"""The cost of a program's first gblas2d call, part by part (issue 32).

    python benchmarks/bench_first_call.py --repeat 8 --json benchmarks/results/first_call.json

Each run is a fresh interpreter that makes the imports and calls of a first program in order
and times each part, wall and CPU: ``import numpy``, ``import scipy.sparse``, the rest of
``import gblas2d``, ``from mpi4py import MPI`` (MPI_Init, timed here on its own: a program on one
process without a launcher no longer starts MPI, ``comm.mpi_world``), the first ``Matrix.from_coo``
(it loads the SuiteSparse backend: python-graphblas, which imports numba, and SuiteSparse's
initialization), the first ``mxv`` (its Vector
included), then a second ``mxv`` and ``from_coo``, warm. A run with ``--split`` times numba
and python-graphblas apart from the rest of the first ``from_coo``. The runs are at one
process and under ``mpiexec -n 2`` (rank 0's figures and rank 1's); the table gives the
least and the median over ``--repeat`` runs of each part. CPU time is the measure on a busy
machine: it counts this process's own work, not the time it waited for a core. Every run has
``OMP_NUM_THREADS=1``, so numpy's OpenBLAS starts no threads of its own.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

PARTS = ("numpy", "scipy.sparse", "gblas2d", "MPI_Init", "numba", "graphblas", "from_coo",
         "mxv", "mxv warm", "from_coo warm", "total")


def child(split):
    """One fresh program, timed part by part; rank 0 and 1 print their parts as JSON."""
    marks = [(time.perf_counter(), time.process_time())]
    parts = {}

    def mark(what):
        marks.append((time.perf_counter(), time.process_time()))
        parts[what] = [1e3 * (marks[-1][k] - marks[-2][k]) for k in (0, 1)]

    import numpy  # noqa: F401
    mark("numpy")
    import scipy.sparse  # noqa: F401
    mark("scipy.sparse")
    import gblas2d as gb
    mark("gblas2d")
    from mpi4py import MPI  # noqa: F401
    mark("MPI_Init")
    grid = gb.default_grid()
    if split:
        import numba  # noqa: F401
        mark("numba")
        import graphblas
        graphblas.init("suitesparse", blocking=False)
        mark("graphblas")
    A = gb.Matrix.from_coo([0, 1, 2], [1, 2, 0], [1.0, 2.0, 3.0], nrows=3, ncols=3)
    mark("from_coo")
    x = gb.Vector.from_coo([0, 1, 2], [1.0, 1.0, 1.0], size=3)
    A.mxv(x, gb.semiring.plus_times).new()
    mark("mxv")
    A.mxv(x, gb.semiring.plus_times).new()
    mark("mxv warm")
    gb.Matrix.from_coo([0, 1, 2], [1, 2, 0], [1.0, 2.0, 3.0], nrows=3, ncols=3)
    mark("from_coo warm")
    parts["total"] = [1e3 * (marks[-1][k] - marks[0][k]) for k in (0, 1)]
    print(json.dumps({"rank": grid.rank, "parts": parts}), flush=True)


def runs(command, repeat):
    """The parts each rank printed, over ``repeat`` fresh runs of ``command``."""
    by_rank = {}
    for _ in range(repeat):
        out = subprocess.run(command, capture_output=True, text=True, check=True,
                             env={**os.environ, "OMP_NUM_THREADS": "1"}).stdout
        # the ranks' lines may interleave: read one JSON object after another
        decoder, at = json.JSONDecoder(), out.find("{")
        while at >= 0:
            row, end = decoder.raw_decode(out, at)
            by_rank.setdefault(row["rank"], []).append(row["parts"])
            at = out.find("{", end)
    return by_rank


def summary(rows):
    """{part: {wall/cpu: (least, median)}} in milliseconds."""
    return {part: {kind: (min(r[part][k] for r in rows),
                          statistics.median(r[part][k] for r in rows))
                   for k, kind in enumerate(("wall_ms", "cpu_ms"))}
            for part in PARTS if part in rows[0]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=8)
    parser.add_argument("--json")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--split", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.split)
    me = [sys.executable, os.path.abspath(__file__), "--child"]
    results = {"cores": os.cpu_count(), "load_average_before": os.getloadavg()}
    results["1 process"] = summary(runs(me, args.repeat)[0])
    results["1 process, numba and python-graphblas apart"] = \
        summary(runs([*me, "--split"], args.repeat)[0])
    two = runs(["mpiexec", "-n", "2", *me], args.repeat)
    for rank in (0, 1):
        results[f"mpiexec -n 2, rank {rank}"] = summary(two[rank])
    results["load_average_after"] = os.getloadavg()
    for name, table in results.items():
        if not isinstance(table, dict):
            print(f"{name}: {table}")
            continue
        print(f"{name} (least / median of {args.repeat} runs, ms)")
        for part, row in table.items():
            print(f"  {part:14s} wall {row['wall_ms'][0]:7.1f} / {row['wall_ms'][1]:7.1f}"
                  f"   cpu {row['cpu_ms'][0]:7.1f} / {row['cpu_ms'][1]:7.1f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
