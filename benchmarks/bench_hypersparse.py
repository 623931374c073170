"""Block memory per rank on grids up to 64 x 64, computed in one process: each virtual rank's
block of a Graph 500 (R-MAT) graph built by the engine's own storage rule, plain CSR beside
what the engine holds (hypersparse where a block's nonempty rows are few).

    python benchmarks/bench_hypersparse.py --scale 18 --grids 1x1,4x4,16x16,64x64

Ownership is the grid's own arithmetic (``Layout``, the part of ``Grid`` that needs no MPI),
so every block is exactly the one rank (i, j) of a real R x C run would hold; only the
blocks' bytes are reported, nothing is timed. A pattern graph's values are one value a block
(iso), so a block holds its row ids, pointers and columns: the plain CSR keeps n / R + 1
pointers whatever its entries, which is what outgrows the entries as the grid grows.
Results go to ``benchmarks/results/hypersparse_scale<S>.json``.
"""

import argparse
from pathlib import Path

import numpy as np
from _common import write_json

from gblas2d import generators
from gblas2d.distributed.grid import Layout
from gblas2d.local.block import Block

RESULTS = Path(__file__).resolve().parent / "results"


def graph_entries(scale):
    """The global (rows, cols) of the symmetric R-MAT graph the command's ``kron:S`` makes."""
    A = generators.rmat(scale, 16, symmetric=True)
    rows, cols, _ = A.to_coo()
    return A.nrows, rows.astype(np.int64), cols.astype(np.int64)


def block_bytes(block):
    """(held, plain): the bytes of the block's entries as the engine holds them, and as a
    plain CSR would (one pointer a row) for the same entries."""
    held = sum(a.nbytes for a in block.arrays()["csr"])
    plain = 8 * (block.nrows + 1) + block.cols.nbytes + block.values[:1].nbytes
    return held, plain


def measure(n, rows, cols, shape):
    layout = Layout(shape, 0)
    owners = layout.entry_owner(n, n, rows, cols)
    order = np.argsort(owners, kind="stable")
    bounds = np.searchsorted(owners[order], np.arange(layout.nprocs + 1))
    per_rank = []
    for rank in range(layout.nprocs):
        at = Layout(shape, rank)
        lo_r, hi_r = at.row_block(n)
        lo_c, hi_c = at.col_block(n)
        mine = order[bounds[rank]:bounds[rank + 1]]
        keys = np.sort((rows[mine] - lo_r) * (hi_c - lo_c) + (cols[mine] - lo_c))
        block = Block.from_keys(hi_r - lo_r, hi_c - lo_c, keys,
                                np.broadcast_to(np.array(True), keys.shape))
        held, plain = block_bytes(block)
        nonempty = len(block.hrows) if block.is_hyper else \
            int(np.count_nonzero(np.diff(block.ptr)))
        per_rank.append({"entries": int(block.nvals), "rows": hi_r - lo_r,
                         "nonempty_rows": nonempty, "hypersparse": block.is_hyper,
                         "held_bytes": held, "plain_bytes": plain})
    return per_rank


def summary(per_rank, one_process_bytes, nprocs):
    held = np.array([r["held_bytes"] for r in per_rank])
    plain = np.array([r["plain_bytes"] for r in per_rank])
    entries = np.array([r["entries"] for r in per_rank])
    fair = one_process_bytes / nprocs
    return {"ranks": nprocs, "entries_max": int(entries.max()),
            "entries_mean": float(entries.mean()),
            "hypersparse_blocks": int(sum(r["hypersparse"] for r in per_rank)),
            "nonempty_row_share_mean": float(np.mean([r["nonempty_rows"] / max(r["rows"], 1)
                                                      for r in per_rank])),
            "held_bytes_per_entry": float(held.sum() / entries.sum()),
            "plain_bytes_per_entry": float(plain.sum() / entries.sum()),
            "held_max_over_fair": float(held.max() / fair),
            "plain_max_over_fair": float(plain.max() / fair)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=18)
    parser.add_argument("--grids", default="1x1,4x4,16x16,64x64")
    parser.add_argument("--output", default=None)
    args = parser.parse_args(argv)
    n, rows, cols = graph_entries(args.scale)
    shapes = [tuple(int(s) for s in g.split("x")) for g in args.grids.split(",")]
    one = summary(measure(n, rows, cols, (1, 1)), 1, 1)
    one_bytes = one["held_bytes_per_entry"] * len(rows)
    report = {"scale": args.scale, "n": n, "entries": len(rows), "grids": {}}
    print(f"R-MAT scale {args.scale}: n={n:,}, {len(rows):,} entries; bytes of the blocks "
          "(row ids, pointers, columns; one value)")
    print(f"{'grid':>6} {'entries/rank':>13} {'hyper blocks':>13} {'rows used':>10} "
          f"{'held B/entry':>13} {'plain B/entry':>14} {'held/fair':>10} {'plain/fair':>11}")
    for shape in shapes:
        nprocs = shape[0] * shape[1]
        s = summary(measure(n, rows, cols, shape), one_bytes, nprocs)
        report["grids"][f"{shape[0]}x{shape[1]}"] = s
        print(f"{shape[0]}x{shape[1]:<4} {s['entries_mean']:>13,.0f} "
              f"{s['hypersparse_blocks']:>6}/{nprocs:<6} {s['nonempty_row_share_mean']:>10.3f} "
              f"{s['held_bytes_per_entry']:>13.2f} {s['plain_bytes_per_entry']:>14.2f} "
              f"{s['held_max_over_fair']:>10.2f} {s['plain_max_over_fair']:>11.2f}")
    out = Path(args.output) if args.output else RESULTS / f"hypersparse_scale{args.scale}.json"
    write_json(out, report)
    print(f"wrote {out}")

if __name__ == "__main__":
    main()
