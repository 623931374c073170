"""The scale model's time against measured BFS times, and its projections to 4,096 ranks.

    python benchmarks/bench_model.py --scale 16 --grids 1x2,2x1,2x2
    python benchmarks/bench_model.py --scale 20 --project 16,64,256,1024,4096
    python benchmarks/bench_model.py --scale 20 --grids 1x2 --project 256,4096 --unscrambled

Validation: the local costs are measured at one process (the BFS's own trace: each level's
product seconds, its fixed cost, the per-level overhead; and every virtual rank's kernel on its
own block, ``measure_kernels``); under ``mpiexec`` the BFS is timed
on each grid (best of 7, one thread a rank) and the engine's software cost per collective and
the link's bytes a second are measured there; the model's prediction for the grid, from the
counts and those costs, is set beside the measured time. Grids of more ranks than the machine
has cores share them, which the model does not know: reported, not expected to match.

Projection (``--project``): the same local costs, over HDR InfiniBand (1.5 us, 12.5 GB/s a
link) plus the engine's software costs measured at 1x2 (per collective and per byte), for
square-ish 2D grids and the 1D distributions (1 x P, P x 1): GTEPS (the edges of the reached
component over the time), the share of communication, and the load imbalance of each level's
edges (max / mean over ranks). Results go to ``benchmarks/results/model_scale<S>.json``.
"""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
from _common import write_json

RESULTS = Path(__file__).resolve().parent / "results"


def graph(scale, unscrambled=False):
    """The command's kron:SCALE and its highest-degree vertex; ``unscrambled``: the same graph
    with the generator's labels undone (R-MAT's own ids, the heavy vertices first), the
    distribution without random relabelling."""
    import gblas2d as gb
    from gblas2d import generators
    from gblas2d.cli.run import out_degree

    A = generators.rmat(scale, 16, seed=1, symmetric=True)
    if unscrambled:
        rows, cols, _ = A.to_coo()
        raw = np.argsort(generators.vertex_permutation(scale, seed=1))
        A = gb.Matrix.from_coo(raw[rows], raw[cols], True, nrows=A.nrows, ncols=A.ncols)
        A.mark_symmetric()
    source = int(np.argmax(out_degree(A).to_dense(0)))
    return A, source


def levels_of(A, source):
    from gblas2d import algorithms

    at, lv = algorithms.bfs_levels(A, source).to_coo()
    levels = np.full(A.nrows, -1, dtype=np.int64)
    levels[at] = lv
    return levels


def counts(A, levels, shape):
    from gblas2d.model import bfs_counts

    rows, cols, _ = A.to_coo()
    return bfs_counts(A.nrows, rows.astype(np.int64), cols.astype(np.int64), levels, shape,
                      symmetric=A.is_symmetric)


def run_on_grid(scale, unscrambled, out):
    """Under mpiexec: the BFS's best time on this grid, the software cost and the link."""
    import time

    import gblas2d as gb
    from gblas2d import algorithms
    from gblas2d.model.timing import measure_link, measure_software

    A, source = graph(scale, unscrambled)
    algorithms.bfs_levels(A, source)
    grid = gb.default_grid()
    times = []
    for _ in range(7):
        grid.comm.barrier()
        start = time.perf_counter()
        algorithms.bfs_levels(A, source)
        times.append(time.perf_counter() - start)
    worst = grid.comm.allreduce(np.array([min(times)]), "max")[0]
    software = measure_software(grid)
    link = measure_link(grid)
    if grid.rank == 0:
        with open(out, "w") as f:
            json.dump({"seconds": float(worst), "software": software, "link": link}, f)


