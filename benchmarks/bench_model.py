"""The scale model's time against measured BFS times, and its projections to 4,096 ranks.

    python benchmarks/bench_model.py --scale 16 --grids 1x2,2x1,2x2
    python benchmarks/bench_model.py --scale 20 --project 16,64,256,1024,4096
    python benchmarks/bench_model.py --scale 20 --grids 1x2 --project 256,4096 --unscrambled
    python benchmarks/bench_model.py --scale 20 --grids 1x2 --project 16,4096 --delegates \
        --weak 1,16,4096 --check-scaling 16,256
    python benchmarks/bench_model.py --scale 20 --grids 1x2 --project 16,4096 --as-scale 26
    python benchmarks/bench_model.py --scale 20 --grids '' --costs results/model_scale20.json \
        --local gpu.json --interconnect nvlink-4 --project 16,256,4096

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
edges (max / mean over ranks). ``--delegates`` adds a heavy-vertex delegation (a distribution
the engine does not have) on the 2D grid and on P x 1 (Sunway's 1.5D), at its best degree
factor. ``--weak`` projects weak scaling (scale S + log2 P on P ranks) and ``--as-scale`` a
larger graph's strong scaling, both from this graph's frontiers with every volume scaled
(``BFSCounts.scaled``); ``--check-scaling`` measures that method's error against exact counts
(scale S - 2 scaled by 4 against scale S). ``--local`` takes the local costs that
``benchmarks/gpu/bench_gpu.py`` measured on a GPU (its ``model`` part, the same graph) instead
of this machine's, and ``--interconnect nvlink-4`` a GPU pair's link. Results go to
``benchmarks/results/model_scale<S>.json`` (``..._device.json`` with ``--local``).
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


def counts(A, levels, shape, delegate=None):
    """The model's counts of the BFS on ``shape``; ``delegate``: the degree factor of a
    heavy-vertex delegation (``model.delegates``), None for the engine's distribution."""
    from gblas2d.model import bfs_counts, delegates

    rows, cols, _ = A.to_coo()
    rows, cols = rows.astype(np.int64), cols.astype(np.int64)
    heavy = None if delegate is None else \
        delegates(A.nrows, rows, shape[0] * shape[1], delegate)
    return bfs_counts(A.nrows, rows, cols, levels, shape, symmetric=A.is_symmetric,
                      heavy=heavy)


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


# The degree factors tried for a delegation (a delegate has at least factor x P edges); the
# best one is reported.
DELEGATE_FACTORS = (1, 4, 16)


