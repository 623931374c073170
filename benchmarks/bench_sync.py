"""MPI calls per BFS level, by group: what a masked product costs in synchronization (issue 28).

Run under mpiexec at any grid; rank 0 prints one row per level and can write JSON:

    mpiexec -n 4 python benchmarks/bench_sync.py --scale 12 --json out.json
    GBLAS2D_GRID=3x3 mpiexec -n 9 python benchmarks/bench_sync.py --scale 12

Each level is the BFS of ``algorithms/bfs_levels.py`` written out so that each line can be
counted on its own: the masked product ``q(~v.S, replace=True) << q.vxm(A, any_pair)``, the
test ``q.nvals == 0`` (local: nvals is agreed when a write commits) and the write of the
level ``v(q.S) << level``. Calls are this rank's recorded operations (``gb.recording()``),
counted as the engine records them: an allgatherv or alltoallv with its header is one call.
The counts are the same on every rank except the ``transpose`` group, which a rank whose piece
already sits at its grid-column position never uses; rank 0's are reported with the most
any rank made.
"""

import argparse
import json
import os
import sys

import numpy as np

import gblas2d as gb
from gblas2d import generators, semiring


def counts(rec):
    """{(op, group): calls} of a recording."""
    return {f"{op}/{group}": v[0] for (op, group), v in rec.totals.items()}


def level_rows(A, source):
    """One dict per BFS level: frontier, direction, and the calls of each line."""
    n = A.nrows
    v = gb.Vector(gb.dtypes.INT64, n)
    v[source] = 0
    q = gb.Vector(gb.dtypes.BOOL, n)
    q[source] = True
    rows = []
    for level in range(1, n):
        frontier = q.nvals
        with gb.recording() as product, gb.trace() as events:
            q(~v.S, replace=True) << q.vxm(A, semiring.any_pair)
        with gb.recording() as test:
            done = q.nvals == 0
        with gb.recording() as write:
            if not done:
                v(q.S) << level
        rows.append({"level": level, "frontier": frontier, "next": q.nvals,
                     "direction": events[0]["direction"], "product": counts(product),
                     "test": counts(test), "write": counts(write)})
        if done:
            break
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=12)
    parser.add_argument("--edge-factor", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--symmetric", action="store_true",
                        help="the undirected graph (Graph 500's), read by rows either way")
    parser.add_argument("--json")
    args = parser.parse_args()
    grid = gb.default_grid()
    A = generators.rmat(args.scale, args.edge_factor, seed=args.seed, symmetric=args.symmetric)
    degrees = A.reduce_rowwise(gb.monoid.plus[gb.dtypes.INT64]).new()
    source = int(degrees.to_coo()[0][int(np.argmax(degrees.to_coo()[1]))])
    level_rows(A, source)  # warm: the degrees behind the direction are cached
    rows = level_rows(A, source)
    most = grid.comm.allgather_object(rows)
    if grid.rank != 0:
        return
    for r, row in enumerate(rows):
        for part in ("product", "test", "write"):
            row[part + "_max_over_ranks"] = max(sum(m[r][part].values()) for m in most)
    total = {part: sum(sum(r[part].values()) for r in rows) for part in
             ("product", "test", "write")}
    world = sum(c for r in rows for k, c in r["product"].items() if k.endswith("/world"))
    print(f"grid {grid.shape[0]}x{grid.shape[1]}, {'symmetric ' if args.symmetric else ''}"
          f"R-MAT scale {args.scale}, source {source}, "
          f"{len(rows)} levels; recorded calls of rank 0, and the most of any rank")
    print(f"{'level':>5} {'frontier':>9} {'dir':>5} {'product':>8} {'(max)':>6} {'world':>6} "
          f"{'test':>5} {'write':>6}  product calls of rank 0 by op/group")
    for row in rows:
        w = sum(c for k, c in row["product"].items() if k.endswith("/world"))
        print(f"{row['level']:>5} {row['frontier']:>9} {row['direction']:>5} "
              f"{sum(row['product'].values()):>8} {row['product_max_over_ranks']:>6} {w:>6} "
              f"{sum(row['test'].values()):>5} {sum(row['write'].values()):>6}  "
              f"{row['product']}")
    most_product = sum(r["product_max_over_ranks"] for r in rows)
    print(f"per level: product {total['product'] / len(rows):.2f} calls on rank 0 "
          f"({world / len(rows):.2f} world), at most {most_product / len(rows):.2f} on any "
          f"rank; test {total['test'] / len(rows):.2f}, write {total['write'] / len(rows):.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"grid": list(grid.shape), "scale": args.scale, "source": source,
                       "symmetric": args.symmetric,
                       "engine": os.environ.get("GBLAS2D_LABEL", "gblas2d"),
                       "levels": rows, "per_level": {k: v / len(rows) for k, v in
                                                     total.items()}}, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
