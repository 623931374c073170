"""LDBC Graphalytics graphs: a vertex file ``NAME.v``, an edge file ``NAME.e`` and, often,
``NAME.properties``.

The vertex file lists one id per line: any non-negative 64-bit integers, not necessarily
contiguous. The edge file lists ``src dst`` or ``src dst weight`` per line; an undirected graph
lists each edge once. The properties file (Java properties) says whether the graph is directed
(``graph.NAME.directed = true``). Vertex i of the Matrix is the i-th id in ascending order.

A vertex file in ascending order (as Graphalytics writes them) is read in parallel: each rank
parses the lines that start in its 1/P of each file's bytes, vertex i is the i-th id counted
over the ranks in order, and each rank asks the ranks holding its edges' endpoints for their
positions. A vertex file in another order is read by rank 0, which sorts the ids and sends
every rank its entries. Failures, the file's first, are raised on every rank with the same
class and message.
"""

import io
import itertools
import os
import re
import warnings

import numpy as np

from ..distributed import redistribute as redist
from ..distributed.grid import collective, default_grid
from ..exceptions import InvalidValue
from ..semirings.dtypes import lookup_dtype
from ..surface.matrix import Matrix
from ..surface.vector import Vector
from .edgelist import Parsed, both_ways, columns, data_lines, edge_table, first_line, line_of
from .graphio import excerpt, my_text, on_root, read_bytes

__all__ = ["graphalytics_files", "read_graphalytics"]

# the names of a graph's files: NAME + each
SUFFIXES = (".v", ".e", ".properties")


def graphalytics_files(path):
    """(vertex file, edge file, properties file) of the graph named by one of its files or by
    their common prefix (``dir/NAME``). Names only: nothing is read, nothing communicated."""
    prefix = os.fspath(path)
    for suffix in SUFFIXES:
        if prefix.endswith(suffix):
            prefix = prefix[:-len(suffix)]
            break
    return tuple(prefix + suffix for suffix in SUFFIXES)


# One entry of a Java properties file: the key ends at the first unescaped '=', ':' or blank.
_PROPERTY = re.compile(r"((?:\\.|[^\s=:\\])+)\s*[=:]?\s*(.*)")


def _properties(text):
    """(line number, key, value) of each entry of Java properties text; a line that ends in
    an odd number of backslashes continues on the next one."""
    entry, start = "", 0
    for number, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r").lstrip()
        if not entry and (not line or line[0] in "#!"):
            continue
        start = start or number
        if (len(line) - len(line.rstrip("\\"))) % 2:
            entry += line[:-1]
            continue
        match = _PROPERTY.fullmatch(entry + line)
        if match:
            yield start, match[1], match[2].strip()
        entry, start = "", 0


def _direction(path, name, directed):
    """Whether the graph is directed: as the properties file says (then ``directed``, if
    given, must agree), else as ``directed`` says."""
    key = f"graph.{name}.directed"
    try:
        text = read_bytes(path).decode("latin-1")
    except FileNotFoundError:
        text = None
    # as in Java, the last entry of a key wins
    stated = [(number, value) for number, k, value in _properties(text or "") if k == key]
    if not stated:
        if directed is None:
            what = "no such file" if text is None else f"no '{key}' entry"
            raise InvalidValue(f"{path}: {what} says whether the graph is directed; give "
                               "directed=True or False")
        return directed
    number, value = stated[-1]
    if value.lower() not in ("true", "false"):
        raise InvalidValue(f"{path}: line {number}: {key} must be 'true' or 'false', got "
                           f"'{excerpt(value)}'")
    says = value.lower() == "true"
    if directed is not None and directed != says:
        kind, other = ("directed", "undirected") if says else ("undirected", "directed")
        raise InvalidValue(f"{path}: line {number}: the graph is {kind} ({key} = "
                           f"{value}); it cannot be read as {other}")
    return says


