"""What repr, print and a notebook show of a Matrix or Vector (issue 32): its facts and its
values, without pandas, never communicating (any rank may print alone); ``Matrix.layout()``
shows who holds what, as text or as a PNG heat map."""

import sys

import numpy as np
import pytest
from _helpers import agreed

import gblas2d as gb
from gblas2d.surface import display


def lines(obj):
    return repr(obj).splitlines()


def test_a_small_matrix_shows_its_values_where_they_are():
    A = gb.Matrix.from_coo([0, 1, 2], [1, 3, 0], [1.5, 2.0, -3.0], nrows=3, ncols=4, name="A")
    text = lines(A)
    assert text[0].split() == ['"A"', "nvals", "nrows", "ncols", "dtype", "grid"]
    assert text[1].split()[:5] == ["gblas2d.Matrix", "3", "3", "4", "FP64"]
    grid = gb.default_grid()
    if grid.nprocs > 1:
        # each rank shows its own block, and says which
        assert agreed(f"rank {grid.rank} holds block" in repr(A))
        return
    header, *rows = text[3:]
    assert header.split() == ["0", "1", "2", "3"]
    # each value sits under its column's label
    at = {label: header.index(label) + len(label) for label in header.split()}
    for row, (col, value) in zip(rows, [("1", "1.5"), ("3", "2.0"), ("0", "-3.0")], strict=True):
        assert row.split()[1] == value and row.index(value) + len(value) == at[col]


def test_a_large_matrix_shows_its_corner_only():
    n = 2**40
    A = gb.Matrix.from_coo([0, 3, n - 1], [2, 0, n - 1], [7, 8, 9], nrows=n, ncols=n)
    text = lines(A)
    table = text[4:] if gb.default_grid().nprocs == 1 else text[5:]
    assert len(table) == display.ROWS + 1 and table[-1].strip() == "..."
    assert all(row.endswith("...") for row in table[:-1])
    assert str(n) in text[1]
    if gb.default_grid().nprocs == 1:
        assert table[0].split() == ["0", "7", "..."] and table[3].split() == ["3", "8", "..."]


def test_a_vector_shows_its_values_under_their_positions():
    v = gb.Vector.from_coo([1, 4], [10, 20], size=6, name="v")
    text = lines(v)
    assert text[1].split() == ["gblas2d.Vector", "2", "6", "INT64",
                               "x".join(map(str, gb.default_grid().shape))]
    if gb.default_grid().nprocs == 1:
        labels, values = text[3], text[4]
        assert labels.split() == ["0", "1", "2", "3", "4", "5"]
        assert values.split() == ["10", "20"]
        assert values.index("10") + 2 == labels.index("1") + 1
    assert v._repr_html_().startswith("<pre>") and "&quot;v&quot;" in v._repr_html_()


def test_printing_on_one_rank_alone_does_not_communicate():
    A = gb.Matrix.from_coo(np.arange(8), np.arange(8)[::-1], 1, nrows=8, ncols=8)
    v = gb.Vector.from_coo([2], [1.0], size=8)
    grid = gb.default_grid()
    if grid.rank == grid.nprocs - 1:
        # a collective here would leave this rank waiting for the others: a hang
        shown = repr(A) + repr(v) + A._repr_html_()
        assert "gblas2d.Matrix" in shown and "gblas2d.Vector" in shown
    assert agreed(True)


def test_the_layout_says_who_holds_what():
    A = gb.Matrix.from_coo(np.arange(10), np.arange(10), 1, nrows=10, ncols=10, name="D")
    text = A.layout().splitlines()
    R, C = gb.default_grid().shape
    assert text[0] == f"D: 10 x 10, 10 entries on a {R}x{C} grid"
    counts = [int(cell.split(": ")[1].replace(",", "")) for line in text[2:2 + R]
              for cell in line.split("rank ")[1:]]
    assert sum(counts) == 10 and len(counts) == R * C
    local = gb.default_grid().comm.allgather_object(A.block.nvals) \
        if gb.default_grid().nprocs > 1 else [A.block.nvals]
    assert counts == local


PNG = b"\x89PNG\r\n\x1a\n"


def test_the_layout_draws_a_heat_map_on_rank_0(tmp_path):
    A = gb.Matrix.from_coo(np.arange(10), np.arange(10), 1, nrows=10, ncols=10, name="D")
    path = tmp_path / "layout.png"
    text = A.layout(png=path)
    grid = gb.default_grid()
    # each rank has its own tmp_path: rank 0 wrote the file, the others nothing
    written = path.read_bytes()[:8] == PNG if grid.rank == 0 else not path.exists()
    assert agreed(written and text == A.layout()), text


def test_the_heat_map_without_matplotlib_is_one_import_error(tmp_path, monkeypatch):
    for module in ("matplotlib.figure", "matplotlib.backends.backend_agg"):
        monkeypatch.setitem(sys.modules, module, None)  # importing it raises ImportError
    A = gb.Matrix.from_coo([0], [1], 1.0, nrows=4, ncols=4)
    # only rank 0 draws; the others raise its error too, and the grid goes on
    with pytest.raises(ImportError, match=r"pip install 'gblas2d\[plot\]'"):
        A.layout(png=tmp_path / "layout.png")
    assert agreed(not (tmp_path / "layout.png").exists() and A.layout().startswith("M_"))
