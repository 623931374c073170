"""Matrix Market files: ``mmread`` and ``mmwrite``. The format's rules (LAGraph's header,
with its ``%%GraphBLAS type`` line, and the checks scipy's parser does not make) are most of
the code, so they have a file of their own; what they share with the other text readers and
writers (a rank's share of a file, the atomic write, failures agreed across ranks) is
graphio.py's.

``mmread`` and ``mmwrite`` are collective. A coordinate file is read in parallel: rank 0 reads
the lines before the data, then every rank checks and parses (scipy's parser, with its share
of the node's threads) the lines that start in its 1/P of the data's bytes and sends the
entries to their owners, so no rank holds the whole file; the first problem in the file is
raised on every rank. An array file and a file object are read by rank 0 alone, which sends
every rank its entries. ``mmwrite`` gathers the entries to rank 0, which writes them through
graphio's atomic writer.

Failures are agreed before they are raised: a missing or unreadable file raises the OSError
subclass that ``open`` raised (FileNotFoundError, PermissionError, ...); malformed content
raises InvalidValue; complex values raise NotImplementedException. Every rank raises the same
class with the same message, and the message starts with the file's path.
"""

import io
import os
import re

import numpy as np

from ..distributed.grid import collective, default_grid
from ..exceptions import InvalidValue, NotImplementedException
from ..local.backends import threads_per_rank
from ..semirings.dtypes import lookup_dtype
from ..surface.matrix import Matrix
from ..surface.vector import Vector
from .graphio import (
    check_matrix,
    excerpt,
    gather_to_root,
    mirrored_alike,
    my_text,
    on_root,
    opened,
    read_bytes,
    row_major,
    write_atomically,
)

__all__ = ["mmread", "mmwrite"]

_FORMATS = ("coordinate", "array")
_FIELDS = ("real", "integer", "complex", "pattern")
_SYMMETRIES = ("general", "symmetric", "skew-symmetric", "hermitian")
_FIELD_TYPES = {"real": "FP64", "integer": "INT64", "pattern": "BOOL"}
# LAGraph's ``%%GraphBLAS type <ctype>`` name of each of our types; we also accept "int8" and
# "grb_int8".
_C_NAMES = {"BOOL": "bool", "INT8": "int8_t", "INT16": "int16_t", "INT32": "int32_t",
            "INT64": "int64_t", "UINT8": "uint8_t", "UINT16": "uint16_t", "UINT32": "uint32_t",
            "UINT64": "uint64_t", "FP32": "float", "FP64": "double"}
_TYPE_NAMES = {alias: t for t, c in _C_NAMES.items()
               for alias in (c, t.lower(), "grb_" + t.lower())}
_COMPLEX_NAMES = ("float complex", "double complex", "gxb_fc32", "gxb_fc64", "fc32", "fc64")
_UNSIGNED = ("BOOL", "UINT8", "UINT16", "UINT32", "UINT64")


class _MMHeader:
    """What the lines before the data say: format, field, symmetry, entry type, shape."""

    def __init__(self):
        self.format, self.field, self.symmetry = None, "real", "general"
        self.type = self.type_line = None
        self.banner_end = None  # offset of the newline that ends the banner
        self.body_start = 0  # offset of the first line after the size line
        self.nrows = self.ncols = 0
        self.lines = 0  # data lines the size line declares


class _NoSizeLine(Exception):
    """A prefix of the file ends before the size line: read more."""


