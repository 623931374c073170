"""gb.trace_all and gb.iteration: every rank's calls and products, per iteration, gathered in one
collective. Every figure of the report is checked against what each rank measured itself
(``gb.stats()``, ``gb.recording()``), at one rank and under mpiexec."""

import shutil
import sys
import tempfile
from pathlib import Path

import graphblas as G
import numpy as np
import pytest
from _helpers import agreed
from gblas2d.algorithms import bfs_levels, engine

import gblas2d as gb
from gblas2d import semiring

GROUPS = ("world", "row", "col", "transpose")
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def shared_dir():
    """A scratch directory every rank agrees on, made by rank 0, which writes the plots
    (pytest's tmp_path differs from rank to rank under mpiexec, and four sessions cleaning
    its root at once race)."""
    comm = gb.default_grid().comm
    path = Path(comm.bcast_object(tempfile.mkdtemp(prefix="gblas2d-trace-")
                                  if comm.rank == 0 else None))
    yield path
    comm.barrier()
    if comm.rank == 0:
        shutil.rmtree(path)


def graph():
    return gb.generators.rmat(8, 8, symmetric=True, seed=3)


def totals():
    """This rank's calls, bytes sent and received per group, from gb.stats()."""
    out = {g: np.zeros(3, dtype=np.int64) for g in GROUPS}
    for (_, group), row in gb.stats().totals.items():
        if group in out:
            out[group] += row[:3]
    return out


def written_on_rank_0(path):
    """Collective. Whether rank 0 holds a PNG at ``path`` (only rank 0 writes)."""
    if gb.default_grid().rank != 0:
        return agreed(True)
    with open(path, "rb") as f:
        return agreed(f.read(8) == PNG)


def test_a_bfs_has_one_iteration_per_level_with_its_frontier():
    A = graph()
    source = int(A.reduce_rowwise(gb.monoid.plus).new().to_coo()[0][0])
    with gb.trace_all() as t:
        levels = bfs_levels(A, source)
    report = t.gather()
    depth = int(levels.reduce(gb.monoid.max).new().value) + 1
    # levels 0 .. depth-1, each the input of one product; the last product finds nothing
    assert report.iterations == list(range(depth))
    # before them, at more than one rank, the calls that set the search up: no product
    assert report.labels in ([*range(depth)], [None, *range(depth)])
    if report.labels[0] is None:
        assert report.products[0] == []
    for k in range(depth):
        at = report.labels.index(k)
        at_level = levels.select("==", k).new().nvals
        assert [(op, f) for op, _, f in report.products[at]] == [("vxm", at_level)]
        assert report.rows[at]["directions"][0] in ("push", "pull")


def test_bytes_per_group_are_what_each_rank_counted():
    A = graph()
    x = gb.Vector.from_dense(np.arange(A.ncols, dtype=np.float64))
    grid = gb.default_grid()
    before = totals()
    measured = []
    with gb.trace_all() as t:
        # a reduction, outside every iteration
        d = A.reduce_rowwise(gb.monoid.plus).new()
        for k in range(3):
            with gb.iteration():
                with gb.recording() as rec:
                    y = A.mxv(x, semiring.plus_times).new()
                    x = y.apply(gb.binary.plus, right=float(k)).new(mask=d.S)
                    x = x.dup()
                measured.append({g: rec.bytes(g) for g in GROUPS})
    after = totals()
    report = t.gather()
    mine = {g: after[g] - before[g] for g in GROUPS}
    everyone = grid.comm.allgather_object((mine, measured))
    for rank, (delta, _) in enumerate(everyone):
        for g in GROUPS:
            if g in report.groups:
                j = report.groups.index(g)
                got = [report.calls[rank, :, j].sum(), report.sent[rank, :, j].sum(),
                       report.received[rank, :, j].sum()]
            else:
                got = [0, 0, 0]
            assert list(delta[g]) == got, (rank, g)
    assert report.iterations == [0, 1, 2]
    at = report.labels.index(0)
    for k in range(3):
        row = report.rows[at + k]
        assert row["products"] == 1
        for g in report.groups:
            per_rank = [m[k][g] for _, m in everyone]
            assert row["bytes"][g] == {"max": max(per_rank), "mean": pytest.approx(
                sum(per_rank) / grid.nprocs)}, (k, g)
    if grid.nprocs == 1:
        assert report.groups == [] and report.labels == [0, 1, 2]
    else:
        # the reduction's fold and the world steps came before the first iteration
        assert report.labels[0] is None and report.rows[0]["products"] == 0
        assert report.calls[:, 0, :].sum() > 0
        # every product folds along a grid group: a real volume, and ranks that differ
        assert report.received[:, at:, :].sum() > 0


