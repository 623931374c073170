"""Edge lists (SNAP style): ``read_edgelist``, and the parsing the Graphalytics reader shares.

A file is read in parallel. Rank k takes the whole lines that start in the k-th of P equal
byte ranges of the file (of its gunzipped text for a ``.gz`` file), parses them a piece at a
time (numpy's loadtxt, ``PIECE`` bytes a call), and its edges travel to their owners a piece
at a time (``Matrix.from_coo_chunks``): no rank holds the whole file or the whole edge list.
Two small gathers settle what needs the whole file: the first data line's column count and
each range's first line number, then the smallest and largest id and the first bad line. The
ranges are in file order, so the bad line blamed is the file's first, whatever P.

A file object and ``relabel`` (which numbers the distinct ids of the whole file) are read by
rank 0 alone, through the same parsing.
"""

import io
import itertools
import re
import warnings

import numpy as np

from ..distributed.grid import collective, default_grid
from ..exceptions import IndexOutOfBound, InvalidValue
from ..semirings import binary
from ..semirings.dtypes import lookup_dtype
from ..surface.matrix import Matrix
from ..surface.vector import Vector
from .graphio import excerpt, mirrored_alike, my_text, read_bytes

__all__ = ["read_edgelist"]

# Bytes of text one loadtxt call parses: about 4M edges, so a rank holds its range's text and
# one piece's parsing, however large its range.
PIECE = 1 << 26

# ``relabel="auto"`` numbers the vertices 0..n-1 when the largest id + 1 is more than this many
# times the number of distinct ids: a graph whose ids are labels (hashes, sparse crawl ids).
SPARSE_IDS = 4


def data_lines(text, comments, first=1):
    """(line number, line, fields) of each line of ``text`` (str, or bytes read as latin-1)
    that holds data once comments are cut off; the first line is number ``first``."""
    cut = re.compile(f"[{re.escape(comments)}].*") if comments else None
    newline = b"\n" if isinstance(text, bytes) else "\n"
    pos, number = 0, first - 1
    while pos <= len(text):
        end = text.find(newline, pos)
        end = len(text) if end < 0 else end
        number += 1
        line = text[pos:end]
        line = (line.decode("latin-1") if isinstance(line, bytes) else line).rstrip("\r")
        pos = end + 1
        fields = (cut.sub("", line, count=1) if cut else line).split()
        if fields:
            yield number, line, fields


def line_of(text, comments, k, first=1):
    """(line number, line) of data line k (0-based) of ``text``."""
    return next(itertools.islice(data_lines(text, comments, first), k, None))[:2]


def _edgelist_problem(path, text, comments, ncol, exc, first=1):
    """The error for the first line numpy could not read (found by rereading in Python)."""
    for number, line, fields in data_lines(text, comments, first):
        where = f"{path}: line {number}"
        if len(fields) != ncol:
            columns = "1 column" if len(fields) == 1 else f"{len(fields)} columns"
            return InvalidValue(f"{where}: {columns} where the first edge line has {ncol}: "
                                f"'{excerpt(line)}'")
        for k, field in enumerate(fields):
            try:
                value = int(field) if k < 2 else float(field)
            except ValueError:
                what = "vertex id" if k < 2 else f"column {k + 1}"
                kind = "an integer" if k < 2 else "a number"
                return InvalidValue(f"{where}: {what} '{excerpt(field)}' is not {kind}")
            if k < 2 and not -2**63 <= value < 2**63:
                return InvalidValue(f"{where}: vertex id {field} does not fit in int64")
    return InvalidValue(f"{path}: {exc}")


def columns(path, first, weighted):
    """The column count of every line: the first data line's (``first``: its number, line and
    column count, or None for a file with no data)."""
    if first is None:
        return 2
    number, line, ncol = first
    if ncol < 2:
        raise InvalidValue(f"{path}: line {number}: an edge needs two vertex ids, got "
                           f"'{excerpt(line)}'")
    if weighted and ncol < 3:
        raise InvalidValue(f"{path}: line {number}: weighted=True needs a third column (the "
                           f"weight), got '{excerpt(line)}'")
    return ncol


def first_line(data, comments):
    """(number within ``data``, line, column count) of its first data line, or None."""
    found = next(data_lines(data, comments), None)
    return None if found is None else (found[0], found[1], len(found[2]))


