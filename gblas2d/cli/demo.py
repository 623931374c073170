"""The default job: a BFS frontier sweep and a plus_times mxv on a generated graph.

Builds a Graph 500 Kronecker graph, sweeps a breadth-first frontier from its highest-degree
vertex with masked ``vxm`` over ``any_pair`` (the engine picks push or pull per level), times a
``plus_times`` mxv, and prints what each level cost in communication.
"""

import time

import numpy as np

from .. import Vector, monoid, semiring, trace
from ..distributed.comm import recording
from ..io import generators


def demo(args, grid, out):
    t0 = time.perf_counter()
    A = generators.rmat(args.scale, args.edge_factor, seed=args.seed, symmetric=True)
    t_build = time.perf_counter() - t0
    n = A.nrows
    out(f"gblas2d demo: RMAT scale {args.scale} (n={n}, nvals={A.nvals}) on a "
        f"{grid.shape[0]}x{grid.shape[1]} grid, built in {t_build:.2f} s")

    # source = the vertex of largest degree: d = A (+).(pair) 1, then its argmax
    degree = A.reduce_rowwise(monoid.plus).new()
    top = degree.reduce(monoid.max).new().value
    hubs = degree.select("==", top).new()
    source = int(hubs.to_coo()[0][0])

    visited = Vector(bool, n)
    frontier = Vector.from_coo([source], [True], size=n)
    out(f"frontier sweep from vertex {source} (degree {top:g}):")
    out(f"{'level':>5} {'frontier':>10} {'direction':>9} {'expand':>8} {'fold':>8} "
        f"{'row bytes':>10} {'col bytes':>10}")
    level = 0
    t0 = time.perf_counter()
    with trace() as events:
        while frontier.nvals:
            # visited |= frontier
            visited(frontier.S) << True
            # frontier<!visited> = frontier any.pair A
            frontier(~visited.S, replace=True) << frontier.vxm(A, semiring.any_pair)
            e = events[-1]
            out(f"{level:>5} {e['frontier_nvals']:>10} {e['direction']:>9} "
                f"{'/'.join(e['expand']):>8} {'/'.join(e['fold']):>8} "
                f"{e['bytes']['row']:>10} {e['bytes']['col']:>10}")
            level += 1
    t_sweep = time.perf_counter() - t0
    out(f"reached {visited.nvals} vertices in {level} levels, {t_sweep:.3f} s")

    x = Vector.from_dense(np.ones(n))
    y = A.mxv(x, semiring.plus_times).new()
    with recording() as rec:
        t0 = time.perf_counter()
        y << A.mxv(x, semiring.plus_times)
        t_mxv = time.perf_counter() - t0
    out(f"plus_times mxv: {t_mxv * 1e3:.1f} ms, {A.nvals / t_mxv / 1e6:.1f} M edges/s, "
        f"{rec.bytes()} bytes received by rank 0")
    return 0