def test_labels_nesting_and_what_is_outside():
    A = graph()
    x = gb.Vector.from_coo([0], [1.0], size=A.ncols)
    with gb.trace_all() as t:
        A.mxv(x, semiring.plus_times).new()
        with gb.iteration("warm-up"):
            A.mxv(x, semiring.plus_times).new()
        for _ in range(2):
            with gb.iteration():
                A.mxv(x, semiring.plus_times).new()
                with gb.iteration("inner"):
                    A.mxv(x, semiring.plus_times).new()
                    A.mxv(x, semiring.plus_times).new()
    report = t.gather()
    # labelled iterations take no number; the inner one wins; the same label is one row
    assert report.labels == [None, "warm-up", 0, "inner", 1]
    assert [row["products"] for row in report.rows] == [1, 1, 1, 4, 1]
    assert [row["iteration"] for row in report.rows] == report.labels
    assert report.seconds.shape == (gb.default_grid().nprocs, 5)
    assert agreed((report.seconds >= 0).all())
    lines = report.table().splitlines()
    assert lines[-5].startswith("- ") and lines[-2].startswith("inner ")


def test_an_empty_trace_gathers(shared_dir):
    with gb.trace_all() as t:
        pass
    report = t.gather()
    assert report.rows == [] and report.iterations == [] and report.groups == []
    assert report.table().splitlines()[-1].split() == ["iteration", "direction", "frontier",
                                                       "seconds"]
    path = shared_dir / "empty.png"
    report.plot(path)
    assert written_on_rank_0(path)


def test_the_plot_is_a_png_written_once(shared_dir):
    with gb.trace_all() as t:
        bfs_levels(graph(), 0)
    report = t.gather()
    path = shared_dir / "trace.png"
    report.plot(path)
    assert written_on_rank_0(path)


def test_a_plot_that_fails_raises_on_every_rank(shared_dir, monkeypatch):
    with gb.trace_all() as t:
        pass
    report = t.gather()
    with pytest.raises(FileNotFoundError):
        report.plot(shared_dir / "no such folder" / "trace.png")
    # matplotlib missing: none of its modules can be imported, even those imported already
    for name in {"matplotlib", *(m for m in sys.modules if m.startswith("matplotlib."))}:
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(ImportError, match=r"pip install 'gblas2d\[plot\]'"):
        report.plot(shared_dir / "trace.png")


def test_markers_do_nothing_on_python_graphblas():
    rows, cols, _ = graph().to_coo()
    A = G.Matrix.from_coo(rows, cols, True, nrows=256, ncols=256)
    ns = engine(A)
    with ns.iteration(), ns.iteration("label"):
        pass
    with gb.trace_all() as t:
        levels = bfs_levels(A, 0)
    report = t.gather()
    # python-graphblas runs in this process, untraced: nothing recorded, not even a marker
    assert report.rows == [] and t.products == [] and t.calls == []
    assert levels.isequal(gb.io.to_graphblas(bfs_levels(graph(), 0)))


def test_a_trace_inside_keeps_collecting():
    A = graph()
    x = gb.Vector.from_coo([0], [1.0], size=A.ncols)
    with gb.trace() as events:
        with gb.trace_all():
            pass
        # the two traces' lists were equal (empty): the inner one's end removed its own
        A.mxv(x, semiring.plus_times).new()
    assert len(events) == 1
