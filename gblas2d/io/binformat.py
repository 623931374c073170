"""gblas2d's binary matrix format: one uncompressed ``.npz`` that reloads at any rank count.

Rank 0 writes it (through graphio's atomic writer); every rank reads the run of entries of its
row block from the memory-mapped file and keeps its own, so no entries move between ranks.
Failures are agreed as in graphio: the same class and message on every rank.
"""

import os
import struct
import zipfile

import numpy as np

from ..distributed.failures import seen_per_rank
from ..distributed.grid import collective, default_grid
from ..exceptions import InvalidValue
from ..semirings.dtypes import lookup_dtype
from ..surface.matrix import Matrix
from .graphio import check_matrix, gather_to_root, on_root, os_error, row_major, write_atomically

__all__ = ["load", "save"]

_FORMAT = "gblas2d.matrix"
_VERSION = 1
_META = ("format", "version", "shape", "dtype", "iso")
_ARRAYS = ("rows", "cols", "values")


def _index_type(n):
    """The smallest unsigned type that holds 0 .. n-1."""
    for t in (np.uint8, np.uint16, np.uint32):
        if n <= np.iinfo(t).max + 1:
            return t
    return np.uint64


def _npz_members(A, rows, cols, values):
    """The arrays of a saved Matrix: entries sorted by (row, col), indices in the smallest
    unsigned type, and one value only when all are bit-equal (``iso``; -0.0 is not 0.0)."""
    order = row_major(rows, cols, A.ncols)
    index_type = _index_type(max(A.nrows, A.ncols))
    bits = values.view(f"u{values.dtype.itemsize}")
    iso = len(values) > 0 and bool(np.all(bits == bits[0]))
    return {"format": np.array(_FORMAT), "version": np.array(_VERSION),
            "shape": np.array(A.shape, dtype=np.int64), "dtype": np.array(A.dtype.name),
            "iso": np.array(iso), "rows": rows[order].astype(index_type),
            "cols": cols[order].astype(index_type),
            "values": values[:1] if iso else values[order]}


@collective
def save(path, A):
    """Collective. Save a Matrix to gblas2d's binary format: one uncompressed ``.npz``.

    Rank 0 gathers the entries and writes them atomically (a temporary file in the same
    directory, renamed onto ``path``). The archive holds ``rows``, ``cols`` (sorted by row,
    then column; the smallest unsigned type that fits), ``values`` (one value when all are
    equal), and ``format``, ``version``, ``shape``, ``dtype``, ``iso``; numpy reads it with
    ``np.load(path)``. ``load`` reads it back at any rank count.

    Raises
    ------
    OSError
        The file cannot be written (the same class and message on every rank).

    Examples
    --------
    >>> save("graph.npz", A)  # doctest: +SKIP
    >>> load("graph.npz").isequal(A)  # doctest: +SKIP
    True
    """
    check_matrix(A)
    rows, cols, values = gather_to_root(A)
    on_root(A.grid, lambda: write_atomically(
        path, lambda f: np.savez(f, **_npz_members(A, rows, cols, values)), compress=False))


def _member(f, archive, name):
    """A 1-D ``.npy`` member: memory-mapped when stored uncompressed, as ``save`` writes them
    (so a rank reads only the pages it touches), else read whole."""
    info = archive.getinfo(f"{name}.npy")
    if info.compress_type != zipfile.ZIP_STORED:
        with archive.open(info) as m:
            return np.lib.format.read_array(m, allow_pickle=False)
    # A zip local header is 30 bytes, then the member's name and an extra field.
    f.seek(info.header_offset)
    local = f.read(30)
    if local[:4] != b"PK\x03\x04":
        raise InvalidValue(f"broken zip member '{name}.npy'")
    f.seek(info.header_offset + 30 + sum(struct.unpack("<HH", local[26:30])))
    read_header = {(1, 0): np.lib.format.read_array_header_1_0,
                   (2, 0): np.lib.format.read_array_header_2_0}.get(np.lib.format.read_magic(f))
    if read_header is None:
        raise InvalidValue(f"member '{name}.npy' has an unsupported .npy version")
    shape, _, dtype = read_header(f)
    if len(shape) != 1 or dtype.hasobject:
        raise InvalidValue(f"member '{name}.npy' is not a 1-D array of numbers")
    if f.tell() + shape[0] * dtype.itemsize > os.fstat(f.fileno()).st_size:
        raise InvalidValue("the archive is truncated")
    if shape[0] == 0:
        return np.empty(0, dtype)
    return np.memmap(f, dtype=dtype, mode="r", offset=f.tell(), shape=shape)


