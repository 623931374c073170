"""What ``repr``, ``print`` and a notebook show of a Matrix or Vector: a header of its facts and
a table of its values, as python-graphblas shows them with pandas, here without.

Showing never communicates: a repr is often asked on one rank alone (``if rank == 0:
print(A)``), and a collective there would hang the others. At one process the table is the
object's top-left corner (the whole of a small one). At more ranks each rank shows what it
holds, its block or piece, and says so; ``Matrix.layout()`` (collective) shows who holds what,
as text and, asked, as a PNG heat map.
A table reads only the entries it shows: O(shown), whatever the size.
"""

import html

import numpy as np

__all__ = ["html_of", "layout", "layout_png", "text_of"]

# The most rows and columns a table shows.
ROWS, COLS = 12, 12


def _header(kind, obj, facts):
    names = ["nvals", *facts, "dtype", "grid"]
    values = [obj.nvals, *(getattr(obj, f) for f in facts), obj.dtype.name,
              "x".join(map(str, obj.grid.shape))]
    cells = [(n, str(v)) for n, v in zip(names, values, strict=True)]
    widths = [max(len(n), len(v)) for n, v in cells]
    first = max(len(f'"{obj.name}"'), len(f"gblas2d.{kind}"))
    top = f'"{obj.name}"'.ljust(first) + "".join(f"  {n:>{w}}" for (n, _), w in
                                                 zip(cells, widths, strict=True))
    bottom = f"gblas2d.{kind}".ljust(first) + "".join(f"  {v:>{w}}" for (_, v), w in
                                                        zip(cells, widths, strict=True))
    return [top, bottom]


def _format(values):
    return [str(v.item()) if hasattr(v, "item") else str(v) for v in values]


def _grid_table(row_ids, col_ids, rows, cols, vals, more_rows, more_cols):
    """Text lines of a table: ``row_ids`` x ``col_ids`` labels, the entries at (rows, cols)."""
    cells = {(r, c): s for r, c, s in zip(rows.tolist(), cols.tolist(), _format(vals),
                                          strict=True)}
    labels = [str(c) for c in col_ids] + (["..."] if more_cols else [])
    width = max([len(s) for s in cells.values()] + [len(s) for s in labels] + [1])
    left = max([len(str(r)) for r in row_ids] + [3 if more_rows else 1])
    lines = [" " * left + "".join(f"  {s:>{width}}" for s in labels)]
    for r in row_ids:
        line = f"{r:>{left}}" + "".join(f"  {cells.get((r, c), ''):>{width}}" for c in col_ids)
        lines.append((line + ("  ..." if more_cols else "")).rstrip())
    if more_rows:
        lines.append(f"{'...':>{left}}")
    return lines


def _matrix_window(A):
    """The rows, columns and entries a table of ``A`` shows: (row ids, col ids, rows, cols,
    values, more rows, more cols), global indices: the top-left corner of this rank's block
    (at one process, of the matrix)."""
    b = A.block
    r0, c0 = A.row_offset, A.col_offset
    ids, ptr, cols, vals = b.by_rows()
    # the first ROWS rows of the block that the table shows, and where their entries end
    shown_rows = min(b.nrows, ROWS)
    if ids is None:
        end = int(ptr[shown_rows])
        rows = np.repeat(np.arange(shown_rows, dtype=np.int64), np.diff(ptr[:shown_rows + 1]))
    else:
        k = int(np.searchsorted(ids, shown_rows))
        end = int(ptr[k])
        rows = np.repeat(ids[:k], np.diff(ptr[:k + 1]))
    keep = cols[:end] < COLS
    rows, cols = rows[keep], cols[:end][keep]
    vals = vals[:end][keep]
    return (list(range(r0, r0 + shown_rows)), list(range(c0, c0 + min(b.ncols, COLS))),
            rows + r0, cols + c0, vals, b.nrows > ROWS, b.ncols > COLS)


def _where(obj, what):
    grid = obj.grid
    if grid.nprocs == 1:
        return None
    return f"rank {grid.rank} holds {what}; Matrix.layout() shows every rank's part"


def matrix_text(A):
    lines = _header("Matrix", A, ["nrows", "ncols"])
    if A.nrows and A.ncols:
        row_ids, col_ids, rows, cols, vals, more_rows, more_cols = _matrix_window(A)
        where = _where(A, f"block ({A.grid.myrow}, {A.grid.mycol}): rows {A.row_offset}.."
                          f"{A.row_offset + A.block.nrows - 1}, columns {A.col_offset}.."
                          f"{A.col_offset + A.block.ncols - 1}, {A.block.nvals} entries")
        lines.append("-" * max(len(line) for line in lines))
        if where:
            lines.append(where)
        if row_ids and col_ids:
            lines += _grid_table(row_ids, col_ids, rows, cols, vals, more_rows, more_cols)
    return "\n".join(lines)