class Parsed:
    """One text's edges, parsed a piece at a time: ``pieces`` holds each piece's (src, dst,
    weights), ``spans`` its (lines of data, byte offsets lo and hi, number of its first line),
    so a line can be found once the arrays are gone; ``problem`` is the first line numpy could
    not read (an exception), after which nothing more is parsed."""

    def __init__(self, path, data, comments, ncol, use_weights, first):
        self.data, self.comments = data, comments
        columns = [("src", np.int64), ("dst", np.int64)] + [(f"c{k}", np.float64)
                                                            for k in range(2, ncol)]
        # numpy parses one comment character in C but several in Python, line by line (ten
        # times slower): make every comment character the first one.
        marks = [c for c in comments if ord(c) < 256]
        table = bytes.maketrans("".join(marks).encode("latin-1"),
                                marks[0].encode("latin-1") * len(marks)) if marks else None
        self.pieces, self.spans, self.problem = [], [], None
        line = first
        for lo, hi in _pieces(data):
            text = data[lo:hi]
            try:
                with warnings.catch_warnings():
                    # numpy warns about an empty text; no edges is a valid (empty) graph
                    warnings.simplefilter("ignore", UserWarning)
                    edges = np.loadtxt(io.BytesIO(text.translate(table) if marks else text),
                                       dtype=columns, comments=marks[:1] or None, ndmin=1,
                                       encoding="latin-1")
            except ValueError as exc:
                self.problem = _edgelist_problem(path, text, comments, ncol, exc, line)
                break
            self.pieces.append((edges["src"], edges["dst"],
                                edges["c2"] if use_weights else None))
            self.spans.append((len(edges), lo, hi, line))
            line += text.count(b"\n")

    def line(self, piece, k, data=None):
        """(line number, line) of data line k (0-based) of piece ``piece``; ``data``: the
        text, when this let it go."""
        _, lo, hi, first = self.spans[piece]
        return line_of((self.data if data is None else data)[lo:hi], self.comments, k, first)

    def where(self, k, data=None):
        """(line number, line) of this text's data line k (0-based), found in its piece."""
        for piece, (count, *_) in enumerate(self.spans):
            if k < count:
                return self.line(piece, k, data)
            k -= count
        raise IndexError(k)

    def column(self, k):
        """Column k (0: sources, 1: destinations, 2: weights) of every piece, joined."""
        parts = [piece[k] for piece in self.pieces]
        return np.concatenate(parts) if parts else np.empty(0, np.float64 if k == 2 else np.int64)


def _pieces(data):
    """(start, end) byte offsets of the whole-line pieces of about ``PIECE`` bytes each."""
    start = 0
    while start < len(data):
        end = len(data)
        if start + PIECE < end:
            end = data.rfind(b"\n", start, start + PIECE) + 1
            if end <= start:  # a line longer than a piece: it is a piece
                end = data.find(b"\n", start + PIECE)
                end = len(data) if end < 0 else end + 1
        yield start, end
        start = end


def edge_table(path, weighted, comments):
    """One process's parsing of a whole edge list (the Graphalytics reader's): (data, src,
    dst, weights), ``data`` the file's bytes (``line_of`` reads them) and the weights the
    third column (float64) when ``weighted`` or, for None, when there is one; else None."""
    data = read_bytes(path)
    first = first_line(data, comments)
    ncol = columns(path, first, weighted)
    use_weights = ncol >= 3 if weighted is None else weighted
    parsed = Parsed(path, data, comments, ncol, use_weights, 1)
    if parsed.problem is not None:
        raise parsed.problem
    return data, parsed.column(0), parsed.column(1), \
        parsed.column(2) if use_weights else None


