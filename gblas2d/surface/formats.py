"""A whole Matrix in and out of compressed arrays: CSR, CSC and their doubly compressed forms
DCSR and DCSC (python-graphblas's ``Matrix.from_csr`` ... ``Matrix.to_dcsc``), nested dicts
and edge lists; and ``Matrix.from_coo_chunks``, COO entries that each rank makes in chunks.

As ``from_coo`` and ``to_coo``: input is given identically on every rank, which expands it to
COO and keeps its own block's entries (no communication but ``from_coo``'s agreement); output
is the whole matrix on every rank, gathered once by ``to_coo``. ``matrix.py`` binds these
functions as methods.

In CSR, row i's column indices are ``col_indices[indptr[i]:indptr[i + 1]]`` and its values
the same slice of ``values``; DCSR lists only the rows that have entries, in
``compressed_rows``, with one ``indptr`` slot each. CSC and DCSC are the same by columns.
"""

from collections.abc import Sequence

import numpy as np

from ..distributed import redistribute as redist
from ..distributed.grid import collective, default_grid
from ..exceptions import IndexOutOfBound, InvalidObject, InvalidValue
from ..semirings.dtypes import lookup_dtype
from .inputs import index_array, order_of

__all__ = ["from_coo_chunks", "from_csc", "from_csr", "from_dcsc", "from_dcsr", "from_dicts",
           "from_edgelist", "to_csc", "to_csr", "to_dcsc", "to_dcsr", "to_dicts", "to_edgelist"]


@collective
def from_coo_chunks(cls, chunks, *, nrows, ncols, value=None, dtype="FP64", dup_op=None,
                    name=None, grid=None):
    """Collective. A Matrix from COO entries that each rank makes itself, in chunks (a gblas2d
    extension, for generators and readers): each chunk's entries travel to their owners as
    soon as it is made, so a rank holds one chunk of input and its own block's keys at a
    time, never its whole share of the input (``from_coo(..., distributed=True)`` holds that
    twice over while its entries travel).

    Parameters
    ----------
    chunks : iterable
        This rank's chunks: ``(rows, columns)`` pairs when ``value`` is given, else
        ``(rows, columns, values)``. Ranks may have different numbers of chunks.
    nrows, ncols : int
        The shape, the same on every rank.
    value : scalar, optional
        The one value of every entry (a pattern), held once, not per entry.
    dtype, dup_op, name, grid
        As in ``from_coo``; repeats are combined with ``dup_op`` or refused (InvalidValue).

    Examples
    --------
    >>> import gblas2d as gb  # doctest: +SKIP
    >>> parts = ((np.arange(k, 10, 2), np.arange(k, 10, 2)) for k in range(2))  # doctest: +SKIP
    >>> gb.Matrix.from_coo_chunks(parts, nrows=10, ncols=10, value=1).nvals  # doctest: +SKIP
    10
    """
    grid = grid or default_grid()
    dtype = lookup_dtype(dtype)
    nrows, ncols = int(nrows), int(ncols)
    if nrows < 0 or ncols < 0:
        raise InvalidValue(f"Matrix dimensions must be non-negative, got {nrows}x{ncols}")
    grid.comm.check_replicated("Matrix.from_coo_chunks", value, nrows, ncols)
    keys, vals = [], []
    chunks = iter(chunks)
    # One round a chunk: the ranks agree whether any has one left (a rank that has none
    # still takes part in the exchange, sending nothing).
    while True:
        chunk = next(chunks, None)
        if not grid.comm.allreduce(np.array([chunk is not None], dtype=np.int64), "max")[0]:
            break
        rows, cols, *chunk_vals = chunk if chunk is not None else \
            (np.empty(0, np.int64), np.empty(0, np.int64)) + \
            (() if value is not None else (np.empty(0, dtype.np_type),))
        rows = index_array(rows, "row indices", narrow=True)
        cols = index_array(cols, "column indices", narrow=True)
        for arr, n, what in ((rows, nrows, "row"), (cols, ncols, "column")):
            if arr.size and (arr.min() < 0 or arr.max() >= n):
                bad = arr[(arr < 0) | (arr >= n)][0]
                raise IndexOutOfBound(f"{what} index {bad} out of range for Matrix of shape "
                                      f"{nrows}x{ncols}")
        chunk_vals = [np.asarray(v).astype(dtype.np_type, copy=False) for v in chunk_vals]
        got = redist.to_blocks(grid, nrows, ncols, rows, cols, *chunk_vals)
        # The chunk goes now: a chunk that views a larger array (a reader's batch) would
        # keep it alive through the build.
        chunk = rows = cols = chunk_vals = None
        keys.append(got[0])
        vals.extend(got[1:])
        got = None
    keys = np.concatenate(keys) if keys else np.empty(0, np.int64)
    values = np.broadcast_to(np.asarray(value, dtype=dtype.np_type), keys.shape) \
        if value is not None else np.concatenate(vals or [np.empty(0, dtype.np_type)])
    vals = None
    entries = [keys, values]
    keys = values = None
    # Made once the exchanges are done: a rank that failed in one is heard of there, before
    # any rank makes (and names) the matrix.
    out = cls(dtype, nrows, ncols, name=name, grid=grid)
    out._set_from_entries(entries, dup_op)
    return out


