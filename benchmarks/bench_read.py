"""Reading a graph file: gblas2d's parallel readers at any rank count beside python-graphblas
on the same file: for an edge list what its user writes (numpy's loadtxt, then
``Matrix.from_coo``), for Matrix Market its own ``graphblas.io.mmread``, for a Graphalytics
graph (which it cannot read) loadtxt of both files and a searchsorted of the ids.

    python benchmarks/bench_read.py --scale 20
    mpiexec -n 2 python benchmarks/bench_read.py --scale 20 --format mtx

Rank 0 writes R-MAT's edges (``rmat_edges``, edge factor 16) once to ``--path``: one
``src<TAB>dst`` line an edge; a Matrix Market ``coordinate pattern general`` file of the
distinct edges; or a directed Graphalytics graph of them, its ids 3i + 1 in ascending order.
gblas2d reads it with ``read_edgelist``, ``mmread`` or ``read_graphalytics`` (every rank its
own lines); the peer runs in a process of its own, so one engine's peak is not the other's, with
one SuiteSparse thread and scipy's Matrix Market parser at one thread (gblas2d gives it
``GBLAS2D_THREADS`` a rank). Per rank: seconds, and per entry the rank holds after, the peak
resident memory while reading and the memory held after it, above the resident memory just
before the read with the heap's freed memory handed back (``malloc_trim``), the peak reset
(``VmHWM``) and the previous read's matrix freed; the largest over ``--repeat`` reads, and
the best of their times.
Results go to ``benchmarks/results/read_<format>_scale<S>_<P>ranks.json``.

``--gzip`` reads the edge list or Matrix Market file gzipped (``gzip -6`` of the same text,
written once beside it): every gblas2d rank gunzips the stream and keeps its share of the
text, the peer gunzips it whole (numpy's loadtxt and scipy's mmread read ``.gz`` themselves).
Results then go to ``read_<format>_gz_scale<S>_<P>ranks.json``.
"""

import argparse
import gc
import gzip
import json
import os
import shutil
import subprocess
import sys
import time

import numpy as np
from _common import outside_mpi_env, peak_since_reset, reset_peak, resident, trim

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")



def write_lines(f, src, dst):
    """``src<TAB>dst`` lines, a batch at a time."""
    for k in range(0, len(src), 1 << 20):
        part = np.char.add(np.char.add(src[k:k + (1 << 20)].astype(str), "\t"),
                           dst[k:k + (1 << 20)].astype(str))
        f.write("\n".join(part.tolist()) + "\n")


def write_graphalytics(prefix, src, dst):
    """A directed Graphalytics graph of these edges, each listed once, the vertex ids (those
    with an edge, times 3 plus 1: not 0..n-1) in ascending order."""
    name = os.path.basename(prefix)
    keys = np.unique(src * (int(max(src.max(), dst.max())) + 1) + dst) if len(src) else src
    width = int(max(src.max(), dst.max())) + 1 if len(src) else 1
    src, dst = keys // width * 3 + 1, keys % width * 3 + 1
    with open(prefix + ".v", "w") as f:
        f.write("\n".join(np.unique(np.concatenate([src, dst])).astype(str).tolist()) + "\n")
    with open(prefix + ".e", "w") as f:
        write_lines(f, src, dst)
    with open(prefix + ".properties", "w") as f:
        f.write(f"graph.{name}.directed = true\n")


def write_file(path, scale, form):
    """R-MAT ``scale``'s edges, a batch of lines at a time."""
    import gblas2d as gb

    src, dst = gb.generators.rmat_edges(scale, 16)
    if form == "graphalytics":
        write_graphalytics(path, src, dst)
        return
    with open(path + ".tmp", "w") as f:
        if form == "mtx":
            keys = np.unique(src * (1 << scale) + dst)
            src, dst = keys >> scale, keys & ((1 << scale) - 1)
            f.write(f"%%MatrixMarket matrix coordinate pattern general\n"
                    f"{1 << scale} {1 << scale} {len(keys)}\n")
            src, dst = src + 1, dst + 1
        else:
            f.write(f"# R-MAT scale {scale}, edge factor 16\n")
        write_lines(f, src, dst)
    os.replace(path + ".tmp", path)


