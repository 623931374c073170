"""The scale model's counts equal what the engine does (issue 29): for every rank of a real
``mpiexec`` run, each BFS level's bytes received per group, the direction and the work behind
the choice are those ``gblas2d.model.bfs_counts`` computes in one process from the levels.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gblas2d import algorithms, generators
from gblas2d.model import bfs_counts, block_counts

HERE = Path(__file__).resolve().parent
pytestmark = pytest.mark.serial_only


def model(scale, source, shape):
    A = generators.rmat(scale, 16, seed=1, symmetric=True)
    rows, cols, _ = A.to_coo()
    at, level = algorithms.bfs_levels(A, source).to_coo()
    levels = np.full(A.nrows, -1, dtype=np.int64)
    levels[at] = level
    return bfs_counts(A.nrows, rows.astype(np.int64), cols.astype(np.int64), levels, shape,
                      symmetric=True)


def traced(tmp_path, scale, source, shape):
    out = tmp_path / "trace.json"
    env = dict(os.environ, GBLAS2D_GRID=f"{shape[0]}x{shape[1]}", OMP_NUM_THREADS="1",
               PYTHONHASHSEED="0")
    mpiexec = Path(sys.executable).parent / "mpiexec"
    cmd = [str(mpiexec) if mpiexec.exists() else "mpiexec", "-n", str(shape[0] * shape[1]),
           sys.executable, str(HERE / "bfs_trace_script.py"), str(scale), str(source), str(out)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(out.read_text())


@pytest.mark.parametrize(("shape", "source"), [((2, 2), 0), ((2, 3), 3)])
def test_every_rank_receives_what_the_model_says(tmp_path, shape, source):
    """Every rank's bytes per level and group, and its calls: the product's as the model lists
    them, and the two world steps of the level's writes (one at the last level, which finds
    nothing to write), counted by ``gb.trace_all()``."""
    run = traced(tmp_path, 10, source, shape)
    ranks = run["ranks"]
    counts = model(10, source, shape)
    assert len(ranks) == shape[0] * shape[1]
    directions = set()
    for r, events in enumerate(ranks):
        predicted = counts.rank(r)
        assert len(events) == len(predicted)
        for level, (seen, want) in enumerate(zip(events, predicted, strict=True)):
            assert seen["direction"] == want["direction"], (r, level)
            assert seen["bytes"] == want["bytes"], (r, level, seen["bytes"], want["bytes"])
            assert (seen["push_edges"], seen["pull_edges"]) == \
                (want["push_edges"], want["pull_edges"]), (r, level)
            directions.add(seen["direction"])
        # a rank whose piece sits at its grid-column position makes no sendrecv
        calls = run["calls"][r]
        for level, want in enumerate(predicted):
            made = {}
            for c in want["calls"]:
                if c["group"] != "transpose" or c["received"] > 0:
                    made[c["group"]] = made.get(c["group"], 0) + 1
            made["world"] = made.get("world", 0) + (1 if level == len(predicted) - 1 else 2)
            got = {g: n for g, n in calls[str(level)].items() if n}
            assert got == made, (r, level, got, made)
    # the run met both directions, and ranks other than 0 moved pieces to their grid column
    assert directions == {"push", "pull"}
    assert any(e["bytes"]["transpose"] for events in ranks for e in events)


def test_block_counts_match_the_blocks_of_a_run():
    A = generators.rmat(8, 16, seed=1, symmetric=True)
    rows, cols, _ = A.to_coo()
    entries, nonempty = block_counts(A.nrows, rows.astype(np.int64), cols.astype(np.int64),
                                     (4, 4))
    assert entries.sum() == A.nvals and len(entries) == 16
    # the block of rank (1, 2) by hand: rows in row block 1, columns in column block 2
    from gblas2d.distributed.grid import Layout

    at = Layout((4, 4), 6)
    lo_r, hi_r = at.row_block(A.nrows)
    lo_c, hi_c = at.col_block(A.nrows)
    mine = (rows >= lo_r) & (rows < hi_r) & (cols >= lo_c) & (cols < hi_c)
    assert entries[6] == mine.sum() and nonempty[6] == len(np.unique(rows[mine]))


def test_the_command_reports_the_model_and_the_blocks_bytes(tmp_path):
    """``gblas2d model`` writes the counts per grid, and its block bytes are those of the
    blocks the engine builds, hypersparse or not (each rank's block made by Block.from_keys)."""
    from gblas2d.distributed.grid import Layout
    from gblas2d.local.block import Block, index_bytes

    out = tmp_path / "model.json"
    done = subprocess.run([sys.executable, "-m", "gblas2d", "model", "--graph", "kron:8",
                           "--grids", "2x2,16x16", "--source", "0", "--json", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(out.read_text())
    counts = model(8, 0, (2, 2))
    got = report["grids"]["2x2"]["levels"]
    assert [g["direction"] for g in got] == [lv["direction"] for lv in counts.levels]
    assert [g["received_max"]["col"] for g in got] == \
        [int(lv["bytes"]["col"].max()) for lv in counts.levels]
    A = generators.rmat(8, 16, seed=1, symmetric=True)
    rows, cols, _ = A.to_coo()
    rows, cols = rows.astype(np.int64), cols.astype(np.int64)
    shape, n = (16, 16), A.nrows
    entries, nonempty = block_counts(n, rows, cols, shape)
    held = []
    for rank in range(256):
        at = Layout(shape, rank)
        lo_r, hi_r = at.row_block(n)
        lo_c, hi_c = at.col_block(n)
        mine = (rows >= lo_r) & (rows < hi_r) & (cols >= lo_c) & (cols < hi_c)
        keys = np.sort((rows[mine] - lo_r) * (hi_c - lo_c) + (cols[mine] - lo_c))
        block = Block.from_keys(hi_r - lo_r, hi_c - lo_c, keys, np.ones(len(keys), bool))
        held.append(sum(a.nbytes for a in block.arrays()["csr"][:-1]))
    predicted, hyper = index_bytes(np.full(256, n // 16), entries, nonempty)
    assert hyper.any() and not hyper.all()
    assert predicted.tolist() == held
    assert report["grids"]["16x16"]["block_bytes_max"] == max(held)


def _entries_and_levels(scale, source=None):
    """n, the entries and the BFS levels from ``source`` (the highest-degree vertex when
    None) of kron:``scale``."""
    A = generators.rmat(scale, 16, seed=1, symmetric=True)
    rows, cols, _ = A.to_coo()
    if source is None:
        source = int(np.argmax(np.bincount(rows.astype(np.int64), minlength=A.nrows)))
    at, level = algorithms.bfs_levels(A, source).to_coo()
    levels = np.full(A.nrows, -1, dtype=np.int64)
    levels[at] = level
    return A.nrows, rows.astype(np.int64), cols.astype(np.int64), levels


def test_a_delegation_reads_every_edge_once_and_expands_only_the_light_frontier():
    """A heavy-vertex delegation (a projection): with no delegates it is the engine's counts;
    with the delegates of a 4 x 4 grid (BFS from the highest-degree vertex) every level reads
    as many edges in all as the engine (each frontier edge, or each edge into an unvisited
    vertex, once), expands fewer bytes, and adds the delegates' bitmap to the level's step."""
    from gblas2d.model import delegates

    n, rows, cols, levels = _entries_and_levels(10)
    shape = (4, 4)
    plain = bfs_counts(n, rows, cols, levels, shape, symmetric=True)
    none = bfs_counts(n, rows, cols, levels, shape, symmetric=True,
                      heavy=np.zeros(n, dtype=bool))
    for a, b in zip(plain.levels, none.levels, strict=True):
        assert a["direction"] == b["direction"] and np.array_equal(a["edges"], b["edges"])
        assert all(np.array_equal(a["bytes"][g], b["bytes"][g]) for g in a["bytes"])
    heavy = delegates(n, rows, 16, factor=4)
    assert 0 < heavy.sum() < n // 8
    split = bfs_counts(n, rows, cols, levels, shape, symmetric=True, heavy=heavy)
    bitmap = (int(heavy.sum()) + 7) // 8 * 4  # log2(16) exchanges of it
    moved_less = False
    for a, b in zip(plain.levels, split.levels, strict=True):
        assert a["direction"] == b["direction"]
        assert a["edges"].sum() == b["edges"].sum()
        expand = "row" if a["read_as"] == "vxm" else "col"
        assert (b["bytes"][expand] <= a["bytes"][expand]).all()
        moved_less |= bool((b["bytes"][expand] < a["bytes"][expand]).any())
        extra = [c for c in b["calls"] if c["op"] == "delegates"]
        assert len(extra) == 1 and (extra[0]["received"] == bitmap).all()
    assert moved_less
    # the source, a delegate, has its edges spread over every rank: the first level's busiest
    # rank reads fewer of them
    assert split.levels[0]["edges"].max() < plain.levels[0]["edges"].max()


def test_scaled_counts_grow_payloads_not_headers():
    """Weak scaling's projection: every message's payload and every rank's edges times the
    volume; a message's 16-byte header and the world steps' lanes as they were."""
    n, rows, cols, levels = _entries_and_levels(10, 0)
    counts = bfs_counts(n, rows, cols, levels, (2, 3), symmetric=True)
    assert all(np.array_equal(c["received"], d["received"])
               for a, b in zip(counts.levels, counts.scaled(1).levels, strict=True)
               for c, d in zip(a["calls"], b["calls"], strict=True))
    big = counts.scaled(5)
    size = {"row": 3, "col": 2}
    for a, b in zip(counts.levels, big.levels, strict=True):
        assert np.array_equal(b["edges"], 5 * a["edges"])
        for c, d in zip(a["calls"], b["calls"], strict=True):
            if c["group"] == "world":
                assert np.array_equal(c["received"], d["received"])
                continue
            headers = 16 * (size[c["group"]] - 1) if c["group"] in size else \
                np.where(c["received"] > 0, 16, 0)
            headers = np.minimum(headers, c["received"])
            assert np.array_equal(d["received"], headers + 5 * (c["received"] - headers))
        for group, got in b["bytes"].items():
            want = np.zeros_like(a["bytes"][group])
            for d in b["calls"]:
                if d["group"] == group:
                    want += d["received"]
            assert np.array_equal(got, want)