def traversed_edges(A, levels):
    """The undirected edges of the source's component."""
    rows, _, _ = A.to_coo()
    return int(np.count_nonzero((levels >= 0)[rows]) // 2)


def _row(P, shape, distribution, c, local, network, edges, volume=1):
    from gblas2d.model.timing import predict

    per_level, seconds = predict(c, local, network, volume=volume)
    comm = sum(b for _, b in per_level)
    imbalance = [float(lv["edges"].max() / max(lv["edges"].mean(), 1e-300))
                 for lv in c.levels]
    return {"ranks": P, "grid": f"{shape[0]}x{shape[1]}", "distribution": distribution,
            "seconds": seconds, "gteps": edges / seconds / 1e9, "comm_share": comm / seconds,
            "imbalance": imbalance}


def _print(row):
    print(f"{row['ranks']:>5} {row['grid']:>10} {row['distribution']:>16} "
          f"{row['seconds'] * 1e3:9.2f} ms {row['gteps']:8.4f} GTEPS, comm "
          f"{row['comm_share']:5.1%}, edges max/mean per level "
          f"{' '.join(f'{x:.1f}' for x in row['imbalance'])}")


def network_of(measured, interconnect="hdr-infiniband"):
    from gblas2d.model.timing import INTERCONNECTS, Network

    alpha, beta = INTERCONNECTS[interconnect]
    return Network(interconnect, alpha, beta, measured["software"], measured["link"])


def device_local(path, scale):
    """The ``Local`` that bench_gpu.py measured on a device for this scale's graph."""
    from gblas2d.model.timing import Local

    with open(path) as f:
        model = json.load(f).get("model")
    if model is None or model["scale"] != scale:
        raise SystemExit(f"{path} holds no device costs for R-MAT {scale} (bench_gpu.py "
                         f"--only model --model-scale {scale})")
    return Local(**{k: tuple(v) if isinstance(v, list) else v
                    for k, v in model["local"].items()}), model


def project(args, A, levels, local, measured):
    """Strong scaling: the 2D grid and both 1D distributions at each P, and with
    ``--delegates`` the 2D grid and the rows' 1D distribution (Sunway's 1.5D) with heavy
    vertices delegated, at the best of ``DELEGATE_FACTORS``. With ``--as-scale S'`` the graph
    is S' (a larger Kronecker graph), projected from this one's frontiers as weak scaling is
    (``BFSCounts.scaled``)."""
    network = network_of(measured, args.interconnect)
    volume = 2 ** ((args.as_scale or args.scale) - args.scale)
    edges = traversed_edges(A, levels) * volume

    def row(P, shape, distribution, delegate=None):
        c = counts(A, levels, shape, delegate)
        return _row(P, shape, distribution, c.scaled(volume) if volume > 1 else c, local,
                    network, edges, volume=volume)

    out = []
    for P in (int(p) for p in args.project.split(",")):
        square, one_by_p, p_by_one = shapes_for(P)
        for shape in (square, one_by_p, p_by_one):
            out.append(row(P, shape, "engine"))
            _print(out[-1])
        if args.delegates:
            for shape in (square, p_by_one):
                best = max((row(P, shape, f"delegates x{f}", f) for f in DELEGATE_FACTORS),
                           key=lambda r: r["gteps"])
                out.append(best)
                _print(best)
    return out


def weak(args, A, levels, local, measured):
    """Weak scaling: scale S + log2(P) on P ranks (the 2D grid), projected from this graph's
    frontiers: its counts at each grid scaled by P (``BFSCounts.scaled``)."""
    network = network_of(measured, args.interconnect)
    edges = traversed_edges(A, levels)
    out = []
    for P in (int(p) for p in args.weak.split(",")):
        shape = shapes_for(P)[0]
        row = _row(P, shape, f"scale {args.scale + int(np.log2(P))}",
                   counts(A, levels, shape).scaled(P), local, network, edges * P, volume=P)
        out.append(row)
        _print(row)
    return out


def check_scaling(args, A, levels, local, measured):
    """How far weak scaling's projection is from exact counts: the time predicted from
    scale S - 2's counts scaled by 4 against that from scale S's own, on each of ``--grids``
    square grids (the same local costs and network)."""
    from gblas2d.model.timing import predict

    network = network_of(measured, args.interconnect)
    small_A, small_source = graph(args.scale - 2, args.unscrambled)
    small_levels = levels_of(small_A, small_source)
    out = []
    for P in (int(p) for p in args.check_scaling.split(",")):
        shape = shapes_for(P)[0]
        _, exact = predict(counts(A, levels, shape), local, network)
        _, scaled = predict(counts(small_A, small_levels, shape).scaled(4), local, network)
        out.append({"ranks": P, "grid": f"{shape[0]}x{shape[1]}", "exact": exact,
                    "scaled": scaled, "ratio": scaled / exact})
        print(f"{P:>5} {shape[0]}x{shape[1]}: from scale {args.scale - 2} x4 "
              f"{scaled * 1e3:.2f} ms, scale {args.scale}'s own {exact * 1e3:.2f} ms "
              f"(x{scaled / exact:.2f})")
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=16)
    parser.add_argument("--grids", default="1x2,2x1,2x2")
    parser.add_argument("--project", default=None)
    parser.add_argument("--delegates", action="store_true",
                        help="with --project: also heavy-vertex delegation")
    parser.add_argument("--as-scale", type=int, default=None,
                        help="with --project: project a larger graph of this scale from "
                             "this one's frontiers")
    parser.add_argument("--weak", default=None,
                        help="ranks P of a weak scaling, scale S + log2 P")
    parser.add_argument("--check-scaling", default=None,
                        help="ranks at which to compare weak scaling's projection, from "
                             "scale S - 2, with scale S's own counts")
    parser.add_argument("--unscrambled", action="store_true",
                        help="undo the generator's random relabelling (R-MAT's own ids)")
    parser.add_argument("--local", default=None,
                        help="a gpu.json of bench_gpu.py: project with the local costs it "
                             "measured on a device (with --costs, --grids '')")
    parser.add_argument("--interconnect", default="hdr-infiniband",
                        help="the link of the projections: hdr-infiniband or nvlink-4")
    parser.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--output", default=None)
    parser.add_argument("--costs", default=None,
                        help="a results file whose 1x2 software and link costs to reuse "
                             "instead of measuring them (--grids '')")
    args = parser.parse_args(argv)
    if args.worker:
        run_on_grid(args.scale, args.unscrambled, args.worker)
        return
    from gblas2d.model.timing import measure_local

    A, source = graph(args.scale, args.unscrambled)
    levels = levels_of(A, source)
    if args.local:
        if args.grids or args.unscrambled:
            raise SystemExit("--local projects a device's costs: give --grids '' (no "
                             "validation on this machine's CPU) and no --unscrambled")
        local, device = device_local(args.local, args.scale)
    else:
        local = measure_local(A, source, counts(A, levels, (1, 1)), repeats=7)
    print(f"R-MAT {args.scale}, BFS from {source}: {int(levels.max()) + 1} levels; one "
          f"process {local.measured * 1e3:.2f} ms (product fixed cost "
          f"{local.kernel_call * 1e6:.0f} us, overhead a level {local.overhead * 1e6:.0f} us)")
    report = {"scale": args.scale, "source": source, "one_process": local.measured,
              "rates": list(local.rates), "interconnect": args.interconnect,
              "local_from": f"{args.local} ({device['backend']})" if args.local else
              "this machine's CPU",
              "validation": validate(args, A, source, levels, local) if args.grids else []}
    if args.costs:
        with open(args.costs) as f:
            report["costs_from"] = args.costs
            report["validation"] = [v for v in json.load(f)["validation"] if v["grid"] == "1x2"]
    if args.project or args.weak or args.check_scaling:
        measured = next((v for v in report["validation"] if v["grid"] == "1x2"), None)
        if measured is None:
            raise SystemExit("--project, --weak and --check-scaling need the 1x2 grid among "
                             "--grids (its software costs)")
        for option, step in (("project", project), ("weak", weak),
                             ("check_scaling", check_scaling)):
            if getattr(args, option):
                report[{"project": "projection"}.get(option, option)] = \
                    step(args, A, levels, local, measured)
    name = f"model_scale{args.scale}{'_unscrambled' if args.unscrambled else ''}" \
        f"{f'_as{args.as_scale}' if args.as_scale else ''}" \
        f"{'_device' if args.local else ''}.json"
    out = Path(args.output) if args.output else RESULTS / name
    write_json(out, report)
    print(f"wrote {out}")

if __name__ == "__main__":
    main()