def _vertex_problem(path, text, reason, first=1):
    """The error for the first vertex line numpy could not read (found by rereading it);
    ``text``'s first line is number ``first``."""
    for number, line, fields in data_lines(text, "", first):
        where = f"{path}: line {number}"
        if len(fields) != 1:
            return InvalidValue(f"{where}: {len(fields)} values where a vertex line holds one "
                                f"id: '{excerpt(line)}'")
        try:
            value = int(fields[0])
        except ValueError:
            return InvalidValue(f"{where}: vertex id '{excerpt(fields[0])}' is not an integer")
        if not -2**63 <= value < 2**63:
            return InvalidValue(f"{where}: vertex id {excerpt(fields[0])} does not fit in int64")
    return InvalidValue(f"{path}: {reason}")


def _parse_ids(path, data, first=1):
    """The ids of vertex-file text whose first line is number ``first``, in file order: each
    line one integer, none negative."""
    try:
        with warnings.catch_warnings():
            # numpy warns about an empty file; no vertices is a valid (empty) graph
            warnings.simplefilter("ignore", UserWarning)
            table = np.loadtxt(io.BytesIO(data), dtype=np.int64, ndmin=2, comments=None,
                               encoding="latin-1")
    except ValueError as exc:
        raise _vertex_problem(path, data, exc, first) from exc
    if table.shape[1] != 1:
        raise _vertex_problem(path, data, "a line holds more than one id", first)
    ids = table[:, 0]
    negative = np.flatnonzero(ids < 0)
    if len(negative):
        number, _ = line_of(data, "", negative[0], first)
        raise InvalidValue(f"{path}: line {number}: negative vertex id {ids[negative[0]]}")
    return ids


def _vertex_ids(path):
    """Rank 0's reading of the vertex file: its ids in ascending order, each listed once."""
    data = read_bytes(path)
    ids = _parse_ids(path, data)
    if np.all(ids[1:] > ids[:-1]):
        # ascending, as Graphalytics writes them: nothing to sort or repeat
        return ids
    order = np.argsort(ids, kind="stable")
    ascending = ids[order]
    repeats = np.flatnonzero(ascending[1:] == ascending[:-1])
    if len(repeats):
        # the stable sort keeps equal ids in line order: the first line that repeats one
        k = int(order[repeats + 1].min())
        first, _ = line_of(data, "", int(np.flatnonzero(ids == ids[k])[0]))
        number, line = line_of(data, "", k)
        raise InvalidValue(f"{path}: line {number}: vertex id {ids[k]} is listed again (first "
                           f"on line {first}): '{excerpt(line)}'")
    return ascending


class _Vertices:
    """This rank's share of an ascending vertex file: its ids, the position of the first, and
    where every id lives (the first id of each nonempty share, and its rank)."""

    def __init__(self, ids, offset, n, firsts, ranks):
        self.ids, self.offset, self.n = ids, offset, n
        self.firsts, self.ranks = np.asarray(firsts, np.int64), np.asarray(ranks, np.int64)

    def owners(self, vertices):
        """The rank whose share would hold each of ``vertices``."""
        if not len(self.ranks):
            return np.zeros(len(vertices), np.int64)
        at = np.searchsorted(self.firsts, vertices, side="right") - 1
        return self.ranks[np.maximum(at, 0)]

    def answer(self, asked):
        """(listed, position) of each id asked of this rank."""
        at, listed = _positions(self.ids, asked)
        return listed, at + self.offset


def _vertex_share(path, grid):
    """Collective. This rank's share of the vertex file (the lines that start in its 1/P of
    the bytes) when the file lists its ids in ascending order, as Graphalytics writes them, as
    ``_Vertices``; None when it does not (rank 0 then sorts them). A malformed line, the
    file's first, is raised on every rank."""
    with grid.comm.agreed():
        data = my_text(path, grid)
    counts = grid.comm.allgather_object(data.count(b"\n"))
    problem, ids = None, np.empty(0, np.int64)
    try:
        ids = _parse_ids(path, data, 1 + sum(counts[:grid.rank]))
    except InvalidValue as exc:
        problem = exc
    ends = (int(ids[0]), int(ids[-1])) if len(ids) else None
    heard = grid.comm.allgather_object((problem, len(ids), ends,
                                        bool(np.all(ids[1:] > ids[:-1]))))
    for problem, *_ in heard:
        if problem is not None:
            raise problem
    shares = [(rank, ends) for rank, (_, _, ends, _) in enumerate(heard) if ends is not None]
    if not all(ascending for *_, ascending in heard) or \
            any(left[1][1] >= right[1][0] for left, right in itertools.pairwise(shares)):
        return None
    sizes = [size for _, size, _, _ in heard]
    return _Vertices(ids, sum(sizes[:grid.rank]), sum(sizes),
                     [ends[0] for _, ends in shares], [rank for rank, _ in shares])