def _expand(majors, indptr, indices, values, n_major, n_minor, by_rows):
    """(major indices, minor indices, values, n_major, n_minor) of compressed arrays; the
    majors are rows when ``by_rows``, else columns. ``majors`` None: every major, in order
    (CSR, CSC); otherwise the ones listed (DCSR, DCSC)."""
    major, minor = ("row", "column") if by_rows else ("column", "row")
    dims = ("nrows", "ncols") if by_rows else ("ncols", "nrows")
    indptr = index_array(indptr, "indptr")
    indices = index_array(indices, f"{minor} indices")
    if indptr.size == 0:
        raise InvalidValue("indptr array must not be empty")
    if majors is None:
        if n_major is not None and n_major != indptr.size - 1:
            raise InvalidValue(f"{dims[0]} must be None or equal to len(indptr) - 1; expected "
                              f"{n_major}, got {indptr.size - 1}")
        majors, n_major = np.arange(indptr.size - 1, dtype=np.int64), indptr.size - 1
    else:
        majors = index_array(majors, f"compressed {major}s")
        if majors.size != indptr.size - 1:
            raise InvalidValue(f"len(indptr) (={indptr.size}) must be one more than the number "
                               f"of compressed {major}s (={majors.size})")
        if n_major is None:
            n_major = int(majors.max()) + 1 if majors.size else 0
    counts = np.diff(indptr)
    if indptr[0] != 0 or (counts < 0).any():
        raise InvalidObject("indptr must start at 0 and never decrease")
    nnz = int(indptr[-1])
    values = np.asarray(values)
    if nnz > indices.size or values.ndim and nnz > len(values):
        raise InvalidValue(f"indptr ends at {nnz}, past the {indices.size} {minor} indices "
                           f"(and {values.size} values) given")
    indices, values = indices[:nnz], values[:nnz] if values.ndim else values
    if n_minor is None:
        n_minor = int(indices.max()) + 1 if indices.size else 0
    elif indices.size and (indices.min() < 0 or indices.max() >= n_minor):
        raise InvalidObject(f"a {minor} index is out of range for {dims[1]}={n_minor}")
    return np.repeat(majors, counts), indices, values, n_major, n_minor


@collective
def from_csr(cls, indptr, col_indices, values=1.0, dtype=None, *, nrows=None, ncols=None,
             name=None, grid=None):
    """Collective. A Matrix from CSR arrays given identically on every rank: ``nrows`` is
    ``len(indptr) - 1``, ``ncols`` the largest column index + 1 unless given; ``values`` one
    scalar for every entry or an array."""
    rows, cols, values, nrows, ncols = _expand(None, indptr, col_indices, values, nrows, ncols,
                                               True)
    return cls.from_coo(rows, cols, values, dtype, nrows=nrows, ncols=ncols, name=name,
                        grid=grid)