def validate(args, A, source, levels, local):
    from gblas2d.model.timing import Network, measure_kernels, predict

    a_rows, a_cols, _ = A.to_coo()
    a_rows, a_cols = a_rows.astype(np.int64), a_cols.astype(np.int64)
    one = measure_kernels(A.nrows, a_rows, a_cols, levels, counts(A, levels, (1, 1)),
                          symmetric=A.is_symmetric)
    rows = []
    for text in args.grids.split(","):
        R, C = (int(t) for t in text.split("x"))
        out = f"/tmp/bench_model_{R}x{C}.json"
        env = dict(os.environ, GBLAS2D_GRID=text, OMP_NUM_THREADS="1", GBLAS2D_THREADS="1")
        subprocess.run(["mpiexec", "-n", str(R * C), sys.executable, __file__, "--scale",
                        str(args.scale), "--worker", out] +
                       (["--unscrambled"] if args.unscrambled else []), env=env, check=True)
        with open(out) as f:
            measured = json.load(f)
        network = Network("this machine", 0.0, measured["link"], measured["software"])
        c = counts(A, levels, (R, C))
        _, by_rates = predict(c, local, network)
        kernels = measure_kernels(A.nrows, a_rows, a_cols, levels, c,
                                  symmetric=A.is_symmetric)
        _, seconds = predict(c, local, network, kernels, one)
        took = measured["seconds"]
        rows.append({"grid": text, "measured": took, "predicted": seconds,
                     "ratio": seconds / took, "predicted_by_rates": by_rates,
                     "ratio_by_rates": by_rates / took, "software": measured["software"],
                     "link": measured["link"]})
        print(f"{text:>6}: measured {took * 1e3:8.2f} ms, predicted {seconds * 1e3:8.2f} ms "
              f"(x{seconds / took:.2f}; by one-process rates x{by_rates / took:.2f}); "
              f"software {measured['software'] * 1e6:.0f} us a collective, link "
              f"{measured['link'] / 1e9:.2f} GB/s")
    return rows


def shapes_for(P):
    r = int(np.sqrt(P))
    while P % r:
        r -= 1
    return [(r, P // r), (1, P), (P, 1)]


def project(args, A, levels, local, measured):
    from gblas2d.model.timing import INTERCONNECTS, Network, predict

    alpha, beta = INTERCONNECTS["hdr-infiniband"]
    network = Network("hdr-infiniband", alpha, beta, measured["software"], measured["link"])
    # the undirected edges of the source's component
    reached = levels >= 0
    rows, _, _ = A.to_coo()
    traversed = int(np.count_nonzero(reached[rows]) // 2)
    out = []
    for P in (int(p) for p in args.project.split(",")):
        for shape in shapes_for(P):
            c = counts(A, levels, shape)
            per_level, seconds = predict(c, local, network)
            comm = sum(b for _, b in per_level)
            imbalance = [float(lv["edges"].max() / max(lv["edges"].mean(), 1e-300))
                         for lv in c.levels]
            out.append({"ranks": P, "grid": f"{shape[0]}x{shape[1]}", "seconds": seconds,
                        "gteps": traversed / seconds / 1e9, "comm_share": comm / seconds,
                        "imbalance": imbalance})
            print(f"{P:>5} {shape[0]:>4}x{shape[1]:<5} {seconds * 1e3:9.2f} ms "
                  f"{traversed / seconds / 1e9:8.4f} GTEPS, comm {comm / seconds:5.1%}, "
                  f"edges max/mean per level {' '.join(f'{x:.1f}' for x in imbalance)}")
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=16)
    parser.add_argument("--grids", default="1x2,2x1,2x2")
    parser.add_argument("--project", default=None)
    parser.add_argument("--unscrambled", action="store_true",
                        help="undo the generator's random relabelling (R-MAT's own ids)")
    parser.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--output", default=None)
    args = parser.parse_args(argv)
    if args.worker:
        run_on_grid(args.scale, args.unscrambled, args.worker)
        return
    from gblas2d.model.timing import measure_local

    A, source = graph(args.scale, args.unscrambled)
    levels = levels_of(A, source)
    local = measure_local(A, source, counts(A, levels, (1, 1)), repeats=7)
    print(f"R-MAT {args.scale}, BFS from {source}: {int(levels.max()) + 1} levels; one "
          f"process {local.measured * 1e3:.2f} ms (product fixed cost "
          f"{local.kernel_call * 1e6:.0f} us, overhead a level {local.overhead * 1e6:.0f} us)")
    report = {"scale": args.scale, "source": source, "one_process": local.measured,
              "rates": list(local.rates),
              "validation": validate(args, A, source, levels, local) if args.grids else []}
    if args.project:
        measured = next((v for v in report["validation"] if v["grid"] == "1x2"), None)
        if measured is None:
            raise SystemExit("--project needs the 1x2 grid among --grids (its software costs)")
        report["projection"] = project(args, A, levels, local, measured)
    name = f"model_scale{args.scale}{'_unscrambled' if args.unscrambled else ''}.json"
    out = Path(args.output) if args.output else RESULTS / name
    write_json(out, report)
    print(f"wrote {out}")

if __name__ == "__main__":
    main()
