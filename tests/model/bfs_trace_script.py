"""Run under mpiexec: one BFS from a source on kron:SCALE with every rank's trace, gathered
to rank 0 and written as JSON (argv: scale, source, output path)."""

import json
import sys

import gblas2d as gb
from gblas2d import algorithms, generators

scale, source, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
A = generators.rmat(scale, 16, seed=1, symmetric=True)
with gb.trace() as events:
    algorithms.bfs_levels(A, source)
mine = [{"direction": e["direction"], "bytes": e["bytes"], "push_edges": e["push_edges"],
         "pull_edges": e["pull_edges"]} for e in events]
grid = gb.default_grid()
every = grid.comm.allgather_object(mine) if grid.nprocs > 1 else [mine]
if grid.rank == 0:
    with open(path, "w") as f:
        json.dump({"ranks": every, "shape": list(grid.shape)}, f)