def vector_text(v):
    lines = _header("Vector", v, ["size"])
    if v.size:
        lo, idx, vals = v.local_piece()
        length = v.piece.size
        where = _where(v, f"piece {v.grid.rank}: positions {lo}..{lo + length - 1}, "
                          f"{v.piece.nvals} entries")
        lines.append("-" * max(len(line) for line in lines))
        if where:
            lines.append(where)
        if length:
            keep = idx < COLS
            cells = dict(zip((idx[keep] + lo).tolist(), _format(vals[keep]), strict=True))
            shown = range(lo, lo + min(length, COLS))
            labels = [str(i) for i in shown] + (["..."] if length > COLS else [])
            width = max([len(s) for s in cells.values()] + [len(s) for s in labels])
            lines.append("".join(f"  {s:>{width}}" for s in labels))
            lines.append(("".join(f"  {cells.get(i, ''):>{width}}" for i in shown) +
                          ("  ..." if length > COLS else "")).rstrip())
    return "\n".join(lines)


def text_of(obj):
    """The text of a Matrix (two dimensions) or a Vector."""
    return matrix_text(obj) if len(obj.shape) == 2 else vector_text(obj)


def html_of(obj):
    """The same for a notebook."""
    return f"<pre>{html.escape(text_of(obj))}</pre>"


def layout(A, png=None):
    """Collective. Which rank holds which block of ``A`` and how many entries: the grid as a
    table, every rank's entries in its cell, and the balance (max / mean); with ``png`` (a
    path), rank 0 also draws it there as a heat map (``layout_png``)."""
    grid = A.grid
    counts = grid.comm.allgather_object(A.block.nvals) if grid.nprocs > 1 else [A.block.nvals]
    R, C = grid.shape
    cells = np.array(counts, dtype=np.int64).reshape(R, C)
    rows = [f"rows {grid.row_block(A.nrows, i)[0]}..{grid.row_block(A.nrows, i)[1] - 1}"
            for i in range(R)]
    cols = [f"cols {grid.col_block(A.ncols, j)[0]}..{grid.col_block(A.ncols, j)[1] - 1}"
            for j in range(C)]
    title = f"{A.name}: {A.nrows:,} x {A.ncols:,}, {A.nvals:,} entries on a {R}x{C} grid"
    mean = cells.mean() if cells.size else 0
    balance = f"balance (max / mean entries a rank) {cells.max() / mean:.2f}" if mean else None
    if png is not None and grid.rank == 0:
        layout_png(png, cells, rows, cols, title, balance)
    texts = [[f"rank {i * C + j}: {cells[i, j]:,}" for j in range(C)] for i in range(R)]
    width = max(len(t) for t in [*cols, *(t for row in texts for t in row)])
    left = max(len(r) for r in rows)
    lines = [title, " " * left + "".join(f"  {c:>{width}}" for c in cols)]
    lines += [f"{rows[i]:>{left}}" + "".join(f"  {t:>{width}}" for t in texts[i])
              for i in range(R)]
    if balance:
        lines.append(balance)
    return "\n".join(lines)


def layout_png(path, cells, rows, cols, title, balance):
    """Draw the R x C grid of blocks into the PNG file ``path``: each cell colored by the
    entries its rank holds and labelled with the rank and the count, the axes with the blocks'
    row and column ranges, the balance under the title. matplotlib is imported here only, and
    drawn with its Agg canvas without pyplot, so a program's own plotting backend is left as
    it was."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as exc:
        raise ImportError("A.layout(png=...) draws with matplotlib, which is not installed: "
                          "pip install 'gblas2d[plot]'") from exc
    R, C = cells.shape
    figure = Figure(figsize=(min(2 + 1.6 * C, 16), min(1.5 + 1.1 * R, 12)))
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    image = axes.imshow(cells, cmap="viridis", vmin=0, vmax=max(int(cells.max()), 1),
                        aspect="auto")
    figure.colorbar(image, ax=axes, label="entries")
    light = cells.max() / 2
    for i in range(R):
        for j in range(C):
            # dark text on the light (high) end of viridis, light text on the dark end
            axes.text(j, i, f"rank {i * C + j}\n{cells[i, j]:,}", ha="center", va="center",
                      fontsize=9, color="black" if cells[i, j] > light else "white")
    # "cols a..b" on two lines, so that wide ranges of neighbouring blocks do not run together
    axes.set_xticks(range(C), [c.replace(" ", "\n", 1) for c in cols],
                    rotation=30 if C > 3 else 0, ha="right" if C > 3 else "center")
    axes.set_yticks(range(R), rows)
    axes.set_xlabel("column block")
    axes.set_ylabel("row block")
    axes.set_title(title + (f"\n{balance}" if balance else ""), fontsize=10)
    figure.tight_layout()
    figure.savefig(path, format="png", dpi=100)
