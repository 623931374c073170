"""Run under mpiexec: one BFS from a source on kron:SCALE with every rank's trace, gathered
to rank 0 and written as JSON (argv: scale, source, output path): each product's dict of
``gb.trace()`` and, from ``gb.trace_all()``, each rank's calls per iteration and group."""

import json
import sys

import gblas2d as gb
from gblas2d import algorithms, generators

scale, source, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
A = generators.rmat(scale, 16, seed=1, symmetric=True)
with gb.trace_all() as t, gb.trace() as events:
    algorithms.bfs_levels(A, source)
report = t.gather()
mine = [{"direction": e["direction"], "bytes": e["bytes"], "push_edges": e["push_edges"],
         "pull_edges": e["pull_edges"]} for e in events]
grid = gb.default_grid()
every = grid.comm.allgather_object(mine) if grid.nprocs > 1 else [mine]
calls = [{str(label): {g: int(report.calls[r, k, j]) for j, g in enumerate(report.groups)}
          for k, label in enumerate(report.labels)} for r in range(grid.nprocs)]
if grid.rank == 0:
    with open(path, "w") as f:
        json.dump({"ranks": every, "calls": calls, "shape": list(grid.shape)}, f)