def _mm_header(path, data, partial=False):
    """Parse and check the banner, ``%%GraphBLAS type`` line and size line (LAGraph rules: the
    banner is optional, and without it the size line's length picks coordinate or array).
    ``partial``: ``data`` is a prefix of the file."""
    head = _MMHeader()
    gb_type = None
    pos, number = 0, 0
    while True:
        if pos >= len(data):
            raise (_NoSizeLine if partial else InvalidValue)(
                f"{path}: no size line (the file ends before the data)")
        end = data.find(b"\n", pos)
        end = len(data) if end < 0 else end
        line = data[pos:end].decode("latin-1").strip()
        number += 1
        pos = end + 1
        if number == 1 and line.lower().startswith("%%matrixmarket"):
            _mm_banner(path, line, head)
            head.banner_end = end
        elif head.banner_end is not None and line.lower().startswith("%%graphblas"):
            tokens = line.split(None, 2)
            if len(tokens) > 1 and tokens[1].lower() == "type":
                gb_type = (tokens[2] if len(tokens) > 2 else "").strip().lower()
                head.type_line = number
        elif line and not line.startswith("%"):
            break
    head.body_start = pos
    _mm_size_line(path, line, number, head)
    _mm_entry_type(path, head, gb_type)
    return head


def _mm_banner(path, line, head):
    tokens = line.lower().split()
    if len(tokens) != 5:
        raise InvalidValue(f"{path}: line 1: the banner must read '%%MatrixMarket matrix "
                           f"<format> <field> <symmetry>', got '{excerpt(line)}'")
    obj, head.format, head.field, head.symmetry = tokens[1:]
    for what, value, allowed in (("object", obj, ("matrix",)),
                                 ("format", head.format, _FORMATS),
                                 ("field", head.field, _FIELDS),
                                 ("symmetry", head.symmetry, _SYMMETRIES)):
        if value not in allowed:
            raise InvalidValue(f"{path}: line 1: unknown {what} '{value}' (must be "
                               f"{_one_of(allowed)})")
    if head.field == "pattern" and head.format != "coordinate":
        raise InvalidValue(f"{path}: line 1: the 'pattern' field needs the 'coordinate' "
                           f"format, not '{head.format}'")
    if head.field == "pattern" and head.symmetry not in ("general", "symmetric"):
        raise InvalidValue(f"{path}: line 1: the 'pattern' field cannot be {head.symmetry}")
    if head.symmetry == "hermitian" and head.field != "complex":
        raise InvalidValue(f"{path}: line 1: 'hermitian' symmetry needs the 'complex' field, "
                           f"not '{head.field}'")


def _one_of(names):
    quoted = [f"'{n}'" for n in names]
    return " or ".join(quoted) if len(quoted) < 3 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"