def _edge_share(path, vertex_path, grid, weighted, vertices):
    """Collective. This rank's edges (the lines that start in its 1/P of the edge file's
    bytes) as positions among the vertices: (rows, cols, weights or None). A malformed line,
    then an endpoint not listed in the vertex file, the file's first, is raised on every
    rank."""
    with grid.comm.agreed():
        data = my_text(path, grid)
    heard = grid.comm.allgather_object((data.count(b"\n"), first_line(data, "")))
    starts = np.cumsum([1] + [count for count, _ in heard])
    first = next(((starts[r] + found[0] - 1, *found[1:]) for r, (_, found) in enumerate(heard)
                  if found is not None), None)
    ncol = columns(path, first, weighted)
    use_weights = ncol >= 3 if weighted is None else weighted
    parsed = Parsed(path, data, "", ncol, use_weights, int(starts[grid.rank]))
    # The text and the pieces go before the endpoints travel (an error's line is read
    # again): sources, then destinations, joined.
    data = parsed.data = None
    ends = np.concatenate([parsed.column(0), parsed.column(1)])
    weights = parsed.column(2) if use_weights else None
    parsed.pieces = []
    half = len(ends) // 2
    listed, at = redist.ask(grid, vertices.owners(ends), ends, vertices.answer, np.int64) \
        if grid.nprocs > 1 else vertices.answer(ends)
    unlisted = np.flatnonzero(~(listed[:half] & listed[half:]))
    problem = None
    if len(unlisted) and parsed.problem is None:
        k = int(unlisted[0])
        number, line = parsed.where(k, my_text(path, grid))
        problem = InvalidValue(f"{path}: line {number}: vertex "
                               f"{ends[k] if not listed[k] else ends[half + k]} is not listed "
                               f"in {vertex_path}: '{excerpt(line)}'")
    heard = grid.comm.allgather_object((parsed.problem, problem))
    for kind in (0, 1):
        for problems in heard:
            if problems[kind] is not None:
                raise problems[kind]
    return at[:half], at[half:], weights


def _positions(ids, vertices):
    """(position of each vertex among the ascending ids, whether it is there at all)."""
    at = np.searchsorted(ids, vertices)
    if not len(ids):
        return at, np.zeros(len(vertices), bool)
    return at, ids[np.minimum(at, len(ids) - 1)] == vertices


def _entries(files, weighted):
    """Rank 0's reading of a graph whose vertex file is not in ascending order: (rows, cols,
    weights or None, ids)."""
    vertex_file, edge_file, _ = files
    ids = _vertex_ids(vertex_file)
    text, src, dst, weights = edge_table(edge_file, weighted, "")
    rows, src_listed = _positions(ids, src)
    cols, dst_listed = _positions(ids, dst)
    unlisted = np.flatnonzero(~(src_listed & dst_listed))
    if len(unlisted):
        k = unlisted[0]
        number, line = line_of(text, "", k)
        raise InvalidValue(f"{edge_file}: line {number}: vertex "
                           f"{src[k] if not src_listed[k] else dst[k]} is not listed in "
                           f"{vertex_file}: '{excerpt(line)}'")
    return rows, cols, weights, ids