@collective
def from_csc(cls, indptr, row_indices, values=1.0, dtype=None, *, nrows=None, ncols=None,
             name=None, grid=None):
    """Collective. A Matrix from CSC arrays given identically on every rank (``from_csr`` by
    columns)."""
    cols, rows, values, ncols, nrows = _expand(None, indptr, row_indices, values, ncols, nrows,
                                               False)
    return cls.from_coo(rows, cols, values, dtype, nrows=nrows, ncols=ncols, name=name,
                        grid=grid)


@collective
def from_dcsr(cls, compressed_rows, indptr, col_indices, values=1.0, dtype=None, *, nrows=None,
              ncols=None, name=None, grid=None):
    """Collective. A Matrix from DCSR arrays given identically on every rank: the rows with
    entries, then CSR of those rows alone; ``nrows`` is the largest such row + 1 unless
    given."""
    rows, cols, values, nrows, ncols = _expand(compressed_rows, indptr, col_indices, values,
                                               nrows, ncols, True)
    return cls.from_coo(rows, cols, values, dtype, nrows=nrows, ncols=ncols, name=name,
                        grid=grid)


@collective
def from_dcsc(cls, compressed_cols, indptr, row_indices, values=1.0, dtype=None, *, nrows=None,
              ncols=None, name=None, grid=None):
    """Collective. A Matrix from DCSC arrays given identically on every rank (``from_dcsr`` by
    columns)."""
    cols, rows, values, ncols, nrows = _expand(compressed_cols, indptr, row_indices, values,
                                               ncols, nrows, False)
    return cls.from_coo(rows, cols, values, dtype, nrows=nrows, ncols=ncols, name=name,
                        grid=grid)


def _compress(A, dtype, by_rows, doubly):
    """Collective. The compressed arrays of the whole of A on every rank."""
    rows, cols, values = A.to_coo(dtype, sort=by_rows)
    if not by_rows:
        order = np.lexsort((rows, cols))
        rows, cols, values = cols[order], rows[order], values[order]
    majors, counts = np.unique(rows, return_counts=True) if doubly else \
        (None, np.bincount(rows.astype(np.int64), minlength=A.nrows if by_rows else A.ncols))
    indptr = np.zeros(len(counts) + 1, dtype=np.uint64)
    np.cumsum(counts, out=indptr[1:])
    arrays = (indptr, cols, values)
    return arrays if majors is None else (majors.astype(np.uint64), *arrays)


@collective
def to_csr(self, dtype=None, *, sort=True):
    """Collective. ``(indptr, col_indices, values)`` of the whole Matrix on every rank (the
    columns of each row ascending, whatever ``sort``)."""
    return _compress(self, dtype, True, False)


@collective
def to_csc(self, dtype=None, *, sort=True):
    """Collective. ``(indptr, row_indices, values)`` of the whole Matrix on every rank."""
    return _compress(self, dtype, False, False)


@collective
def to_dcsr(self, dtype=None, *, sort=True):
    """Collective. ``(compressed_rows, indptr, col_indices, values)`` of the whole Matrix on
    every rank."""
    return _compress(self, dtype, True, True)


@collective
def to_dcsc(self, dtype=None, *, sort=True):
    """Collective. ``(compressed_cols, indptr, row_indices, values)`` of the whole Matrix on
    every rank."""
    return _compress(self, dtype, False, True)