def _mm_size_line(path, line, number, head):
    tokens = line.split()
    if head.format is None:
        head.format = "array" if len(tokens) == 2 else "coordinate"
    want = "nrows ncols nvals" if head.format == "coordinate" else "nrows ncols"
    try:
        sizes = [int(t) for t in tokens]
    except ValueError:
        sizes = []
    if len(sizes) != len(want.split()) or min(sizes) < 0:
        raise InvalidValue(f"{path}: line {number}: the size line must be '{want}' "
                           f"({head.format} format), non-negative integers; got '{excerpt(line)}'")
    head.nrows, head.ncols = sizes[:2]
    if head.nrows != head.ncols and head.symmetry != "general":
        raise InvalidValue(f"{path}: line {number}: a {head.nrows}x{head.ncols} matrix cannot "
                           f"be {head.symmetry}; only a square one can")
    # The data lines the size line promises (an array file lists one triangle when symmetric).
    n = head.nrows
    head.lines = sizes[2] if head.format == "coordinate" else {
        "general": n * head.ncols, "symmetric": n * (n + 1) // 2,
        "skew-symmetric": n * (n - 1) // 2}.get(head.symmetry, n * n)


def _mm_entry_type(path, head, gb_type):
    """The DataType of the entries: the ``%%GraphBLAS type`` line's, else the field's."""
    if gb_type in _COMPLEX_NAMES and head.field != "complex":
        raise InvalidValue(f"{path}: line {head.type_line}: GraphBLAS type '{gb_type}' does "
                           f"not fit the '{head.field}' field")
    if head.field == "complex" or gb_type in _COMPLEX_NAMES:
        raise NotImplementedException(f"{path}: complex values are not supported (gblas2d "
                                      "has no complex dtype)")
    if gb_type is not None and gb_type not in _TYPE_NAMES:
        raise InvalidValue(f"{path}: line {head.type_line}: unknown GraphBLAS type "
                           f"'{gb_type}'")
    head.type = lookup_dtype(_FIELD_TYPES[head.field] if gb_type is None else
                             _TYPE_NAMES[gb_type])
    if head.symmetry == "skew-symmetric" and head.type.name in _UNSIGNED:
        raise InvalidValue(f"{path}: skew-symmetric storage needs a signed type, not "
                           f"{head.type}")


def _parse_field(head):
    """The field scipy parses the values as: the entry type's, whatever the banner says (a
    file of ``integer`` field and ``float`` type holds inf)."""
    if head.field == "pattern":
        return "pattern"
    if head.type.name in ("FP32", "FP64"):
        return "real"
    return "unsigned-integer" if head.type.name == "UINT64" else "integer"


def _reject_binary(path, data, first=1):
    """A NUL byte is binary data, never Matrix Market text, and scipy's compiled reader can
    crash the process on one: refuse the file with the line it is on (``data``'s first line
    is number ``first``)."""
    at = data.find(b"\x00")
    if at >= 0:
        line = data.count(b"\n", 0, at) + first
        raise InvalidValue(f"{path}: line {line}: a NUL byte (binary data, not Matrix Market "
                           "text)")


# Tokens on a data line, by format and field (a complex value is two).
_MM_TOKENS = {("coordinate", "pattern"): 2, ("coordinate", "complex"): 4, ("array", "complex"): 2}
# Text checked at a time: the check's temporaries are about 7 bytes a byte of text (its
# masks, and reduceat's int32 copy of the token starts), 15 MiB a chunk.
_CHECK_CHUNK = 1 << 21


def _check_mm_lines(path, data, head, start, line):
    """Every data line of ``data[start:]`` (whose first line is number ``line``) holds as
    many tokens as its format has, and an integer file no value with a fraction or an
    exponent: scipy's reader would store 2.5 as 2 and drop an extra column without a word.
    One vectorized pass over the data, in chunks of whole lines; returns the entries and
    whether comment lines are among them."""
    want = _MM_TOKENS.get((head.format, head.field), 3 if head.format == "coordinate" else 1)
    entries, comments = 0, False
    while start < len(data):
        end = data.find(b"\n", min(start + _CHECK_CHUNK, len(data)))
        end = len(data) if end < 0 else end + 1
        chunk = np.frombuffer(data, np.uint8, end - start, start)
        blank = chunk <= 32
        token_start = ~blank
        token_start[1:] &= blank[:-1]
        # line k of the chunk is [first[k], first[k + 1])
        first = np.r_[0, np.flatnonzero(chunk[:-1] == 10) + 1]
        tokens = np.add.reduceat(token_start.view(np.int8), first, dtype=np.int32)
        comment = chunk[first] == ord("%")
        wrong = np.flatnonzero((tokens != want) & (tokens > 0) & ~comment)
        if len(wrong):
            k = int(wrong[0])
            article = "an" if head.format == "array" else "a"
            raise InvalidValue(f"{path}: line {line + k}: {tokens[k]} values where {article} "
                               f"{head.format} {head.field} entry has {want}")
        if head.field == "integer":
            fraction = np.flatnonzero((chunk == ord(".")) | ((chunk | 32) == ord("e")))
            lines = np.searchsorted(first, fraction, side="right") - 1
            lines = lines[~comment[lines]]
            if len(lines):
                raise InvalidValue(f"{path}: line {line + int(lines[0])}: a value that is not "
                                   "an integer in an 'integer' file")
        entries += int(np.count_nonzero((tokens > 0) & ~comment))
        comments = comments or bool(comment.any())
        line += len(first)
        start = end
    return entries, comments


def _check_mm_count(path, head, entries):
    """The file holds as many entries as its size line declares; checked before scipy
    allocates for the declared size (a header can claim 10^12 entries)."""
    if entries < head.lines:
        raise InvalidValue(f"{path}: Truncated file: the size line declares {head.lines} "
                           f"entries, the file holds {entries}")
    if entries > head.lines:
        raise InvalidValue(f"{path}: {entries} entries, more than the {head.lines} the size "
                           "line declares")


def _banner(head):
    """The banner scipy reads the data by. A coordinate file is passed as "general":
    ``_expand`` mirrors it in the entry type."""
    symmetry = "general" if head.format == "coordinate" else head.symmetry
    return f"%%MatrixMarket matrix {head.format} {_parse_field(head)} {symmetry}".encode()


def _blanked(data, start, comments):
    """``data[start:]``, data lines, with comment lines blanked out when it has some
    (``comments``: LAGraph allows them among the data, scipy does not) and a final newline
    (scipy's compiled reader can crash on a last line without one, seen with an extra token
    there), as parts to join."""
    body = memoryview(data)[start:]
    if comments:
        body = re.sub(rb"(?m)^%[^\n]*", b"", body)
    return [body, b"" if bytes(body[-1:]) in (b"", b"\n") else b"\n"]


def _mm_stream(data, head, comments):
    """The whole file as scipy reads it (``_banner``, ``_blanked``), as parts; lines keep
    their numbers, except that a file without a banner gets one: returns (parts, how many
    lines were added)."""
    view = memoryview(data)
    if head.banner_end is None:
        parts, added = [_banner(head), b"\n", view[:head.body_start]], 1
    else:
        parts, added = [_banner(head), view[head.banner_end:head.body_start]], 0
    return [*parts, *_blanked(data, head.body_start, comments)], added


class _Joined(io.RawIOBase):
    """Byte buffers read one after another as one stream: the text is parsed behind a banner
    and a size line of its own with no copy of it joined to them (its size again)."""

    def __init__(self, parts):
        self._parts = [memoryview(p).cast("B") for p in parts if len(p)]

    def readable(self):
        return True

    def readinto(self, buffer):
        while self._parts and not len(self._parts[0]):
            self._parts.pop(0)
        if not self._parts:
            return 0
        head = self._parts[0]
        n = min(len(buffer), len(head))
        buffer[:n] = head[:n]
        self._parts[0] = head[n:]
        return n


def _mm_parse(path, parts, shift):
    """scipy's reading of the stream that is ``parts`` joined; an error names the file's
    line, the stream's plus ``shift``."""
    import scipy.io
    from threadpoolctl import threadpool_limits

    try:
        # scipy's parser takes every core by default: a rank takes its share of them
        with threadpool_limits(limits=threads_per_rank(), user_api="scipy"):
            return scipy.io.mmread(io.BufferedReader(_Joined(parts), 1 << 20),
                                   spmatrix=False)
    except (ValueError, OverflowError) as exc:
        message = re.sub(r"^Line (\d+)", lambda m: f"line {int(m.group(1)) + shift}", str(exc))
        raise InvalidValue(f"{path}: {message}") from exc


def _mm_values(path, head, parsed, dtype):
    """(rows, cols, values) of scipy's reading, checked against the entry type, mirrored
    when the file stores one triangle, and cast to ``dtype`` (default the entry type).
    A pattern's values are None: every entry is 1, held once (``from_coo_chunks``'s
    ``value``). The indices keep scipy's type, int32 where the dimensions allow: the build
    widens them a batch at a time."""
    if head.format == "array":
        rows, cols = np.divmod(np.arange(parsed.size, dtype=np.int64), max(head.ncols, 1))
        values = parsed.reshape(-1)
    else:
        rows, cols = parsed.coords
        values = None if head.field == "pattern" else parsed.data
    if values is None:
        if head.symmetry != "general":
            rows, cols, _ = _expand(rows, cols, None, head.symmetry)
        return rows, cols, None
    _check_range(path, head.type, rows, cols, values)
    with np.errstate(all="ignore"):
        values = values.astype(head.type.np_type, copy=False)
        if head.format == "coordinate" and head.symmetry != "general":
            rows, cols, values = _expand(rows, cols, values, head.symmetry)
        values = values.astype((dtype or head.type).np_type, copy=False)
    return rows, cols, values


def _mm_entries(path, dtype):
    """Rank 0's reading of a whole file: ((rows, cols, values), its header)."""
    data = read_bytes(path)
    _reject_binary(path, data)
    head = _mm_header(path, data)
    first = data.count(b"\n", 0, head.body_start) + 1
    entries, comments = _check_mm_lines(path, data, head, head.body_start, first)
    _check_mm_count(path, head, entries)
    stream, added = _mm_stream(data, head, comments)
    del data
    return _mm_values(path, head, _mm_parse(path, stream, -added), dtype), head


def _head_where_all_open(grid, path):
    """Collective. Rank 0's ``_mm_head``, while every other rank opens the file, of which it
    reads a share next: a file that only some ranks can see fails here, on every rank, and
    the message names the ranks that cannot open it."""
    result = None
    with grid.comm.agreed():
        if grid.rank == 0:
            result = _mm_head(path)
        else:
            with opened(path, each_rank=True):
                pass
    return result


def _mm_head(path):
    """Rank 0's reading of the lines before the data: (header, number of the first line
    after the size line). It reads a prefix of the file, longer until it holds the size
    line. The other ranks open the file meanwhile (``_head_where_all_open``)."""
    with opened(path, each_rank=True) as f:
        want = 1 << 16
        while True:
            f.seek(0)
            data = f.read(want + 1)
            whole = len(data) <= want  # (a gzip stream does not say its length)
            if not whole:
                data = data[:data.rfind(b"\n") + 1]
            _reject_binary(path, data)
            try:
                head = _mm_header(path, data, partial=not whole)
            except _NoSizeLine:
                want *= 4
                continue
            return head, data.count(b"\n", 0, head.body_start) + 1


def _mm_share(path, grid, head, first, dtype):
    """Collective. This rank's entries of a coordinate file: the lines that start in its
    1/P of the bytes after the size line (``first`` is that line's number), checked and
    parsed here. The problem met first in reading the whole file on one process is raised
    on every rank: a NUL byte, a line with the wrong tokens, a wrong count of entries, what
    scipy refuses, a value outside the entry type; each kind at its first line."""
    with grid.comm.agreed():
        data = my_text(path, grid, head.body_start)
    counts = grid.comm.allgather_object(data.count(b"\n"))
    line = first + sum(counts[:grid.rank])
    stage, problem, entries, share = 0, None, 0, None
    try:
        _reject_binary(path, data, line)
        stage = 1
        entries, comments = _check_mm_lines(path, data, head, 0, line)
        stage = 2
        # the stream's lines 1 and 2 are the banner and a size line counting this share
        parts = [_banner(head), f"\n{head.nrows} {head.ncols} {entries}\n".encode(),
                 *_blanked(data, 0, comments)]
        del data
        parsed = _mm_parse(path, parts, line - 3)
        del parts
        stage = 3
        share = _mm_values(path, head, parsed, dtype)
        del parsed
    except InvalidValue as exc:
        problem = exc
    heard = grid.comm.allgather_object((stage, problem, entries))
    for kind in (0, 1, "count", 2, 3):
        if kind == "count":
            _check_mm_count(path, head, sum(e for *_, e in heard))
        for at, exc, _ in heard:
            if exc is not None and at == kind:
                raise exc
    return share


def _expand(rows, cols, values, symmetry):
    """Add the mirror image of every off-diagonal entry; skew-symmetric negates it in the
    entry type, as LAGraph does (so -(-128) is -128 in INT8). ``values`` None: a pattern's,
    left None."""
    off = rows != cols
    if values is not None:
        mirrored = -values[off] if symmetry == "skew-symmetric" else values[off]
        values = np.concatenate([values, mirrored])
    return np.concatenate([rows, cols[off]]), np.concatenate([cols, rows[off]]), values


def _check_range(path, dtype, rows, cols, values):
    """Integer values must fit the entry type (LAGraph rejects them otherwise)."""
    if dtype.name in ("FP32", "FP64", "INT64", "UINT64") or values.dtype.kind not in "iu":
        return
    info = np.iinfo(dtype.np_type) if dtype.name != "BOOL" else None
    lo, hi = (0, 1) if info is None else (info.min, info.max)
    bad = np.flatnonzero((values < lo) | (values > hi))
    if len(bad):
        k = bad[0]
        raise InvalidValue(f"{path}: entry ({rows[k] + 1}, {cols[k] + 1}) = {values[k]} is "
                           f"outside the range of {dtype} [{lo}, {hi}]")


def _check_engine(engine):
    """python-graphblas's ``engine`` argument: gblas2d's own reader and writer serve each."""
    if str(engine).lower() not in _ENGINES:
        raise ValueError(f"Bad engine value: {engine!r}. Must be {_one_of(_ENGINES)}")


_ENGINES = ("auto", "scipy", "fmm", "fast_matrix_market")


@collective
def mmread(path, engine="auto", *, dup_op=None, name=None, dtype=None, grid=None):
    """Collective. Read a Matrix Market file (``.mtx``, or ``.mtx.gz``) into a Matrix.

    Coordinate and array formats; ``real``, ``integer`` and ``pattern`` fields (``complex``
    raises NotImplementedException: gblas2d has no complex dtype); ``general``,
    ``symmetric`` and ``skew-symmetric`` storage, expanded to the full matrix with the
    diagonal once. As LAGraph's reader, it honors a ``%%GraphBLAS type <ctype>`` line after
    the banner (``bool``, ``int8_t``, ..., ``uint64_t``, ``float``, ``double``) and rejects
    integers outside that type's range; a file with no banner is ``coordinate real general``
    (or ``array`` when the size line has two numbers), and comment lines may appear among the
    data. An array file gives a full matrix (every position an entry). Pattern entries are
    1 (True for BOOL).

    A coordinate file is read in parallel: rank 0 reads the lines before the data, then each
    rank checks and parses its share of the lines (scipy.io.mmread parses the numbers) and
    sends the entries to their owners, so no rank holds the whole file, gzipped or not. An
    array file and a file object are read by rank 0, which sends each rank its entries.

    Parameters
    ----------
    path : str, os.PathLike or a file object
        A path every rank can open (each reads its share); a file object is read by rank 0
        alone.
    engine : {"auto", "scipy", "fmm", "fast_matrix_market"}
        python-graphblas's choice of parser; gblas2d's reader serves each.
    dtype : dtype-like, optional
        Cast the values to this type; default: the ``%%GraphBLAS type`` line's, else FP64
        for ``real``, INT64 for ``integer``, BOOL for ``pattern``.
    dup_op : BinaryOp, optional
        Combine entries listed twice; by default they are an error, as in LAGraph.
    name : str, optional
    grid : Grid, optional (the default grid)

    Raises
    ------
    FileNotFoundError, PermissionError, ...
        The file cannot be read: ``"<path>: No such file or directory"``; when only some
        ranks cannot, the message ends with them: ``"(on rank 3 of 4; the others had no such
        error)"``.
    InvalidValue
        Malformed content: ``"<path>: line 1: unknown format 'mangled' (...)"``.
    NotImplementedException
        Complex values.

    Examples
    --------
    >>> A = mmread("karate.mtx")  # doctest: +SKIP
    >>> A.shape, A.nvals, A.dtype  # doctest: +SKIP
    ((34, 34), 156, BOOL)
    """
    grid = grid or default_grid()
    _check_engine(engine)
    if dtype is not None:
        dtype = lookup_dtype(dtype)
    head = None
    if not hasattr(path, "read"):
        head, first = grid.comm.bcast_object(_head_where_all_open(grid, path))
    if head is not None and head.format == "coordinate":
        share = _mm_share(path, grid, head, first, dtype)
    else:
        # An array file's positions are its values' places in the file, and a file object
        # is rank 0's: rank 0 reads the whole file.
        read = on_root(grid, lambda: _mm_entries(path, dtype))
        head = grid.comm.bcast_object(read[1] if grid.rank == 0 else None)
        share = read[0] if grid.rank == 0 else None
    # The batches hold the only reference to the entries, which go once they are sent.
    batches = _batches(share)
    share = None
    try:
        A = Matrix.from_coo_chunks(batches, nrows=head.nrows, ncols=head.ncols,
                                   value=1 if head.field == "pattern" else None,
                                   dtype=dtype or head.type, dup_op=dup_op, name=name,
                                   grid=grid)
    except InvalidValue as exc:
        if dup_op is not None:
            raise
        raise InvalidValue(f"{path}: duplicate entries (Duplicate indices found: a Matrix "
                           "Market file lists each entry once, and one triangle only when "
                           "symmetric; give dup_op to combine them)") from exc
    if mirrored_alike(head.symmetry == "symmetric", dup_op):
        A.mark_symmetric()
    return A


def _batches(share, size=1 << 20):
    """A rank's entries (rows, cols, values), or None, in batches for ``from_coo_chunks``:
    (rows, cols) alone for a pattern (values None). A batch's indices are widened to int64
    and its keys made as it is sent: its size bounds those temporaries (8 MiB an array)."""
    if share is None:
        return
    rows, cols, values = share
    share = None
    for k in range(0, len(rows), size):
        part = slice(k, k + size)
        yield (rows[part], cols[part]) if values is None else \
            (rows[part], cols[part], values[part])


def _one_triangle(path, A, rows, cols, values, symmetry):
    """The entries a symmetric or skew-symmetric file stores (row >= col), after checking that
    the upper triangle mirrors the lower one."""
    diagonal = np.flatnonzero(rows == cols)
    if symmetry == "skew-symmetric" and len(diagonal):
        k = rows[diagonal[0]]
        raise InvalidValue(f"{path}: a skew-symmetric Matrix has no diagonal entries, but "
                           f"A[{k}, {k}] is present")
    lower, upper = rows > cols, rows < cols
    lo_keys, lo_vals = _sorted_by_key(rows[lower], cols[lower], values[lower], A.ncols)
    # the upper triangle, transposed, must be the lower one (negated when skew-symmetric)
    up_keys, up_vals = _sorted_by_key(cols[upper], rows[upper], values[upper], A.ncols)
    if symmetry == "skew-symmetric":
        up_vals = -up_vals
    if len(lo_keys) != len(up_keys) or not np.array_equal(lo_keys, up_keys):
        bad = np.setxor1d(lo_keys, up_keys)[0]
    else:
        differ = np.flatnonzero(~_equal_values(lo_vals, up_vals))
        bad = lo_keys[differ[0]] if len(differ) else None
    if bad is not None:
        i, j = divmod(int(bad), A.ncols)
        raise InvalidValue(f"{path}: the Matrix is not {symmetry}: A[{i}, {j}] and A[{j}, {i}] "
                           "do not match")
    keep = rows >= cols
    return rows[keep], cols[keep], values[keep]


def _sorted_by_key(rows, cols, values, ncols):
    order = row_major(rows, cols, ncols)
    return rows[order] * ncols + cols[order], values[order]


def _equal_values(a, b):
    if a.dtype.kind == "f":
        return (a == b) | (np.isnan(a) & np.isnan(b))
    return a == b


def _write_mm(path, A, rows, cols, values, symmetry, comment):
    """Rank 0's writing of the gathered entries."""
    import scipy.io
    from scipy.sparse import coo_array

    if symmetry != "general":
        rows, cols, values = _one_triangle(path, A, rows, cols, values, symmetry)
    order = row_major(rows, cols, A.ncols)
    rows, cols, values = rows[order], cols[order], values[order]
    # scipy puts "%" before each comment line, so this one reads "%%GraphBLAS type ..."
    text = f"%GraphBLAS type {_C_NAMES[A.dtype.name]}" + (f"\n{comment}" if comment else "")
    # Integers (BOOL as 0/1) go out as int64 so the field is "integer"; uint64 values above
    # the int64 range need scipy's "unsigned-integer", renamed to "integer" below.
    wide = A.dtype.name == "UINT64" and len(values) and values.max() > np.iinfo(np.int64).max
    if values.dtype.kind in "biu" and not wide:
        values = values.astype(np.int64)
    matrix = coo_array((values, (rows, cols)), shape=A.shape)

    def write(f):
        if not wide:
            scipy.io.mmwrite(f, matrix, comment=text, symmetry=symmetry)
            return
        buffer = io.BytesIO()
        scipy.io.mmwrite(buffer, matrix, comment=text, symmetry=symmetry)
        f.write(buffer.getvalue().replace(b"unsigned-integer", b"integer", 1))

    if hasattr(path, "write"):
        write(path)  # a file object, opened by the caller
    else:
        write_atomically(path, write, compress=os.fspath(path).endswith(".gz"))


def _as_row(v):
    """Collective. The 1 x n Matrix holding Vector ``v`` (how python-graphblas writes one):
    each rank sends its own piece's entries."""
    _, idx, values = v.local_piece()
    return Matrix.from_coo(np.zeros(len(idx), dtype=np.int64), idx + v.offset, values,
                           v.dtype, nrows=1, ncols=v.size, distributed=True, grid=v.grid)


@collective
def mmwrite(path, A, engine="auto", *, symmetry="general", comment=""):
    """Collective. Write a Matrix to a Matrix Market coordinate file (gzipped if ``path``
    ends in ``.gz``).

    Rank 0 gathers the entries and writes them, sorted by row then column, to a temporary file
    in the same directory, then renames it onto ``path``. The header carries LAGraph's
    ``%%GraphBLAS type <ctype>`` line, so ``mmread`` (and LAGraph) get the dtype back; floats
    are written in their shortest exact form, so values round-trip bit for bit.

    Parameters
    ----------
    path : str, os.PathLike or a binary file object (written on rank 0)
    A : Matrix, or a Vector (written as a 1 x n Matrix, as python-graphblas does)
    engine : {"auto", "scipy", "fmm", "fast_matrix_market"}
        python-graphblas's choice of writer; gblas2d's writer serves each.
    symmetry : {"general", "symmetric", "skew-symmetric"}
        For the last two only the lower triangle is written (no diagonal for skew-symmetric),
        after checking that the Matrix is symmetric (``A == A.T``) or skew-symmetric
        (``A == -A.T``); "hermitian" needs complex values (NotImplementedException).
    comment : str
        Comment lines for the header.

    Raises
    ------
    OSError
        The file cannot be written (the same class and message on every rank).
    InvalidValue
        The Matrix does not have the symmetry asked for.

    Examples
    --------
    >>> A = Matrix.from_coo([0, 1], [1, 0], [2.5, 2.5], nrows=2, ncols=2)  # doctest: +SKIP
    >>> mmwrite("a.mtx", A, symmetry="symmetric")  # doctest: +SKIP
    """
    if isinstance(A, Vector):
        A = _as_row(A)
    check_matrix(A)
    _check_engine(engine)
    symmetry = "general" if symmetry is None else str(symmetry).lower()
    if symmetry not in _SYMMETRIES:
        raise ValueError(f"symmetry must be {_one_of(_SYMMETRIES)}; got {symmetry!r}")
    if symmetry == "hermitian":
        raise NotImplementedException(f"{path}: hermitian storage needs complex values "
                                      "(gblas2d has no complex dtype)")
    if symmetry != "general" and A.nrows != A.ncols:
        raise InvalidValue(f"{path}: a {A.nrows}x{A.ncols} Matrix cannot be {symmetry}; only "
                           "a square one can")
    if symmetry == "skew-symmetric" and A.dtype.name in _UNSIGNED:
        raise InvalidValue(f"{path}: skew-symmetric storage needs a signed type, not {A.dtype}")
    rows, cols, values = gather_to_root(A)
    on_root(A.grid, lambda: _write_mm(path, A, rows, cols, values, symmetry, str(comment)))
