"""``gblas2d graph500 --scale S``: the Graph 500 BFS benchmark (kernel 2).

Generate the Kronecker graph, pick 64 random roots of degree >= 1, run a BFS from each, validate
every parent tree with the five checks, and report times and TEPS (traversed edges per second:
the undirected edges of the root's component over the BFS time) with their harmonic mean, in the
Graph 500 output format.
"""

import time

import numpy as np

from ..exceptions import InvalidValue
from ..io import generators
from .progress import Progress
from .run import out_degree, slowest


def _quartiles(values):
    q = np.quantile(values, [0.0, 0.25, 0.5, 0.75, 1.0])
    return dict(zip(("min", "firstquartile", "median", "thirdquartile", "max"), q,
                    strict=True))


def graph500(args, grid, out, show_progress):
    from ..algorithms import bfs_parents, validate_bfs_tree

    start = time.perf_counter()
    with Progress("generating", None, show_progress):
        A = generators.rmat(args.scale, args.edge_factor, seed=args.seed, symmetric=True)
    generation = slowest(grid, time.perf_counter() - start)
    degree = out_degree(A)
    candidates = degree.to_coo()[0]
    if len(candidates) == 0:
        raise InvalidValue(f"the scale-{args.scale} graph has no vertex with an edge to search "
                           "from")
    rng = np.random.default_rng(args.seed)
    roots = rng.choice(candidates, size=min(args.roots, len(candidates)), replace=False)
    times, nedges, failed = [], [], []
    with Progress("BFS", len(roots), show_progress) as bar:
        for root in roots.tolist():
            grid.comm.barrier()
            start = time.perf_counter()
            parents = bfs_parents(A, root)
            times.append(slowest(grid, time.perf_counter() - start))
            verdict = validate_bfs_tree(A, root, parents)
            if not verdict:
                failed.append((root, verdict.failures))
            # traversed edges: the undirected edges of the component, sum of degrees / 2
            reached = degree.ewise_mult(parents, "first").new().reduce().new().value
            nedges.append(reached / 2)
            bar.step()
    times, nedges = np.array(times), np.array(nedges)
    teps = nedges / times
    lines = [("SCALE", args.scale), ("edgefactor", args.edge_factor), ("NBFS", len(roots)),
             ("graph_generation", generation), ("num_mpi_processes", grid.nprocs)]
    lines += [(f"bfs_{k}_time", v) for k, v in _quartiles(times).items()]
    lines += [("bfs_mean_time", times.mean()), ("bfs_stddev_time", times.std(ddof=1)
                                                 if len(times) > 1 else 0.0)]
    lines += [(f"{k}_nedge", v) for k, v in _quartiles(nedges).items()]
    lines += [("mean_nedge", nedges.mean())]
    lines += [(f"bfs_{k}_TEPS", v) for k, v in _quartiles(teps).items()]
    harmonic = len(teps) / np.sum(1.0 / teps)
    # the standard error of the harmonic mean, as the Graph 500 reference code reports it
    spread = np.sqrt(np.sum((1.0 / teps - 1.0 / harmonic) ** 2) / max(len(teps) - 1, 1))
    lines += [("bfs_harmonic_mean_TEPS", harmonic),
              ("bfs_harmonic_stddev_TEPS", spread * harmonic ** 2 / np.sqrt(len(teps)))]
    for key, value in lines:
        out(f"{key + ':':<28} {value:.6g}" if isinstance(value, float) else
            f"{key + ':':<28} {value}")
    for root, failures in failed:
        out(f"validation FAILED for root {root}: {', '.join(failures)}")
    out(f"validation: {len(roots) - len(failed)} of {len(roots)} trees passed")
    return 1 if failed else 0