def _local_problems(path, parsed, base, relabel, nrows):
    """What this rank's edges tell the others, and its sorted distinct ids when it relabels
    (rank 0, which read the whole file, else None). What they are told: (parse problem,
    negative-id problem, the problem of an id 0 under ``base`` 1, those of an id past ``nrows``
    under base 0 and 1, the smallest and the largest id, and with ``relabel`` the number of
    distinct ids and whether to number them). A problem is an exception; the first rank that
    has one (the earliest line) is blamed. Finding a line is a scan in Python, so it is done
    only for what is an error: base "auto" is 1 only when no id is 0."""
    if parsed.problem is not None:
        return (parsed.problem, None, None, (None, None), None, None, None), None
    negative = zero = None
    high, low, top = [None, None], None, None
    # A piece at a time, so no array of the whole share is made beside the pieces.
    for piece, (src, dst, _) in enumerate(parsed.pieces):
        smaller, larger = np.minimum(src, dst), np.maximum(src, dst)

        def where(hits, piece=piece):
            """(index, line number, excerpt) of the piece's first hit, or None."""
            if not len(hits):
                return None
            number, text = parsed.line(piece, int(hits[0]))
            return int(hits[0]), number, excerpt(text)

        # A negative id is wrong under any base, so it is blamed first: base="auto" would pick
        # 1 for it and blame an earlier line's 0 instead.
        if negative is None and (at := where(np.flatnonzero(smaller < 0))):
            k, number, text = at
            negative = InvalidValue(f"{path}: line {number}: negative vertex id {smaller[k]}: "
                                    f"'{text}'")
        if base == 1 and zero is None and (at := where(np.flatnonzero(smaller == 0))):
            zero = InvalidValue(f"{path}: line {at[1]}: vertex id 0 with base=1: '{at[2]}'")
        for b in (0, 1) if nrows is not None else ():
            if high[b] is None and (at := where(np.flatnonzero(larger - b >= nrows))):
                k, number, text = at
                high[b] = IndexOutOfBound(f"{path}: line {number}: vertex id {larger[k]} is "
                                          f"out of range for nrows={nrows} (base={b}): "
                                          f"'{text}'")
        if len(src):
            low = min(int(smaller.min()), low if low is not None else np.iinfo(np.int64).max)
            top = max(int(larger.max()), top if top is not None else -1)
    ids = numbering = None
    if relabel and negative is None:
        ids = np.unique(np.concatenate([parsed.column(0), parsed.column(1)]))
        numbering = (len(ids), relabel is True or
                     bool(len(ids) and int(ids[-1]) + 1 > SPARSE_IDS * len(ids)))
    return (None, negative, zero, tuple(high), low, top, numbering), ids


def _agree(heard, base, nrows, relabel):
    """(base, n, whether the ids are numbered) from every rank's ``_local_problems``, or the
    first problem raised (the same on every rank)."""
    for kind in (0, 1):
        for problems in heard:
            if problems[kind] is not None:
                raise problems[kind]
    if relabel and heard[0][6][1]:  # rank 0 read the whole file
        return 0, heard[0][6][0], True
    lows = [p[4] for p in heard if p[4] is not None]
    if base == "auto":
        base = 0 if lows and min(lows) == 0 else 1
    for problems in heard:
        if base == 1 and problems[2] is not None:
            raise problems[2]
        if problems[3][base] is not None:
            raise problems[3][base]
    tops = [p[5] for p in heard if p[5] is not None]
    n = nrows if nrows is not None else (max(tops) - base + 1 if tops else 0)
    return base, n, False


def _batches(parsed, base, ids, symmetric, use_weights, dtype):
    """This rank's edges, a piece at a time, as ``from_coo_chunks`` takes them; each piece is
    let go once its edges have left, and the text before the first."""
    parsed.data = None
    while parsed.pieces:
        src, dst, weights = parsed.pieces.pop(0)
        if ids is not None:
            src, dst = np.searchsorted(ids, src), np.searchsorted(ids, dst)
        elif base:
            src, dst = src - base, dst - base
        values = None
        if use_weights:
            with np.errstate(all="ignore"):
                values = weights.astype(dtype.np_type)
        if symmetric:
            src, dst, values = both_ways(src, dst, values)
        yield (src, dst, values) if use_weights else (src, dst)


def both_ways(src, dst, values):
    """Every edge and its reverse: an undirected graph's entries. A self-loop reversed is
    itself, so it stays once (adding it again would make a repeat). ``values`` may be None."""
    loop = src == dst
    return (np.concatenate([src, dst[~loop]]), np.concatenate([dst, src[~loop]]),
            None if values is None else np.concatenate([values, values[~loop]]))


