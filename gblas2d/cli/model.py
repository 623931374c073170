"""``gblas2d model --graph SPEC --grids 4x4,64x64``: what a BFS on the graph would do on each
grid, computed in one process (``gblas2d.model``): each rank's block and its bytes, and per
level the direction and the bytes every rank receives in its row, column and transpose groups
and over the world. Counts, not times: exact for the engine as it stands (the tests compare
them with traced runs), projected for grids this machine cannot run.
"""

import json

import numpy as np

from ..algorithms import bfs_levels
from ..distributed.grid import Layout
from ..local.block import index_bytes
from ..model import bfs_counts, block_counts
from .run import out_degree

GROUPS = ("row", "col", "transpose", "world")


def model(args, grid, out, load):
    if grid.nprocs > 1:
        out("gblas2d model runs in one process: it computes every rank of the grids it is given")
        return 2
    A, _ = load(args.graph)
    if A.nrows != A.ncols:
        out(f"gblas2d model: BFS needs a square matrix, got {A.nrows}x{A.ncols}")
        return 2
    n = A.nrows
    source = args.source
    if source is None:
        degrees = out_degree(A).to_dense(0)
        source = int(np.argmax(degrees))
    rows, cols, _ = A.to_coo()
    rows, cols = rows.astype(np.int64), cols.astype(np.int64)
    at, lv = bfs_levels(A, source).to_coo()
    levels = np.full(n, -1, dtype=np.int64)
    levels[at] = lv
    report = {"graph": args.graph, "n": n, "nvals": int(A.nvals), "source": source,
              "symmetric": bool(A.is_symmetric), "grids": {}}
    out(f"graph {args.graph}: n={n:,}, nvals={A.nvals:,}; BFS from {source}: "
        f"{int(levels.max()) + 1} levels, {len(at):,} vertices reached")
    for shape in args.grids:
        R, C = shape
        P = R * C
        entries, nonempty = block_counts(n, rows, cols, shape)
        starts = Layout(shape, 0).row_block_starts(n)
        block_rows = np.repeat(np.diff(starts), C)
        nbytes, hyper = index_bytes(block_rows, entries, nonempty)
        counts = bfs_counts(n, rows, cols, levels, shape, symmetric=A.is_symmetric)
        levels_out = []
        for level in counts.levels:
            got = level["bytes"]
            levels_out.append({
                "level": level["level"], "direction": level["direction"],
                "read_as": level["read_as"], "frontier_nvals": level["frontier_nvals"],
                "push_edges": level["push_edges"], "pull_edges": level["pull_edges"],
                "received_max": {g: int(got[g].max()) for g in GROUPS},
                "received_mean": {g: float(got[g].mean()) for g in GROUPS},
                "edges_max": int(level["edges"].max()),
                "edges_mean": float(level["edges"].mean())})
        total = sum(sum(level["bytes"][g] for g in GROUPS) for level in counts.levels)
        report["grids"][f"{R}x{C}"] = {
            "ranks": P, "entries_max": int(entries.max()), "entries_mean": float(entries.mean()),
            "block_bytes_max": int(nbytes.max()), "hypersparse_blocks": int(hyper.sum()),
            "received_total_max": int(total.max()), "received_total_mean": float(total.mean()),
            "levels": levels_out}
        out(f"grid {R}x{C} ({P} ranks): entries a rank max {entries.max():,} "
            f"(max/mean {entries.max() / max(entries.mean(), 1e-300):.2f}); block bytes max "
            f"{nbytes.max():,}, {int(hyper.sum())} hypersparse blocks; bytes received over "
            f"the BFS, max a rank {int(total.max()):,}, mean {total.mean():,.0f}")
        out(f"  {'level':>5} {'dir':>4} {'as':>3} {'frontier':>9} "
            + " ".join(f"{g + ' max':>13}" for g in GROUPS) + f" {'edges max':>10}")
        for lv_out in levels_out:
            out(f"  {lv_out['level']:>5} {lv_out['direction']:>4} {lv_out['read_as']:>3} "
                f"{lv_out['frontier_nvals']:>9,} "
                + " ".join(f"{lv_out['received_max'][g]:>13,}" for g in GROUPS)
                + f" {lv_out['edges_max']:>10,}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
        out(f"wrote {args.json}")
    return 0