def reader(form):
    """gblas2d's reader of the format, with the options the peer matches."""
    from gblas2d.io import mmread, read_edgelist, read_graphalytics

    if form == "mtx":
        return mmread
    if form == "graphalytics":
        return lambda path: read_graphalytics(path)[0]
    return lambda path: read_edgelist(path, dtype="BOOL")


def write_warm(path, form):
    """A tiny file of the format, read first so no import is timed."""
    if form == "graphalytics":
        write_graphalytics(path, np.array([0, 1]), np.array([1, 2]))
        return
    with open(path, "w") as f:
        f.write("%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 3\n"
                if form == "mtx" else "0 1\n1 2\n")


def measured_reads(read, path, repeat, entries, sync=lambda: None, seconds=lambda s: s):
    """Read ``repeat`` times: (the last matrix, the best seconds, the largest peak and held
    bytes of a read above the memory just before it). The previous read's matrix is freed
    first (python-graphblas's objects, which hold the blocks, go with the cycle collector)."""
    best, top, held, A = float("inf"), 0, 0, None
    for _ in range(repeat):
        A = None
        gc.collect()
        trim()
        sync()
        base = resident()
        reset_peak()
        start = time.perf_counter()
        A = read(path)
        best = min(best, seconds(time.perf_counter() - start))
        top = max(top, peak_since_reset() - base)
        trim()
        held = max(held, resident() - base)
    n = max(entries(A), 1)
    return A, best, top / n, held / n


def run_gblas2d(path, repeat, form):
    import gblas2d as gb

    comm = gb.default_grid().comm
    read = reader(form)
    read(path + ".warm")
    A, best, top, held = measured_reads(
        read, path, repeat, lambda M: M.block.nvals, comm.barrier,
        lambda s: float(comm.allreduce(np.array([s]), "max")[0]))
    row = {"rank": comm.rank, "entries": A.block.nvals, "nvals": A.nvals, "seconds": best,
           "peak_B_per_entry": top, "held_B_per_entry": held}
    return comm.rank, comm.allgather_object(row)


