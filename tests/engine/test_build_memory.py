"""What a Matrix built by ``from_coo`` holds, and what its build needs on the way, per entry of
each rank's block (issue 45, item 5: at most 40 bytes an entry of resident memory, R-MAT 20 at
4 ranks; ``benchmarks/bench_memory.py --build from_coo`` has those figures).

Measured here with tracemalloc: numpy's buffers (the block, the keys and the messages on the
way), not SuiteSparse's own memory, which takes the block's arrays over and so is counted as
they were made. The routing's chunk is made small, so that its temporaries, a fixed size
whatever the input, do not hide what grows with the entries. R-MAT 15 (edge factor 16, 524,288
edges, 467,685 entries), the edges split evenly among the ranks or given whole to every rank,
bytes a local entry::

                       held     peak: each rank's share   the same arrays on every rank
    1 process          8.6      18.1                      18.1
    before, 2 ranks    9.1      44.9                      74.0
    before, 4 ranks    9.2      44.9                      148
    before, 6 ranks    9.8      38-57                     216-226
    now, 2 to 6 ranks  9.1-9.9  18.4-21.0                 18.3-19.3

(Before: ``a78af89``, where a rank routed its share through an owner array, a permutation and
a row and a column an entry, and the same arrays on every rank through owners of the whole
input.) HELD and PEAK sit well above what is measured now and below what was built before: a
block that keeps an array of its one value or a cache made eagerly, a routing that holds the
whole input's owners or permutation again, fails.
"""

import tracemalloc

import numpy as np
import pytest
from _helpers import agreed

import gblas2d as gb
from gblas2d.distributed import redistribute

SCALE = 15
# Bytes a local entry: the block's columns and row pointers are 8-10
HELD = 14
# Bytes a local entry while building: the keys, the messages and the sort are 18-21
PEAK = 32
# What does not grow with the entries: the row pointers of a small grid, the routing's
# chunk temporaries (4,096 entries here), Python's objects
SLACK = 256 * 1024


@pytest.fixture(scope="module")
def edges():
    # A first build loads what a first build loads (SuiteSparse through python-graphblas),
    # which is no part of what a build holds.
    gb.Matrix.from_coo([0, 1], [1, 0], 1.0, nrows=2, ncols=2)
    return gb.generators.rmat_edges(SCALE, 16)


def traced(build):
    """(what ``build()`` returns, bytes held after it, peak bytes during it), as tracemalloc
    sees them."""
    started = not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        out = build()
        held, peak = tracemalloc.get_traced_memory()
    finally:
        if started:
            tracemalloc.stop()
    return out, held - before, peak - before


@pytest.mark.parametrize("distributed", [True, False], ids=["share", "replicated"])
def test_from_coo_holds_its_block_and_builds_within_a_few_words_an_entry(edges, distributed,
                                                                         monkeypatch):
    monkeypatch.setattr(redistribute, "_CHUNK", 1 << 12)
    src, dst = edges
    n = 1 << SCALE
    distinct = len(np.unique(src * n + dst))
    g = gb.default_grid()
    if distributed:
        lo, hi = len(src) * g.rank // g.nprocs, len(src) * (g.rank + 1) // g.nprocs
        src, dst = src[lo:hi], dst[lo:hi]
    A, held, peak = traced(lambda: gb.Matrix.from_coo(src, dst, 1.0, nrows=n, ncols=n,
                                                      distributed=distributed))
    entries = A.block.nvals
    assert agreed(A.nvals == distinct and entries > 0)
    assert agreed(held <= HELD * entries + SLACK), (held / entries, entries)
    assert agreed(peak <= PEAK * entries + SLACK), (peak / entries, entries)