@collective
def read_edgelist(path, *, base=0, weighted=None, nrows=None, symmetric=False,
                  dup_op=binary.min, dtype=None, comments="#%", relabel=False, name=None,
                  grid=None):
    """Collective. Read a whitespace-separated edge list (SNAP style) into an n x n Matrix.

    Each data line is ``src dst`` or ``src dst weight`` (further numeric columns are ignored);
    every line has as many columns as the first. Text from any character of ``comments`` to
    the end of its line is ignored, and so are blank lines. Self-loops are kept.

    Every rank reads and parses its share of the file's lines (numpy's loadtxt) and sends the
    edges to their owners a piece at a time, so no rank holds the whole file, gzipped or not.
    A file object and ``relabel`` are read by rank 0 alone.

    Parameters
    ----------
    path : str, os.PathLike or a file object (read on rank 0)
        ``.gz`` files are decompressed.
    base : 0, 1 or "auto", default 0
        The smallest vertex id. "auto": 0 if some id is 0, else 1.
    weighted : bool, optional
        Take the third column as the edge value; default: when there is one. Unweighted edges
        are 1 (True for BOOL).
    nrows : int, optional
        Number of vertices; default: the largest id + 1 (after ``base``).
    symmetric : bool, default False
        Add every edge reversed (an undirected graph).
    dup_op : BinaryOp, default binary.min
        Combines an edge listed more than once (and an edge given in both directions when
        ``symmetric``); None makes repeats an error.
    dtype : dtype-like, optional (FP64)
    comments : str, default "#%"
    relabel : bool or "auto", default False
        True: the ids are labels. The n distinct ids become vertices 0..n-1 in ascending
        order, whatever their size (a 64-bit hash, an id beyond 2**32), and the call returns
        ``(A, ids)``, ``ids`` the INT64 Vector whose entry i is vertex i's id in the file (as
        ``read_graphalytics`` gives it), so results can be written with the file's ids.
        "auto": relabel when the largest id + 1 is more than ``SPARSE_IDS`` (4) times the
        number of distinct ids, and return ``(A, ids)`` with ids None when the ids were kept.
        ``base`` and ``nrows`` do not apply to relabeled ids.
    name : str, optional
    grid : Grid, optional (the default grid)

    Returns
    -------
    Matrix, or ``(Matrix, ids)`` with ``relabel``.

    Raises
    ------
    OSError
        The file cannot be read.
    InvalidValue
        A ragged line, an id that is not an integer, a weight that is not a number, a negative
        id, or an id 0 with ``base=1``: ``"<path>: line 7: 2 columns where the first edge
        line has 3: '4 5'"``.
    IndexOutOfBound
        An id beyond ``nrows``.

    Examples
    --------
    >>> A = read_edgelist("roadNet-CA.txt.gz", symmetric=True)  # doctest: +SKIP
    >>> A.nrows  # doctest: +SKIP
    1971281
    """
    if base not in (0, 1, "auto") or isinstance(base, bool):
        raise ValueError(f"base must be 0, 1 or 'auto'; got {base!r}")
    if weighted not in (None, True, False):
        raise ValueError(f"weighted must be None, True or False; got {weighted!r}")
    if nrows is not None and (int(nrows) != nrows or nrows < 0):
        raise ValueError(f"nrows (={nrows}) must be a non-negative integer")
    if not isinstance(comments, str):
        raise TypeError(f"comments must be a string of characters; got {comments!r}")
    if relabel not in (False, True, "auto"):
        raise ValueError(f"relabel must be False, True or 'auto'; got {relabel!r}")
    if relabel is True and nrows is not None:
        raise ValueError("nrows cannot be given with relabel=True: n is the number of ids")
    grid = grid or default_grid()
    out_type = lookup_dtype("FP64" if dtype is None else dtype)
    nrows = None if nrows is None else int(nrows)
    split = not relabel and not hasattr(path, "read")
    with grid.comm.agreed():
        # the whole file on rank 0 and nothing elsewhere, unless split
        data = my_text(path, grid) if split else read_bytes(path) if grid.rank == 0 else b""
    # Each range's newlines number the next ranges' lines; its first data line may be the
    # file's, whose column count every line must have.
    heard = grid.comm.allgather_object((data.count(b"\n"), first_line(data, comments)))
    starts = np.cumsum([1] + [count for count, _ in heard])
    first = next(((starts[r] + found[0] - 1, *found[1:]) for r, (_, found) in enumerate(heard)
                  if found is not None), None)
    ncol = columns(path, first, weighted)
    use_weights = ncol >= 3 if weighted is None else weighted
    parsed = Parsed(path, data, comments, ncol, use_weights, int(starts[grid.rank]))
    data = None  # parsed holds it until the edges leave
    told, ids = _local_problems(path, parsed, base, relabel, nrows)
    base, n, numbered = _agree(grid.comm.allgather_object(told), base, nrows, relabel)
    batches = _batches(parsed, base, ids if numbered else None, symmetric, use_weights,
                       out_type)
    try:
        A = Matrix.from_coo_chunks(batches, nrows=n, ncols=n,
                                   value=None if use_weights else 1, dtype=out_type,
                                   dup_op=dup_op, name=name, grid=grid)
    except InvalidValue as exc:
        if dup_op is not None:
            raise
        raise InvalidValue(f"{path}: repeated edges (give dup_op to combine them)") from exc
    if mirrored_alike(symmetric, dup_op):
        A.mark_symmetric()
    if not relabel:
        return A
    if not numbered:
        return A, None
    mine = ids if grid.rank == 0 else np.empty(0, np.int64)
    return A, Vector.from_coo(np.arange(len(mine)), mine, dtype="INT64", size=n,
                              distributed=True, grid=grid)