def run_peer(path, repeat, form):
    import graphblas as grb

    grb.ss.config["nthreads"] = 1

    def read(name):
        if form == "mtx":
            import scipy.io  # noqa: F401  (registers its parser with threadpoolctl)
            from threadpoolctl import threadpool_limits

            # scipy's parser, which python-graphblas calls, at one thread too
            with threadpool_limits(limits=1, user_api="scipy"):
                return grb.io.mmread(name)
        if form == "graphalytics":
            ids = np.loadtxt(name + ".v", dtype=np.int64, ndmin=1)
            edges = np.searchsorted(ids, np.loadtxt(name + ".e", dtype=np.int64, ndmin=2))
            return grb.Matrix.from_coo(edges[:, 0], edges[:, 1], True, nrows=len(ids),
                                       ncols=len(ids))
        edges = np.loadtxt(name, dtype=np.int64, ndmin=2)
        n = int(edges.max()) + 1 if len(edges) else 0
        # a scalar value: repeats are ignored (python-graphblas allows no dup_op with it)
        return grb.Matrix.from_coo(edges[:, 0], edges[:, 1], True, nrows=n, ncols=n)

    read(path + ".warm")
    A, best, top, held = measured_reads(read, path, repeat, lambda M: M.nvals)
    return [{"rank": 0, "entries": A.nvals, "nvals": A.nvals, "seconds": best,
             "peak_B_per_entry": top, "held_B_per_entry": held,
             "note": {"mtx": "graphblas.io.mmread",
                      "graphalytics": "np.loadtxt of both files, np.searchsorted, then "
                                      "Matrix.from_coo(rows, cols, True)"}.get(
                 form, "np.loadtxt, then Matrix.from_coo(rows, cols, True)")}]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=18)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--format", choices=["edgelist", "mtx", "graphalytics"],
                        default="edgelist")
    parser.add_argument("--path", default=None,
                        help="the file (default: /tmp/gblas2d_rmat<S>.txt, .mtx or _ga.v/.e/"
                             ".properties, written once)")
    parser.add_argument("--peer", choices=["graphblas", "none"], default="graphblas")
    parser.add_argument("--gzip", action="store_true",
                        help="read the edge list or Matrix Market file gzipped")
    parser.add_argument("--engine", choices=["gblas2d", "graphblas"], default="gblas2d",
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.gzip and args.format == "graphalytics":
        parser.error("--gzip reads an edge list or a Matrix Market file")
    suffix = {"mtx": ".mtx", "graphalytics": "_ga"}.get(args.format, ".txt")
    plain = args.path or f"/tmp/gblas2d_rmat{args.scale}{suffix}"
    path = plain + ".gz" if args.gzip and not plain.endswith(".gz") else plain
    if args.engine == "graphblas":
        print(json.dumps(run_peer(path, args.repeat, args.format)))
        return
    import gblas2d as gb

    comm = gb.default_grid().comm
    if comm.rank == 0:
        if not os.path.exists(plain + (".e" if args.format == "graphalytics" else "")):
            write_file(plain, args.scale, args.format)
        if path != plain and not os.path.exists(path):
            with open(plain, "rb") as f, gzip.open(path + ".tmp", "wb", compresslevel=6) as g:
                shutil.copyfileobj(f, g, 1 << 22)
            os.replace(path + ".tmp", path)
        write_warm(path + ".warm", args.format)
    comm.barrier()
    rank, rows = run_gblas2d(path, args.repeat, args.format)
    if rank:
        return
    peers = []
    if args.peer == "graphblas":
        # A process of its own, outside the MPI job (it must not join rank 0's).
        env = outside_mpi_env()
        done = subprocess.run([sys.executable, __file__, "--path", path, "--repeat",
                               str(args.repeat), "--format", args.format,
                               "--engine", "graphblas"],
                              capture_output=True, text=True, env=env, check=True)
        peers = json.loads(done.stdout.strip().splitlines()[-1])
    nprocs = len(rows)
    size = sum(os.path.getsize(path + part) for part in
               ((".v", ".e") if args.format == "graphalytics" else ("",)))
    print(f"{path}: {size / 2**20:.0f} MiB, {rows[0]['nvals']:,} entries; best of "
          f"{args.repeat}; bytes per local entry above the memory before a read")
    print(f"{'engine':<28}{'rank':>5}{'entries':>12}{'seconds':>9}{'peak B/entry':>14}"
          f"{'held B/entry':>14}")
    for name, group in ((f"gblas2d ({nprocs} ranks)", rows), ("python-graphblas (1 thr)", peers)):
        for r in group:
            print(f"{name:<28}{r['rank']:>5}{r['entries']:>12,}{r['seconds']:>9.2f}"
                  f"{r['peak_B_per_entry']:>14.1f}{r['held_B_per_entry']:>14.1f}")
    if peers:
        print(f"time ratio gblas2d / peer: {rows[0]['seconds'] / peers[0]['seconds']:.2f}")
    os.makedirs(RESULTS, exist_ok=True)
    kind = f"{args.format}_gz" if args.gzip else args.format
    out = os.path.join(RESULTS, f"read_{kind}_scale{args.scale}_{nprocs}ranks.json")
    with open(out, "w") as f:
        json.dump({"scale": args.scale, "format": args.format, "gzip": args.gzip,
                   "file_bytes": size,
                   "ranks": nprocs,
                   "threads": {"gblas2d": os.environ.get("GBLAS2D_THREADS", "default"),
                               "python_graphblas": 1},
                   "load_average": os.getloadavg()[0],
                   "gblas2d": rows, "python_graphblas": peers}, f, indent=1)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