def _read_block(path, grid):
    """This rank's block of a saved Matrix: ((nrows, ncols, dtype name), rows, cols, values)."""
    try:
        with open(path, "rb") as f, zipfile.ZipFile(f) as archive:
            return _read_block_of(f, archive, grid)
    except zipfile.BadZipFile as exc:
        raise InvalidValue(f"{path}: not a gblas2d matrix file (not an .npz archive)") from exc
    except OSError as exc:
        # every rank opens the file for its own block
        raise seen_per_rank(os_error(path, exc)) from exc
    except InvalidValue as exc:
        raise InvalidValue(f"{path}: {exc}") from exc
    except (ValueError, TypeError, KeyError, IndexError) as exc:
        raise InvalidValue(f"{path}: not a readable gblas2d matrix file ({exc})") from exc


def _read_block_of(f, archive, grid):
    missing = [m for m in _META + _ARRAYS if f"{m}.npy" not in archive.namelist()]
    if missing:
        raise InvalidValue(f"not a gblas2d matrix file (no '{missing[0]}' array)")
    meta = {}
    for m in _META:
        with archive.open(f"{m}.npy") as member:
            meta[m] = np.lib.format.read_array(member, allow_pickle=False)
    if str(meta["format"]) != _FORMAT:
        raise InvalidValue(f"format is '{meta['format']}', not '{_FORMAT}'")
    if int(meta["version"]) > _VERSION:
        raise InvalidValue(f"format version {int(meta['version'])} is newer than this "
                           f"gblas2d's ({_VERSION})")
    nrows, ncols = (int(s) for s in meta["shape"])
    dtype = lookup_dtype(str(meta["dtype"]))
    all_rows, all_cols, all_values = (_member(f, archive, m) for m in _ARRAYS)
    nvals = len(all_rows)
    iso = bool(meta["iso"]) and nvals > 0
    if (len(all_cols), len(all_values)) != (nvals, 1 if iso else nvals):
        raise InvalidValue("the rows, cols and values arrays differ in length")
    if all_values.dtype != dtype.np_type:
        raise InvalidValue(f"values are {all_values.dtype}, but the dtype is {dtype}")
    # Entries are sorted by row, so this rank's row block is one run of the file, found by
    # binary search; the rank keeps the entries of its column block. Each bound is its own
    # search, so the grid rows' runs tile the file even if it is not sorted (the entries then
    # travel to their owners in from_coo): every entry is read by one rank.
    row_lo, row_hi = grid.row_block(nrows)
    lo = 0 if grid.myrow == 0 else int(np.searchsorted(all_rows, row_lo))
    hi = nvals if grid.myrow == grid.nrows - 1 else int(np.searchsorted(all_rows, row_hi))
    rows = np.array(all_rows[lo:hi], dtype=np.int64)
    cols = np.array(all_cols[lo:hi], dtype=np.int64)
    for what, idx, n in (("row", rows, nrows), ("column", cols, ncols)):
        if len(idx) and idx.max() >= n:
            raise InvalidValue(f"{what} index {idx.max()} out of range for a {nrows}x{ncols} "
                               "Matrix")
    col_lo, col_hi = grid.col_block(ncols)
    mine = np.flatnonzero((cols >= col_lo) & (cols < col_hi))
    values = np.full(len(mine), all_values[0], dtype=dtype.np_type) if iso else \
        np.asarray(all_values[lo:hi])[mine]
    return (nrows, ncols, dtype.name), rows[mine], cols[mine], values


@collective
def load(path, *, name=None, grid=None):
    """Collective. Load a Matrix written by ``save``, at any rank count.

    Every rank reads the small metadata arrays, finds the run of entries of its row block by
    binary search in the memory-mapped ``rows`` array (entries are sorted by row), and keeps
    those of its column block: on an R x C grid each rank reads 1/R of the file, and no entry
    travels between ranks.

    Raises
    ------
    OSError
        The file cannot be opened on some rank (the lowest such rank's error, on every rank).
    InvalidValue
        Not a file written by ``save``, or a damaged one.

    Examples
    --------
    >>> A = load("graph.npz")  # doctest: +SKIP
    """
    grid = grid or default_grid()
    block = _read_block(path, grid)
    # A rank that could not read its share is heard of at this collective's guard.
    seen = grid.comm.allgather_object(block[0])
    if any(meta != seen[0] for meta in seen):
        raise InvalidValue(f"{path}: the ranks read different headers: {sorted(set(seen))}")
    (nrows, ncols, type_name), rows, cols, values = block
    try:
        return Matrix.from_coo(rows, cols, values, dtype=type_name, nrows=nrows, ncols=ncols,
                               name=name, distributed=True, grid=grid)
    except InvalidValue as exc:
        raise InvalidValue(f"{path}: duplicate entries") from exc
