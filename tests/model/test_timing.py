"""The scale model's time (issue 29, part 2): its bookkeeping, checked by hand, and its one-rank
prediction, which must give back the run it was measured from."""

import math

import numpy as np
import pytest

from gblas2d import generators
from gblas2d.model import bfs_counts
from gblas2d.model.counts import BFSCounts
from gblas2d.model.timing import Local, Network, measure_local, predict

pytestmark = pytest.mark.serial_only


def test_one_rank_gives_back_the_measured_run():
    A = generators.rmat(10, 16, seed=1, symmetric=True)
    rows, cols, _ = A.to_coo()
    from gblas2d import algorithms

    at, lv = algorithms.bfs_levels(A, 3).to_coo()
    levels = np.full(A.nrows, -1, dtype=np.int64)
    levels[at] = lv
    one = bfs_counts(A.nrows, rows.astype(np.int64), cols.astype(np.int64), levels, (1, 1),
                     symmetric=True)
    local = measure_local(A, 3, one, repeats=1)
    assert len(local.products) == len(one.levels) == len(local.rates)
    per_level, total = predict(one, local, Network("none", 1.0, 1.0, 1.0))
    # one rank: no collective, and each level costs what it cost
    assert all(comm == 0 for _, comm in per_level)
    assert total == pytest.approx(local.measured, rel=1e-9)


def test_a_level_costs_its_work_and_each_collective_by_hand():
    P = 4
    level = {"edges": np.array([100, 400, 200, 0]),
             "calls": [{"group": "row", "op": "allgatherv", "received": np.array([8, 16, 0, 0])},
                       {"group": "col", "op": "alltoallv", "received": np.array([0, 0, 32, 1])},
                       {"group": "transpose", "op": "sendrecv",
                        "received": np.array([0, 64, 0, 0])},
                       {"group": "world", "op": "allreduce", "received": np.full(P, 96)}]}
    counts = BFSCounts((2, 2), [level])
    local = Local(products=(4.5,), work=(400,), kernel_call=0.5, overhead=3.0, fixed=1.0,
                  measured=0.0)
    alpha, beta, software = 0.25, 8.0, 0.125
    per_level, total = predict(counts, local, Network("hand", alpha, beta, software))
    compute, comm = per_level[0]
    # overhead 1 + (3 - 1) / 4, the kernel's fixed cost, the busiest rank's 400 edges at the
    # one-process rate (400 edges in 4.5 - 0.5 s)
    assert compute == pytest.approx(1.5 + 0.5 + 4.0)
    header = 8 * (1 + 4) * (2 - 1) / beta + alpha * 1  # a group of 2: 1 step, 40 bytes
    expected = (software + alpha * 1 + 16 / beta + header          # row allgatherv
                + software + alpha * 1 + 32 / beta + header        # col alltoallv, 2 - 1 steps
                + software + alpha * 1 + 64 / beta                 # sendrecv
                + software + alpha * 2 * math.ceil(math.log2(P)) + 96 / beta  # world step
                + 2 * (software + alpha * 2 * math.ceil(math.log2(P))))       # the two writes
    assert comm == pytest.approx(expected)
    assert total == pytest.approx(compute + comm)