@collective
def read_graphalytics(path, *, directed=None, weighted=None, dtype=None, name=None, grid=None):
    """Collective. Read an LDBC Graphalytics graph (``NAME.v``, ``NAME.e``, and
    ``NAME.properties`` when there is one) into an n x n Matrix and its vertex ids.

    Vertex i is the i-th id of the vertex file in ascending order; every edge endpoint must be
    listed there. An undirected graph's edges, listed once, are entered both ways (a self-loop
    once) and the Matrix is marked symmetric. Every rank reads its share of the files' lines
    when the vertex file is in ascending order; rank 0 reads them otherwise. No rank holds the
    whole edge list or every id.

    Parameters
    ----------
    path : str or os.PathLike
        The ``.v``, ``.e`` or ``.properties`` file, or their common prefix ``dir/NAME``.
    directed : bool, optional
        Default: what ``graph.NAME.directed`` of ``NAME.properties`` says (``true`` or
        ``false``); needed when there is no such entry, and must agree with it when there is.
    weighted : bool, optional
        Take the edge file's third column as the edge value; default: when there is one.
    dtype : dtype-like, optional
        Default FP64 for weights, BOOL (every edge True) without.
    name : str, optional
        The Matrix's name.
    grid : Grid, optional (the default grid)

    Returns
    -------
    A : Matrix
        ``A[i, j]`` for the edge from the i-th id to the j-th (and back when undirected).
    ids : Vector
        INT64, full, of size n: ``ids[i]`` is vertex i's id in the files.

    Raises
    ------
    FileNotFoundError, PermissionError, ...
        The vertex or edge file cannot be read: ``"g.e: No such file or directory"``.
    InvalidValue
        The direction is neither stated nor given, or contradicts the properties file; a
        vertex line that is not one non-negative integer, an id listed twice, a malformed
        edge line, an endpoint that is not a listed vertex (``"g.e: line 3: vertex 42 is
        not listed in g.v: '7 42'"``), or an edge listed twice (both ways, when undirected).

    Examples
    --------
    >>> A, ids = read_graphalytics("example-directed.v")  # doctest: +SKIP
    >>> A.shape, A.nvals, ids[0].value  # doctest: +SKIP
    ((10, 10), 17, 1)
    """
    if directed not in (None, True, False):
        raise ValueError(f"directed must be None, True or False; got {directed!r}")
    if weighted not in (None, True, False):
        raise ValueError(f"weighted must be None, True or False; got {weighted!r}")
    grid = grid or default_grid()
    dtype = None if dtype is None else lookup_dtype(dtype)
    files = graphalytics_files(path)
    vertex_file, edge_file, properties_file = files
    graph = os.path.basename(properties_file)[:-len(".properties")]
    directed = grid.comm.bcast_object(on_root(
        grid, lambda: _direction(properties_file, graph, directed)))
    vertices = _vertex_share(vertex_file, grid)
    if vertices is not None:
        rows, cols, weights = _edge_share(edge_file, vertex_file, grid, weighted, vertices)
        n, ids, first = vertices.n, vertices.ids, vertices.offset
        use_weights = weights is not None  # the first edge line's, on every rank
    else:
        read = on_root(grid, lambda: _entries(files, weighted))
        n, use_weights = grid.comm.bcast_object((len(read[3]), read[2] is not None)
                                                if grid.rank == 0 else None)
        if grid.rank == 0:
            rows, cols, weights, ids = read
        else:
            rows = cols = ids = np.empty(0, np.int64)
            weights = np.empty(0) if use_weights else None
        first = 0
    out_type = dtype or lookup_dtype("FP64" if use_weights else "BOOL")
    with np.errstate(all="ignore"):
        values = np.ones(len(rows), dtype=out_type.np_type) if weights is None else \
            weights.astype(out_type.np_type)
    if not directed:
        rows, cols, values = both_ways(rows, cols, values)
    try:
        A = Matrix.from_coo_chunks([(rows, cols, values)], nrows=n, ncols=n, dtype=out_type,
                                   name=name, grid=grid)
    except InvalidValue as exc:
        both = "" if directed else " (in one direction: the graph is undirected)"
        raise InvalidValue(f"{edge_file}: repeated edges; a Graphalytics edge file lists each "
                           f"edge once{both}") from exc
    if not directed:
        # no repeats, so A is exactly its mirror image
        A.mark_symmetric()
    ids = Vector.from_coo(np.arange(first, first + len(ids)), ids, dtype="INT64", size=n,
                          distributed=True, grid=grid)
    return A, ids