@collective
def from_edgelist(cls, edgelist, values=None, *, nrows=None, ncols=None, dup_op=None,
                  dtype=None, name=None, grid=None):
    """Collective. A Matrix from (row, column) pairs, or (row, column, value) triples, given
    identically on every rank: a sequence of them, or an array of shape (k, 2) with ``values``
    apart (as in ``from_coo``, 1.0 by default)."""
    if isinstance(edgelist, np.ndarray):
        if edgelist.ndim != 2:
            raise ValueError(f"edgelist array must have 2 dimensions (nvals x 2); got "
                             f"{edgelist.ndim}")
        if edgelist.shape[1] == 3:
            raise ValueError("edgelist as NumPy array only supports ``(row, column)``; values "
                             "must be passed separately.")
        if edgelist.shape[1] != 2:
            raise ValueError(f"Last dimension of edgelist array must be length 2 (for row and "
                             f"column); got {edgelist.shape[1]}")
        rows, cols = edgelist[:, 0], edgelist[:, 1]
    else:
        columns = list(zip(*edgelist, strict=True))
        if len(columns) not in (0, 2, 3):
            raise ValueError(f"Each item in the edgelist must have two or three elements (for "
                             f"row and column index, and maybe values); got {len(columns)}")
        rows, cols, *edge_values = [list(c) for c in columns] or ([], [])
        if edge_values and values is not None:
            raise TypeError("Too many sources of values: from `edgelist` triples and from "
                            "`values=` argument")
        values = edge_values[0] if edge_values else values
    return cls.from_coo(rows, cols, 1.0 if values is None else values, dtype, nrows=nrows,
                        ncols=ncols, dup_op=dup_op, name=name, grid=grid)


@collective
def to_edgelist(self, dtype=None, *, values=True, sort=True):
    """Collective. ``(edges, values)``: a (nvals, 2) array of (row, column), by row, and the
    values (None when ``values=False``), on every rank."""
    rows, cols, vals = self.to_coo(dtype, values=values, sort=sort)
    return np.column_stack([rows, cols]), vals


@collective
def from_dicts(cls, nested_dicts, dtype=None, *, order="rowwise", nrows=None, ncols=None,
               name=None, grid=None):
    """Collective. A Matrix from ``{row: {column: value}}``, or a list of ``{column: value}``
    (one per row), given identically on every rank; ``order="columnwise"`` reads them by
    columns."""
    by_rows = order_of(order) == "rowwise"
    if isinstance(nested_dicts, Sequence):
        dicts, majors = nested_dicts, None
        given, dim = (nrows, "nrows") if by_rows else (ncols, "ncols")
        if given is not None and given != len(dicts):
            raise InvalidValue(f"{dim} must be None or equal to len(nested_dicts); expected "
                              f"{len(dicts)}, got {given}")
    else:
        dicts, majors = list(nested_dicts.values()), list(nested_dicts.keys())
    indptr = np.cumsum([0, *map(len, dicts)])
    minors = [k for inner in dicts for k in inner]
    values = np.array([v for inner in dicts for v in inner.values()])
    n_major, n_minor = (nrows, ncols) if by_rows else (ncols, nrows)
    major, minor, values, n_major, n_minor = _expand(majors, indptr, minors, values, n_major,
                                                     n_minor, by_rows)
    rows, cols = (major, minor) if by_rows else (minor, major)
    nrows, ncols = (n_major, n_minor) if by_rows else (n_minor, n_major)
    return cls.from_coo(rows, cols, values, dtype, nrows=nrows, ncols=ncols, name=name,
                        grid=grid)


@collective
def to_dicts(self, order="rowwise"):
    """Collective. ``{row: {column: value}}`` (by column with ``order="columnwise"``) of the
    whole Matrix, on every rank."""
    by_rows = order_of(order) == "rowwise"
    rows, cols, values = self.to_coo()
    outer, inner = (rows, cols) if by_rows else (cols, rows)
    by = np.lexsort((inner, outer))
    out = {}
    for a, b, v in zip(outer[by].tolist(), inner[by].tolist(), values[by].tolist(),
                       strict=True):
        out.setdefault(a, {})[b] = v
    return out
